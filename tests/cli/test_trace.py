"""Traces: the reference searches walk the backends' trees, the players replay them."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from queenslab import api
from queenslab.core.problem import Problem
from queenslab.trace import TRACED, trace
from queenslab.trace.captions import caption
from queenslab.trace.replay import replay
from queenslab.trace.tree import nodes
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


def test_tree_nodes_one_per_place_solutions_and_failures_marked():
    tracer = trace(Problem(6), "backtrack", every=True)
    tree = nodes(tracer.steps)
    count = len(tree["parent"])
    assert count == len(_kinds(tracer, "place")) + 1
    assert all(0 <= tree["parent"][v] < v for v in range(1, count))
    assert sum(1 for f in tree["solved"] if f) == 4
    leaves = set(range(count)) - set(tree["parent"])
    failed = {v for v, f in enumerate(tree["failed"]) if f}
    assert {v for v in leaves if not tree["solved"][v]} == failed
    assert all(tree["end"][v] > tree["born"][v] for v in range(1, count))


def test_forward_checking_fails_at_the_wipeout_and_shows_domains():
    tracer = trace(Problem(8), "forward-checking")
    wipeouts = _kinds(tracer, "wipeout")
    assert wipeouts
    assert {s["step"] for s in wipeouts} <= set(nodes(tracer.steps)["failed"])
    for step in _kinds(tracer, "place"):
        assert step["domains"][step["row"]] == 1 << step["col"]


def test_mac_keeps_subsets_of_forward_checkings_domains_and_prunes_more():
    fc, mac = (_kinds(trace(Problem(8), m), "place") for m in ("forward-checking", "mac"))
    shared = 0
    while (fc[shared]["row"], fc[shared]["col"]) == (mac[shared]["row"], mac[shared]["col"]):
        shared += 1
    pairs = [(f["domains"], m["domains"]) for f, m in zip(fc[:shared], mac[:shared], strict=True)]
    assert all(m & ~f == 0 for f_rows, m_rows in pairs for f, m in zip(f_rows, m_rows, strict=True))
    assert any(sum(map(int.bit_count, m)) < sum(map(int.bit_count, f)) for f, m in pairs)


def test_captions_name_the_cell_the_attacker_and_the_line():
    tracer = trace(Problem(8), "backtrack")
    assert caption(_kinds(tracer, "reject")[0]) == "row 1 col 0 attacked by row 0 along the column"
    diagonal = next(s for s in _kinds(tracer, "reject") if s["line"].startswith("diag"))
    assert caption(diagonal).endswith("along a diagonal")
    given = trace(Problem(8, givens=((1, 3),)), "backtrack")
    assert caption(_kinds(given, "place")[1]) == "row 1: the given queen on col 3"
    assert caption(given.steps[-1]) == "the search ends: solved; solutions found: 1"


def test_replay_reaches_each_solution_and_a_dead_end_empties_the_board():
    tracer = trace(Problem(3), "backtrack")
    states = list(replay(3, tracer.steps))
    assert tracer.steps[-1]["status"] == "no solution"
    assert states[-1] == [-1, -1, -1]
    tracer = trace(Problem(8, variant="toroidal", blocked=((0, 0),)), "bitmask", every=True)
    for step, state in zip(tracer.steps, replay(8, tracer.steps), strict=True):
        if step["kind"] == "solution":
            assert Problem(8, variant="toroidal").board.is_valid(state)


def test_an_exhausted_search_ends_on_its_last_solution():
    tracer = trace(Problem(6), "backtrack", every=True)
    states = list(replay(6, tracer.steps))
    assert states[-1] == _kinds(tracer, "solution")[-1]["cols"]
    assert states[-2] == [-1] * 6  # the search itself has emptied the board


@pytest.mark.slow
def test_the_whole_n10_tree_fits_in_the_default_step_limit():
    tracer = trace(Problem(10), "backtrack", every=True)
    assert tracer.steps[-1]["status"] == "exhausted"
    assert tracer.steps[-1]["stats"]["nodes"] == 35539


def test_a_cut_trace_says_so_and_steps_count_from_one():
    tracer = trace(Problem(12), "backtrack", max_steps=50)
    assert len(tracer.steps) == 51 and tracer.truncated
    assert [s["step"] for s in tracer.steps] == list(range(1, 52))


def test_cli_formats_and_bounds(queens, tmp_path):
    run = queens("trace", "5", "--backend", "bitmask", "--format", "jsonl")
    assert run.returncode == 0
    steps = [json.loads(line) for line in run.stdout.splitlines()]
    assert steps[-1] == {"step": len(steps), "kind": "end", "status": "solved", "solutions": 1}
    page = tmp_path / "bt.html"
    assert queens("trace", "6", "--all", "--output", str(page)).returncode == 0
    text = page.read_text()
    assert '"tree"' in text and "http" not in text.split("<script", 1)[1]
    picture = tmp_path / "hc.svg"
    hill = queens(
        "trace", "8", "-b", "hill-climbing", "--seed", "1", "--fps", "2", "-o", str(picture)
    )
    assert hill.returncode == 0
    assert ET.parse(picture).getroot().tag.endswith("svg")
    too_big = queens("trace", str(TRACED["backtrack"].max_n + 1))
    assert too_big.returncode == 2 and too_big.stderr.count("\n") == 1
    cut = queens("trace", "12", "--max-steps", "10")
    assert cut.returncode == 3 and json.loads(cut.stdout.splitlines()[-1])["status"] == "step limit"
    assert queens("trace", "10", "-b", "min-conflicts", "--variant", "superqueens").returncode == 2
    assert queens("trace", "8", "-b", "las-vegas", "--step", "9").returncode == 2
    for bad in (["-b", "bitmask+mrv"], ["-b", "mac+fast"], ["--fps", "0"]):
        refused = queens("trace", "8", *bad)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, bad
    target = tmp_path / "x.svg"
    refused = queens("trace", "8", "--compare", "backtrack", "mac", "-o", str(target))
    assert refused.returncode == 2 and not target.exists()
    gif = tmp_path / "lv.gif"
    assert queens("trace", "8", "-b", "las-vegas", "--seed", "1", "-o", str(gif)).returncode == 0
    assert gif.read_bytes().startswith(b"GIF89a")


def test_compare_writes_both_traces(queens, tmp_path):
    page = tmp_path / "cmp.html"
    run = queens("trace", "8", "--compare", "backtrack", "forward-checking", "-o", str(page))
    assert run.returncode == 0
    text = page.read_text()
    assert '"label":"backtrack"' in text and '"label":"forward-checking"' in text
    log = queens("trace", "6", "--compare", "backtrack", "mac")
    assert {json.loads(line)["method"] for line in log.stdout.splitlines()} == {"backtrack", "mac"}


def test_animations_show_refusals_captions_and_hold_solutions():
    from queenslab.trace.replay import FINAL_SECONDS, SOLUTION_SECONDS, frames
    from queenslab.trace.svg import animation

    problem = Problem(6, blocked=((0, 0),), givens=((1, 3),))
    tracer = trace(problem, "backtrack", every=True)
    shown = frames(tracer, problem.board, fps=2)
    assert shown[-1].seconds == FINAL_SECONDS and shown[-1].solution
    assert any(f.rejected and f.attacker is not None for f in shown)
    held = [f for f in shown if f.caption.startswith("a solution")]
    assert len(held) == len(_kinds(tracer, "solution"))
    assert all(f.seconds == SOLUTION_SECONDS and f.solution for f in held)
    texts = [t.text for t in ET.fromstring(animation(tracer, problem, fps=2)).iter()]
    assert "row 1: the given queen on col 3" in texts
    assert any(t and "attacked by row" in t for t in texts)


def test_the_player_marks_attacked_queens_of_local_search():
    from queenslab.trace.html import attacked_rows

    problem = Problem(12)
    tracer = trace(problem, "min-conflicts", seed=2)
    marked = attacked_rows(tracer, problem)
    for step, rows in zip(tracer.steps, marked, strict=True):
        if "conflicts" in step:
            assert bool(rows) == (step["conflicts"] > 0)
    assert marked[-1] == []


def test_min_conflicts_trace_avoids_blocked_cells():
    blocked = [(0, c) for c in range(0, 8, 2)]
    for seed in range(12):  # a blind search would put row 0's queen on a blocked cell half the time
        tracer = trace(Problem(8, blocked=blocked), "min-conflicts", seed=seed)
        solution = next(step for step in tracer.steps if step["kind"] == "solution")
        assert oracle.is_solution(solution["cols"], 8, blocked=blocked), seed


def test_projector_pages_open_with_larger_text_and_only_pages_take_it(queens, tmp_path):
    page = tmp_path / "big.html"
    assert queens("trace", "6", "--projector", "-o", str(page)).returncode == 0
    assert '"scale":1.5' in page.read_text()
    plain = tmp_path / "plain.html"
    assert queens("trace", "6", "-o", str(plain)).returncode == 0
    assert '"scale":1.0' in plain.read_text()
    target = tmp_path / "big.svg"
    refused = queens("trace", "6", "--projector", "-o", str(target))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "--projector" in refused.stderr and not target.exists()


@pytest.mark.parametrize("method", list(TRACED))
def test_every_figure_a_trace_ends_with_has_words(method):
    from queenslab.trace.captions import FIGURES

    last = trace(Problem(8 if TRACED[method].tree else 20), method, seed=1).steps[-1]
    assert set(last.get("stats", {})) <= set(FIGURES)
