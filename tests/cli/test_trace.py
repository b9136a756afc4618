"""Traces: the reference searches walk the backends' trees, the players replay them."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET

import pytest

from queenslab import api
from queenslab.core.problem import Problem
from queenslab.trace import TRACED, trace
from queenslab.trace.svg import replay
from queenslab.trace.tree import layout
from tests import oracle

ROW_SEARCHES = ["backtrack", "bitmask"]


def _kinds(tracer, kind):
    return [s for s in tracer.steps if s["kind"] == kind]


@pytest.mark.parametrize("method", ROW_SEARCHES)
@pytest.mark.parametrize(
    "problem",
    [
        Problem(6),
        Problem(7, variant="toroidal"),
        Problem(7, blocked=((0, 1), (3, 3))),
        Problem(8, givens=((2, 5),)),
        Problem(9, variant="superqueens"),
    ],
    ids=repr,
)
def test_row_searches_walk_the_backtracking_tree(method, problem):
    """Same node count and the same solutions, in order, as the backtrack backend."""
    tracer = trace(problem, method, every=True)
    solutions = api.enumerate_solutions(problem, "backtrack")
    expected = [p.to_list() for p in solutions]
    assert [s["cols"] for s in _kinds(tracer, "solution")] == expected
    assert len(_kinds(tracer, "place")) + 1 == solutions.stats["nodes"]
    assert len(_kinds(tracer, "place")) == len(_kinds(tracer, "remove"))  # all undone
    assert tracer.steps[-1]["status"] == "exhausted"


def test_bitmask_places_as_backtracking_does_without_failed_tests():
    problem = Problem(8)
    slow, fast = trace(problem, "backtrack"), trace(problem, "bitmask")
    cells = [[(s["row"], s["col"]) for s in _kinds(t, "place")] for t in (slow, fast)]
    assert cells[0] == cells[1]
    assert _kinds(slow, "reject") and not _kinds(fast, "reject")


def test_replay_reaches_each_solution_and_a_dead_end_empties_the_board():
    tracer = trace(Problem(3), "backtrack")
    states = list(replay(3, tracer.steps))
    assert tracer.steps[-1]["status"] == "no solution"
    assert states[-1] == [-1, -1, -1]
    tracer = trace(Problem(8, variant="toroidal", blocked=((0, 0),)), "bitmask", every=True)
    for step, state in zip(tracer.steps, replay(8, tracer.steps), strict=True):
        if step["kind"] == "solution":
            assert Problem(8, variant="toroidal").board.is_valid(state)


@pytest.mark.parametrize("method", ["min-conflicts", "hill-climbing"])
@pytest.mark.parametrize("seed", [0, 7])
def test_local_search_conflicts_are_the_boards_attacking_pairs(method, seed):
    problem = Problem(20)
    tracer = trace(problem, method, seed=seed)
    assert tracer.steps[-1]["status"] == "solved"
    for step, state in zip(tracer.steps, replay(20, tracer.steps), strict=True):
        if "conflicts" in step:
            assert len(problem.board.check(state).attacking) == step["conflicts"]
    assert problem.board.is_valid(_kinds(tracer, "solution")[-1]["cols"])


def test_las_vegas_restarts_and_finishes_with_a_valid_board():
    problem = Problem(12)
    tracer = trace(problem, "las-vegas", seed=3, step=8)
    assert _kinds(tracer, "restart")
    assert problem.board.is_valid(_kinds(tracer, "solution")[0]["cols"])


def test_tree_layout_one_node_per_place_children_below_parents():
    tracer = trace(Problem(6), "backtrack", every=True)
    tree = layout(tracer.steps)
    assert len(tree["x"]) == len(_kinds(tracer, "place")) + 1
    for node in range(1, len(tree["x"])):
        assert tree["depth"][node] == tree["depth"][tree["parent"][node]] + 1
    leaves = sorted(tree["x"][i] for i in range(len(tree["x"])) if i not in tree["parent"])
    assert leaves == list(range(len(leaves)))


def test_a_cut_trace_says_so():
    tracer = trace(Problem(12), "backtrack", max_steps=50)
    assert len(tracer.steps) == 51 and tracer.truncated


def test_cli_formats_and_bounds(queens, tmp_path):
    run = queens("trace", "5", "--backend", "bitmask", "--format", "jsonl")
    assert run.returncode == 0
    steps = [json.loads(line) for line in run.stdout.splitlines()]
    assert steps[-1] == {"step": len(steps) - 1, "kind": "end", "status": "solved"}
    page = tmp_path / "bt.html"
    assert queens("trace", "6", "--all", "--output", str(page)).returncode == 0
    text = page.read_text()
    assert '"tree"' in text and "http" not in text.split("<script", 1)[1]
    picture = tmp_path / "hc.svg"
    assert (
        queens("trace", "8", "-b", "hill-climbing", "--seed", "1", "-o", str(picture)).returncode
        == 0
    )
    assert ET.parse(picture).getroot().tag.endswith("svg")
    too_big = queens("trace", str(TRACED["backtrack"].max_n + 1))
    assert too_big.returncode == 2 and too_big.stderr.count("\n") == 1
    cut = queens("trace", "12", "--max-steps", "10")
    assert cut.returncode == 3 and json.loads(cut.stdout.splitlines()[-1])["status"] == "step limit"
    assert queens("trace", "10", "-b", "min-conflicts", "--variant", "superqueens").returncode == 2
    assert queens("trace", "8", "-b", "las-vegas", "--step", "9").returncode == 2
    gif = tmp_path / "lv.gif"
    assert queens("trace", "8", "-b", "las-vegas", "--seed", "1", "-o", str(gif)).returncode == 0
    assert gif.read_bytes().startswith(b"GIF89a")


def test_the_player_marks_attacked_queens_of_local_search():
    from queenslab.trace.html import attacked_rows

    problem = Problem(12)
    tracer = trace(problem, "min-conflicts", seed=2)
    marked = attacked_rows(tracer, problem.board)
    for step, rows in zip(tracer.steps, marked, strict=True):
        if "conflicts" in step:
            assert bool(rows) == (step["conflicts"] > 0)
    assert marked[-1] == []


def _browser():
    """A headless Chromium through Selenium, or a skip saying what is missing."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.skip("chromium and chromedriver not installed (Debian: chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(driver))


@pytest.mark.parametrize(("method", "n"), [("backtrack", 6), ("min-conflicts", 30)])
def test_page_plays_in_a_headless_browser(tmp_path, method, n):
    from queenslab.trace.html import page

    path = tmp_path / "trace.html"
    path.write_text(page(trace(Problem(n), method, seed=1), "trace"), encoding="utf-8")
    browser = _browser()
    try:
        browser.get(path.as_uri())
        board = browser.find_element("id", "board")
        pixels = browser.execute_script("return arguments[0].toDataURL()", board)
        before = board.get_attribute("data-cols")
        browser.find_element("id", "step").click()
        assert board.get_attribute("data-cols") != before
        assert browser.execute_script("return arguments[0].toDataURL()", board) != pixels
        assert browser.find_element("id", "status").text.startswith("step 1 of")
        browser.find_element("id", "step").click()
        browser.find_element("id", "back").click()
        assert browser.find_element("id", "status").text.startswith("step 1 of")
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
    finally:
        browser.quit()


def test_min_conflicts_trace_avoids_blocked_cells():
    blocked = [(0, c) for c in range(0, 8, 2)]
    for seed in range(12):  # a blind search would put row 0's queen on a blocked cell half the time
        tracer = trace(Problem(8, blocked=blocked), "min-conflicts", seed=seed)
        solution = next(step for step in tracer.steps if step["kind"] == "solution")
        assert oracle.is_solution(solution["cols"], 8, blocked=blocked), seed
