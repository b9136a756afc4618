"""The CSP course's searches: forward checking, MAC, MRV and LCV, and Minton's min-conflicts.

One search with options (``queenslab.exact.csp``): every strategy finds the same solutions
as the textbook backtracking, plain backtracking is its tree node for node, inference
visits fewer nodes, and the traces show the statistics of the very same searches.
"""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab.core.problem import Problem
from queenslab.exact import csp
from queenslab.lab.sweep import Config, configurations, run_sweep
from queenslab.trace import trace
from tests import oracle

STRATEGIES = [
    {"inference": inference, "variables": variables, "values": values}
    for inference in ("none", "forward-checking", "mac")
    for variables in ("static", "mrv")
    for values in ("static", "lcv", "random")
]
BOARDS = [
    Problem(7),
    Problem(8, variant="toroidal", blocked=((0, 0),)),
    Problem(8, blocked=((0, 1), (3, 3)), givens=((2, 5),)),
    Problem(9, variant="superqueens"),
    Problem(6, blocked=tuple((2, c) for c in range(6))),  # a row with no open cell
]


@pytest.mark.parametrize("problem", BOARDS, ids=repr)
@pytest.mark.parametrize("strategy", STRATEGIES, ids=lambda s: "-".join(s.values()))
def test_every_strategy_finds_the_textbook_solutions(problem, strategy):
    expected = {tuple(p.to_list()) for p in ql.enumerate_solutions(problem, "backtrack")}
    found = [tuple(p.to_list()) for p in ql.enumerate_solutions(problem, "csp", **strategy)]
    assert len(found) == len(set(found)) and set(found) == expected


@pytest.mark.parametrize("problem", BOARDS, ids=repr)
def test_plain_backtracking_is_the_backtrack_backends_tree(problem):
    plain = ql.count(problem, "csp", inference="none", profile=True)
    textbook = ql.count(problem, "backtrack", profile=True)
    assert plain.stats["nodes"] == textbook.stats["nodes"]
    assert plain.stats["profile"] == textbook.stats["profile"]


@pytest.mark.parametrize(
    "n",
    [*range(4, 11), *(pytest.param(n, marks=pytest.mark.slow) for n in (11, 12))],  # n=11: 4.6 s
    ids=lambda n: f"n={n}",
)
def test_inference_visits_fewer_nodes_than_plain_backtracking(n):
    """Whole trees. At n = 4 and 5 every wipe-out forward checking sees is of the very
    next row, where plain backtracking fails without placing a queen either: the same
    nodes (it still tests fewer values); from n = 6 on it visits fewer. MAC always does."""
    nodes = {
        inference: ql.count(n, "csp", inference=inference).stats["nodes"]
        for inference in ("none", "forward-checking", "mac")
    }
    assert nodes["mac"] < nodes["forward-checking"] <= nodes["none"]
    assert nodes["forward-checking"] < nodes["none"] or n in (4, 5)


@pytest.fixture
def value_orders(monkeypatch):
    """The registry of value orders, restored after the test."""
    monkeypatch.setattr(csp, "VALUE_ORDERS", dict(csp.VALUE_ORDERS))
    return csp.VALUE_ORDERS


def _right_to_left(search, domains, row, columns):
    return columns[::-1]


def test_a_registered_value_order_is_an_option_and_mirrors_the_search(value_orders):
    """Right to left is the mirror image of left to right: the mirrored first solution,
    found in as many nodes."""
    csp.register_value_order("right-to-left", _right_to_left)
    left = ql.solve(8, "csp", inference="none")
    right = ql.solve(8, "csp", inference="none", values="right-to-left")
    assert right.placement.to_list() == [7 - c for c in left.placement.to_list()]
    assert right.stats["nodes"] == left.stats["nodes"]
    grid = configurations(["csp"], ["solve"], {"values": ["right-to-left"]})
    assert {dict(c.options)["values"] for c in grid} == {"right-to-left"}


def test_value_orders_are_checked_by_name(value_orders):
    with pytest.raises(ql.UsageError, match="choose from: static, lcv, random"):
        ql.solve(8, "csp", values="middle-out")
    with pytest.raises(ql.UsageError, match="other than static, lcv, random"):
        csp.register_value_order("lcv", _right_to_left)
    with pytest.raises(ql.UsageError, match="must be a function"):
        csp.register_value_order("mine", "right to left")


def test_the_random_value_order_follows_the_seed_and_a_sweep_seeds_its_repeats():
    def nodes(seed):
        return ql.solve(12, "csp", inference="none", values="random", seed=seed).stats["nodes"]

    assert nodes(3) == nodes(3)
    assert len({nodes(seed) for seed in range(4)}) > 1
    config = Config("csp", (("inference", "none"), ("variables", "static"), ("values", "random")))
    report = run_sweep([config], [12], ["solve"], repeat=4)
    assert [run.stats["nodes"] for run in report.cells[0].runs] == [nodes(s) for s in range(4)]


@pytest.mark.parametrize("values", ["static", "lcv"])
@pytest.mark.parametrize("problem", [*map(Problem, range(4, 11)), *BOARDS], ids=repr)
def test_with_mrv_plain_backtracking_visits_forward_checkings_nodes(problem, values):
    """MRV picks a row that forward checking would find wiped out at once (it has no value
    left), and plain backtracking fails there by tests, which are not nodes
    (docs/teaching.md explains it)."""
    for call in (ql.solve, ql.count):
        nodes = [
            call(problem, "csp", inference=inference, variables="mrv", values=values).stats["nodes"]
            for inference in ("none", "forward-checking")
        ]
        assert nodes[0] == nodes[1]


def test_mrv_and_lcv_do_not_visit_more_nodes_with_mac_on_n8():
    plain = ql.count(8, "csp", inference="mac").stats["nodes"]
    ordered = ql.count(8, "csp", inference="mac", variables="mrv", values="lcv").stats["nodes"]
    assert ordered <= plain


@pytest.mark.parametrize(
    "spec", ["backtrack", "forward-checking", "mac", "forward-checking+mrv", "mac+mrv+lcv"]
)
@pytest.mark.parametrize("every", [False, True], ids=["first", "all"])
def test_a_traces_counts_are_the_backends_statistics(spec, every):
    problem = Problem(7, givens=((1, 3),))
    name, *orders = spec.split("+")
    options = {"inference": "none" if name == "backtrack" else name}
    options |= {"variables": "mrv"} if "mrv" in orders else {}
    options |= {"values": "lcv"} if "lcv" in orders else {}
    run = (ql.count if every else ql.solve)(problem, "csp", **options)
    tracer = trace(problem, spec, every=every)
    end = tracer.steps[-1]
    places = sum(step["kind"] == "place" for step in tracer.steps)
    assert end["stats"]["nodes"] == places + 1 == run.stats["nodes"]
    assert end["stats"].get("pruned", 0) == run.stats.get("pruned", 0)
    assert end["stats"].get("pruned", 0) == sum(
        step.get("pruned", 0) for step in tracer.steps if step["kind"] in ("place", "prune")
    )


def test_the_csp_backend_refuses_unknown_options():
    with pytest.raises(ql.UsageError, match="choose from: none, forward-checking, mac"):
        ql.solve(8, "csp", inference="magic")


@pytest.mark.parametrize("seed", [0, 1, 5])
@pytest.mark.parametrize(
    "problem",
    [Problem(30), Problem(11, variant="toroidal"), Problem(8, blocked=((0, 0), (0, 2), (0, 4)))],
    ids=repr,
)
def test_minton_solves_and_its_trace_is_the_same_search(problem, seed):
    result = ql.solve(problem, "minton", seed=seed)
    assert result.placement is not None
    assert oracle.is_solution(
        result.placement.to_list(), problem.n, problem.variant, problem.blocked
    )
    tracer = trace(problem, "minton", seed=seed)
    moves = [step for step in tracer.steps if step["kind"] == "move"]
    stats = tracer.steps[-1]["stats"]
    assert stats["moves"] == len(moves) == result.stats["moves"]
    assert (
        stats["plateau_moves"] == sum(m["plateau"] for m in moves) == result.stats["plateau_moves"]
    )
    assert tracer.steps[-2]["cols"] == result.placement.to_list()
    assert all(problem.board.is_open(step["row"], step["col"]) for step in moves)


def test_minton_keeps_given_queens_and_gives_up_on_three_queens():
    result = ql.solve(10, "minton", seed=3, givens=[(4, 4)])
    assert result.placement.to_list()[4] == 4
    assert ql.solve(3, "minton", seed=1, restarts=3).status == ql.Status.UNKNOWN


@pytest.mark.parametrize("problem", [Problem(8), Problem(7, blocked=((0, 1), (3, 3)))], ids=repr)
@pytest.mark.parametrize("spec", ["mac", "mac+mrv"])
def test_mac_revisions_name_the_arc_and_add_up_to_the_net_pruning(problem, spec):
    """Each AC-3 revision removes a value with no support in its arc's row; forward checking's
    removals (replayed here from the parent's domains) and the revisions make up ``pruned``."""
    board = problem.board
    tracer = trace(problem, spec, every=True)
    path = [board.allowed_masks()]  # the domains each open node holds
    revised = 0
    for step in tracer.steps:
        if step["kind"] == "remove":
            path.pop()
        if step["kind"] not in ("place", "prune"):
            continue
        if step["kind"] == "prune":
            before = forward = path.pop()
        else:
            before = path[-1]
            hits = board.attack_masks(step["row"], step["col"])
            forward = [d & ~a for d, a in zip(before, hits, strict=True)]
            forward[step["row"]] = 1 << step["col"]
        removed = {(r, c) for r, d in enumerate(forward) for c in range(problem.n)
                   if d >> c & 1 and not step["domains"][r] >> c & 1}  # fmt: skip
        revisions = step["revisions"]
        assert sorted((r, c) for r, c, _, _ in revisions) == sorted(removed)
        for row, col, against, domain in revisions:
            assert against != row and domain & ~board.attack_masks(row, col)[against] == 0
        fc = sum((b & ~f).bit_count() for r, (b, f) in enumerate(zip(before, forward, strict=True))
                 if r != step.get("row"))  # fmt: skip
        assert step.get("forward", 0) == (fc if step["kind"] == "place" else 0)
        assert step["pruned"] == fc + len(revisions)
        revised += len(revisions)
        path.append(step["domains"])
    assert revised > 0
