"""Slide exports of a trace: which frames are kept, and what an SVG frame draws."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from queenslab.core.problem import Problem
from queenslab.trace import trace
from queenslab.trace.replay import frames
from queenslab.trace.svg import animation, document

SVG = "{http://www.w3.org/2000/svg}"


def _shown(svg: str, name: str) -> set[tuple[int, int]]:
    """(row, col) of the elements of class ``name`` visible in a one-frame document."""
    root = ET.fromstring(svg)
    return {
        (int(e.get("data-row")), int(e.get("data-col", -1)))
        for e in root.iter()
        if e.get("class") == name and e.get("opacity") == "1"
    }


def _dead_ends_and_wipeouts(steps):
    """Indices of the failure key frames, found from the rows alone: a wipe-out step, or
    the step before the take-back of a queen that got no child and no solution."""
    found, path = set(), []  # per open queen: did anything happen below it?
    for index, step in enumerate(steps):
        kind = step["kind"]
        if kind == "place":
            if path:
                path[-1] = True
            path.append(False)
        elif kind in ("wipeout", "solution"):
            if kind == "wipeout":
                found.add(index)
            if path:
                path[-1] = True
        elif kind == "remove" and not path.pop():
            found.add(index - 1)
    return found


@pytest.mark.parametrize(
    ("method", "n"), [("backtrack", 6), ("forward-checking", 6), ("mac", 8), ("bitmask", 5)]
)
def test_key_frames_are_the_ends_the_solutions_and_the_failures(method, n):
    problem = Problem(n)
    tracer = trace(problem, method, every=True)
    steps = tracer.steps
    shown = frames(tracer, problem.board, budget=10**6, key_only=True)
    solutions = {i for i, s in enumerate(steps) if s["kind"] == "solution"}
    expected = {0, len(steps) - 1} | solutions | _dead_ends_and_wipeouts(steps)
    assert [f.step - 1 for f in shown] == sorted(expected)
    assert sum(f.solution for f in shown) >= len(solutions) > 0


@pytest.mark.parametrize("key_only", [False, True])
@pytest.mark.parametrize("budget", [1, 2, 3, 10, 60, 200])
def test_the_frame_budget_holds_and_keeps_the_key_frames_first(budget, key_only):
    problem = Problem(6)
    tracer = trace(problem, "backtrack", every=True)  # 4 solutions, 2 ends, many failures
    shown = frames(tracer, problem.board, budget=budget, key_only=key_only)
    keys = len(frames(tracer, problem.board, budget=10**6, key_only=True))
    steps = [f.step for f in shown]
    assert len(shown) == (min(budget, keys) if key_only else budget)
    assert steps == sorted(set(steps))
    assert steps[-1] == len(tracer.steps)  # the outcome is always there
    solutions = [s["step"] for s in tracer.steps if s["kind"] == "solution"]
    if budget >= 2 + len(solutions):
        assert steps[0] == 1 and set(solutions) <= set(steps)


def test_an_fc_frame_shows_the_domains_and_crosses_what_the_placement_removed():
    problem = Problem(8)
    tracer = trace(problem, "forward-checking")
    first = frames(tracer, problem.board, budget=10**6)[0]  # the queen on row 0, col 0
    still = document(tracer, problem, [first])
    attacked = {(r, c) for r in range(1, 8) for c in range(8) if c in (0, r)}
    assert _shown(still, "cross") == attacked
    assert _shown(still, "domain") == {(r, c) for r in range(1, 8) for c in range(8)} - attacked
    queens = [e for e in ET.fromstring(still).iter(SVG + "circle") if e.get("class") == "queen"]
    assert [q.get("opacity") for q in queens] == ["1"] + ["0"] * 7
    taken_back = next(
        f for f in frames(tracer, problem.board, budget=10**6)
        if tracer.steps[f.step - 1]["kind"] == "remove"
    )  # fmt: skip
    still = document(tracer, problem, [taken_back])
    assert _shown(still, "domain") and not _shown(still, "cross")  # crosses: a placement's own


@pytest.mark.parametrize("method", ["forward-checking", "mac"])
def test_a_wipeout_frame_marks_the_emptied_row(method):
    problem = Problem(8)
    tracer = trace(problem, method)
    shown = frames(tracer, problem.board, budget=10**6)
    wipeout = next(f for f in shown if tracer.steps[f.step - 1]["kind"] == "wipeout")
    row = tracer.steps[wipeout.step - 1]["row"]
    still = document(tracer, problem, [wipeout])
    assert _shown(still, "wipeout") == {(row, -1)}
    assert not any(r == row for r, _ in _shown(still, "domain"))  # nothing left in that row
    assert any(r != row for r, _ in _shown(still, "domain"))  # other open rows keep values
    assert "has no column left" in still


def test_a_dead_end_of_backtracking_names_and_marks_its_row():
    problem = Problem(6)
    tracer = trace(problem, "backtrack")
    dead = [f for f in frames(tracer, problem.board, key_only=True) if f.emptied is not None]
    assert dead and all(f.rejected and f.rejected[0] == f.emptied for f in dead)
    assert all(f.caption.endswith("has no column left, a dead end") for f in dead)


def test_the_animation_carries_numbers_tree_and_marks():
    problem = Problem(6)
    tracer = trace(problem, "mac", every=True)
    root = ET.fromstring(animation(tracer, problem, key_only=True))
    classes = {e.get("class") for e in root.iter()}
    assert {"domain", "cross", "wipeout", "node", "queen"} <= classes
    nodes = sum(e.get("class") == "node" for e in root.iter())
    assert nodes == 1 + sum(s["kind"] == "place" for s in tracer.steps)
    texts = {e.text for e in root.iter(SVG + "text")}
    assert {str(i) for i in range(6)} <= texts  # the row and column numbers


@pytest.mark.parametrize("method", ["backtrack", "forward-checking", "mac"])
def test_slide_trees_label_their_nodes_in_readable_type(method):
    """The GIF and the SVG draw this tree: every node's column, at least MIN_LABEL px,
    inside a node no wider than its neighbours leave."""
    from queenslab.trace.slide import MIN_LABEL, Layout

    tracer = trace(Problem(8), method)
    tree = Layout.of(tracer).tree
    assert tree is not None and tree.font >= MIN_LABEL and all(tree.labels[1:])
    by_level: dict[float, list[float]] = {}
    for x, y in tree.centres:
        by_level.setdefault(y, []).append(x)
    gaps = [b - a for xs in map(sorted, by_level.values()) for a, b in itertools.pairwise(xs)]
    assert 2 * tree.rx < min(gaps)
