"""The checks of exercises 1 to 9 (lectures 1 to 6, docs/course/lectures-1-6.md).

Each truth is computed here, when an answer is marked, by the same calls the answer key
shows; nothing is copied from the key.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from itertools import product
from typing import Any

from queenslab import api as ql
from queenslab.boards import board as make_board
from queenslab.core.problem import Problem
from queenslab.course.grading import Exercise, Part, equals, figure, truth
from queenslab.exact import csp
from queenslab.modelling import ProblemKind, any_of
from queenslab.trace import trace


def _steps(n: int, method: str) -> list[dict[str, Any]]:
    return trace(Problem(n), method).steps


def _refused() -> list[list[Any]]:
    """Row 1's refused cells after the first queen: (row, col, by, line)."""
    steps = _steps(4, "backtrack")
    second = next(i for i, s in enumerate(steps) if s["kind"] == "place" and s["row"] == 1)
    return [[s["row"], s["col"], s["by"], s["line"]] for s in steps[1:second]]


def _before_first_solution(kind: str) -> int:
    steps = _steps(4, "backtrack")
    first = next(i for i, s in enumerate(steps) if s["kind"] == "solution")
    return sum(s["kind"] == kind for s in steps[:first])


def _decoded_domains() -> list[list[int]]:
    fc = _steps(4, "forward-checking")
    return [[c for c in range(4) if d >> c & 1] for d in fc[1]["domains"]]


def _backtrack_tests_of_row_2() -> int:
    """Plain backtracking's failed tests in row 2 right after the queen (1, 2)."""
    steps = _steps(4, "backtrack")
    start = next(
        i for i, s in enumerate(steps) if s["kind"] == "place" and (s["row"], s["col"]) == (1, 2)
    )
    tests = 0
    while steps[start + 1 + tests]["kind"] == "reject" and steps[start + 1 + tests]["row"] == 2:
        tests += 1
    return tests


def _profile(n: int) -> list[int]:
    return list(ql.count(n, backend="csp", inference="none", profile=True).stats["profile"])


def _nodes(n: int, inference: str, **options: Any) -> int:
    return int(ql.count(n, backend="csp", inference=inference, **options).stats["nodes"])


def _solve_nodes(n: int, **options: Any) -> int:
    return int(ql.solve(n, backend="csp", **options).stats["nodes"])


def _mac_first_failure() -> tuple[list[int], int]:
    mac = _steps(8, "mac")
    failed = next(i for i, s in enumerate(mac) if s["kind"] == "wipeout")
    return [mac[failed - 1]["row"], mac[failed - 1]["col"]], mac[failed]["row"]


def _fc_queens_below() -> int:
    (row, _), _ = _mac_first_failure()
    fc = _steps(8, "forward-checking")
    start = next(i for i, s in enumerate(fc) if s["kind"] == "place" and s["row"] == row)
    end = next(i for i, s in enumerate(fc) if s["kind"] == "remove" and s["row"] == row)
    return sum(s["kind"] == "place" for s in fc[start + 1 : end])


def _middle_first(n: int, columns: list[int]) -> list[int]:
    """The exercise's order, as its text states it: nearest the middle, ties to the left."""
    return sorted(columns, key=lambda c: (abs(2 * c - (n - 1)), c))


def _is_middle_first(order: Callable[..., Any]) -> str | None:
    class Search:  # the one attribute of the search an ordering reads here
        def __init__(self, n: int) -> None:
            self.n = n

    for n in range(1, 17):
        for columns in (list(range(n)), list(range(0, n, 2)), list(range(n // 2, n))):
            if list(order(Search(n), [], 0, list(columns))) != _middle_first(n, columns):
                return f"not the middle-first order on a board of {n}"
    return None


def _static_median() -> int:
    return int(statistics.median(_solve_nodes(n) for n in range(8, 17)))


def _middle_first_median() -> int:
    name = "course-middle-first"
    csp.register_value_order(name, lambda search, domains, row, cols: _middle_first(search.n, cols))
    try:
        return int(statistics.median(_solve_nodes(n, values=name) for n in range(8, 17)))
    finally:
        del csp.VALUE_ORDERS[name]  # the registry as it is now, not as first imported


def _total_domination_numbers(kind: Any) -> list[int]:
    return [figure(ql.optimize(n, kind=kind, backend="cpsat").objective) for n in range(2, 8)]


def _reference_total_domination() -> Any:
    """The question as the exercise states it, modelled here to mark a student's model."""

    class Reference(ProblemKind[frozenset[tuple[int, int]]]):
        name = "course-total-domination"
        question = "fewest queens attacking every cell, their own included"
        sense = "min"
        takes_blocked = False

        def state(self, m: Any, board: Any, model: str) -> None:
            queen = m.cells("q", board)
            for cell in queen:
                m.add(any_of(queen[q] for q in queen if q != cell and board.attacks(q, cell)))
            m.minimise(sum(queen.values()))

        def check(self, board: Any, answer: Any) -> str | None:
            return None

    return Reference()


def _total_domination_model(kind: type) -> str | None:
    theirs = _total_domination_numbers(kind())
    return (
        None
        if theirs == truth(_total_domination_numbers, _reference_total_domination())
        else ("its optimum is not the total domination number for some n from 2 to 7")
    )


def _total_domination_checker(kind_class: type) -> str | None:
    """Their checker accepts every cell as queens, and rejects a single corner queen."""
    kind = kind_class()
    for n in range(2, 8):
        board = make_board(n)
        if kind.check(board, frozenset(product(range(n), repeat=2))) is not None:
            return f"it rejects a queen on every cell of a board of {n}"
        if kind.check(board, frozenset({(0, 0)})) is None:
            return f"it accepts a single corner queen on a board of {n}"
    return None


def _clauses(n: int, encoding: str) -> dict[str, int]:
    stats = ql.solve(n, backend="sat", encoding=encoding, solver="cadical195").stats
    return {"clauses": int(stats["constraints"]), "variables": int(stats["variables"])}


def _fewer_clauses_from() -> int:
    return next(
        n
        for n in range(4, 13)
        if all(
            _clauses(m, "seqcounter")["clauses"] < _clauses(m, "pairwise")["clauses"]
            for m in range(n, 13)
        )
    )


EXERCISES = (
    Exercise(1, "reading a backtracking trace", (
        Part("refused", 2, equals(_refused), "row 1's refused cells as [row, col, by, line]"),
        Part("rejects", 1, equals(lambda: _before_first_solution("reject")),
             "failed tests before the first solution"),
        Part("placed", 1, equals(lambda: _before_first_solution("place")),
             "queens placed before the first solution"),
    )),
    Exercise(2, "reading forward checking's domains", (
        Part("domains", 1, equals(_decoded_domains), "step 2's domains as lists of columns"),
        Part("next_kind", 1, equals(lambda: _steps(4, "forward-checking")[2]["kind"]),
             "the kind of step 3"),
        Part("backtrack_rejects", 1, equals(_backtrack_tests_of_row_2),
             "plain backtracking's failed tests in row 2 at the same point"),
    )),
    Exercise(3, "predicting the whole tree by hand", (
        Part("profile", 2, equals(lambda: _profile(4)), "nodes at each depth"),
        Part("nodes", 1, equals(lambda: _nodes(4, "none")), "nodes in all"),
    )),
    Exercise(4, "when does forward checking save nodes?", (
        Part("saves_at_5", 1, equals(lambda: _nodes(5, "forward-checking") < _nodes(5, "none")),
             "does forward checking visit fewer nodes at n = 5"),
        Part("saves_at_6", 1, equals(lambda: _nodes(6, "forward-checking") < _nodes(6, "none")),
             "does forward checking visit fewer nodes at n = 6"),
        Part("nodes_6", 2, equals(lambda: [_nodes(6, "none"), _nodes(6, "forward-checking")]),
             "[backtracking, forward checking] nodes at n = 6"),
    )),
    Exercise(5, "MRV on plain backtracking", (
        Part("backtrack_mrv_nodes", 2, equals(
            lambda: _solve_nodes(8, inference="none", variables="mrv")),
             "nodes to the first 8-queens solution, backtracking with MRV"),
        Part("same_placements", 1, equals(lambda: [
            (s["row"], s["col"]) for s in _steps(8, "backtrack+mrv") if s["kind"] == "place"
        ] == [(s["row"], s["col"]) for s in _steps(8, "forward-checking+mrv")
              if s["kind"] == "place"]), "the same placements in the same order"),
    )),
    Exercise(6, "what arc consistency sees", (
        Part("first_failure", 1, equals(lambda: _mac_first_failure()[0]),
             "[row, col] of MAC's first failed placement"),
        Part("emptied_row", 1, equals(lambda: _mac_first_failure()[1]), "the row AC-3 empties"),
        Part("fc_queens_below", 2, equals(_fc_queens_below),
             "queens forward checking places below it"),
    )),
    Exercise(7, "a value-ordering heuristic as a plug-in", (
        Part("middle_first", 2, _is_middle_first, "the function middle_first"),
        Part("STATIC_MEDIAN", 1, equals(_static_median),
             "median nodes over n = 8 to 16, left to right"),
        Part("MIDDLE_FIRST_MEDIAN", 1, equals(_middle_first_median),
             "median nodes over n = 8 to 16, middle first"),
    ), file="py"),
    Exercise(8, "a new board problem with the model API", (
        Part("TotalDomination", 3, _total_domination_model,
             "the class TotalDomination: its optimum at n = 2 to 7"),
        Part("TotalDomination", 1, _total_domination_checker,
             "the class TotalDomination: its checker"),
    ), file="py"),
    Exercise(9, "comparing encodings", (
        Part("pairwise_clauses_8", 2, equals(lambda: _clauses(8, "pairwise")["clauses"]),
             "pairwise clauses at n = 8"),
        Part("fewer_clauses_from", 1, equals(_fewer_clauses_from),
             "the n from which the sequential counter has fewer clauses"),
        Part("seqcounter_variables_8", 1, equals(
            lambda: _clauses(8, "seqcounter")["variables"]),
             "the sequential counter's variables at n = 8"),
    )),
)  # fmt: skip
