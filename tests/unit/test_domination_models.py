"""Domination's literature reformulations: the Hilbert-curve order (Rostami and Bright) keeps
the optimum and its number of answers, and the proven lower bound is stated exactly where
it is a theorem (the standard board without blocked cells) and never above a published
value."""

from __future__ import annotations

from itertools import pairwise

import pytest

from queenslab.boards import VARIANTS, board
from queenslab.boards.hilbert import hilbert_index, hilbert_order
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.lab import reference
from queenslab.problems import kind
from queenslab.problems.domination import lower_bound
from tests import kind_oracle
from tests.translators import ENUMERATORS

KINDS = ("domination", "independent-domination")
#: Blocked cells off the centre (few symmetries), as the kind harness uses.
BLOCKED = ((2, 2), (0, 1))


@pytest.mark.parametrize("side", [1, 2, 4, 8, 16])
def test_the_hilbert_curve_visits_each_cell_once_one_step_at_a_time(side):
    square = [(r, c) for r in range(side) for c in range(side)]
    path = sorted(square, key=lambda cell: hilbert_index(side, cell))
    assert sorted(hilbert_index(side, cell) for cell in square) == list(range(side * side))
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in pairwise(path))


def test_a_board_takes_the_curve_of_the_smallest_square_holding_it():
    five = [(r, c) for r in range(5) for c in range(5)]
    assert hilbert_order(five) == sorted(five, key=lambda cell: hilbert_index(8, cell))
    assert hilbert_order([(0, 0)]) == [(0, 0)]


def _optima(problem: str, n: int, variant: str, blocked: tuple, backend: str, model: str) -> tuple:
    """(optimum, number of optimal answers) of ``model``, each answer checked."""
    module, settings = ENUMERATORS[backend]
    question, field = kind(problem), board(n, variant, blocked)
    built = question.build(field, model)
    best = module.optimize(built, Run(), settings)
    if best.status is Status.INFEASIBLE:
        return None, 0
    fixed = built.with_objective_at(best.objective)
    answers = [question.decode(field, built, v) for v in module.solutions(fixed, Run(), settings)]
    assert all(question.check(field, answer) is None for answer in answers)
    assert len(set(answers)) == len(answers)
    return best.objective, len(answers)


@pytest.mark.parametrize("model", ["hilbert", "lines"])
@pytest.mark.parametrize("backend", ["sat", "cpsat"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("problem", KINDS)
def test_the_reformulations_find_the_brute_force_optima(problem, variant, backend, model):
    """The hilbert order, and the lines model's sums beneath the objective, keep the
    optimum and its number of answers."""
    for n in range(1, kind_oracle.MAX_N + 1):
        found = _optima(problem, n, variant, (), backend, model)
        assert found == kind_oracle.optimum(problem, n, variant), (n, found)
    if variant == "standard":
        found = _optima(problem, 5, variant, BLOCKED, backend, model)
        assert found == kind_oracle.optimum(problem, 5, variant, BLOCKED)


def _stated_bound(problem: str, field, model: str) -> int | None:
    """The lower bound stated on the objective's terms, None when there is none."""
    built = kind(problem).build(field, model)
    queens = {v for _, v in built.objective}
    stated = [
        row.lower
        for row in built.linear
        if row.lower is not None and {v for _, v in row.terms} == queens
    ]
    assert len(stated) <= 1
    assert built.stated_bound() == (stated[0] if stated else None)
    return built.stated_bound()


@pytest.mark.parametrize("problem", KINDS)
def test_the_bound_is_stated_exactly_where_it_is_a_theorem(problem):
    for model in kind(problem).models:
        for n in range(2, 9):
            assert _stated_bound(problem, board(n), model) == (n // 2 if n == 3 else (n + 1) // 2)
            assert _stated_bound(problem, board(n, "toroidal"), model) is None
            assert _stated_bound(problem, board(n, "superqueens"), model) is None
            assert _stated_bound(problem, board(n, blocked=[(0, 0)]), model) is None
        assert _stated_bound(problem, board(11), model) == 5


@pytest.mark.parametrize("problem", KINDS)
def test_the_bound_is_never_above_a_published_value(problem):
    published = {n: reference.optimum(problem, n) for n in range(1, 40)}
    known = {n: value for n, value in published.items() if value is not None}
    assert len(known) >= 14
    assert all(lower_bound(board(n)) <= value for n, value in known.items())
    assert lower_bound(board(11)) == 5 and lower_bound(board(13)) == 7


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_lines_model_holds_each_family_beneath_the_queens(variant):
    """One sum per family of lines (four; the leaps are no family), each over that
    family's line variables, and every optimal answer meets them."""
    field = board(7, variant, BLOCKED)
    built = kind("domination").build(field, "lines")
    names = [[built.names[v] for _, v in terms] for terms in built.beneath_objective]
    assert [{name.split("_")[1] for name in family} for family in names] == [
        {"0"},
        {"1"},
        {"2"},
        {"3"},
    ]
    assert all(name.endswith("_held") for family in names for name in family)
    module, settings = ENUMERATORS["sat"]
    best = module.optimize(built, Run(), settings)
    for terms in built.beneath_objective:
        assert sum(best.values[v] for _, v in terms) <= best.objective


def test_the_sat_descent_stops_at_the_stated_bound(monkeypatch):
    """n = 6: an answer of 3 queens meets the bound 3, so the descent ends there without a
    call that refutes 2 (every call it makes finds an answer)."""
    module, settings = ENUMERATORS["sat"]
    made = module.decide_step
    calls: list[object] = []

    def recorded(*args):
        calls.append(made(*args))
        return calls[-1]

    monkeypatch.setattr(module, "decide_step", recorded)
    built = kind("domination").build(board(6), "hilbert")
    outcome = module.optimize(built, Run(), settings)
    assert (outcome.status, outcome.objective, outcome.bound) == (Status.OPTIMAL, 3, 3)
    assert calls and all(isinstance(call, list) for call in calls)
