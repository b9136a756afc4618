"""The CNF encodings, DIMACS export and the ``sat`` backend."""

from __future__ import annotations

import itertools
import json

import pytest

import queenslab as ql
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import never
from queenslab.lab import reference
from queenslab.models import cnf, cubes, sat
from tests import oracle


def _parse_dimacs(text: str) -> tuple[int, list[list[int]]]:
    lines = [line for line in text.splitlines() if not line.startswith("c")]
    _, _, top, count = lines[0].split()
    clauses = [[int(x) for x in line.split()[:-1]] for line in lines[1:]]
    assert len(clauses) == int(count)
    assert all(line.endswith(" 0") for line in lines[1:])
    return int(top), clauses


def _board_models(n: int, clauses: list[list[int]]) -> set[tuple[int, ...]]:
    """Models projected on the board, blocking board variables only (fresh solver)."""
    from pysat.solvers import Solver

    found = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while solver.solve():
            board = solver.get_model()[: n * n]
            found.add(tuple(lit > 0 for lit in board))
            solver.add_clause([-lit for lit in board])
    return found


def _cols(n: int, board: tuple[bool, ...]) -> tuple[int, ...]:
    return tuple(c for r in range(n) for c in range(n) if board[r * n + c])


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_dimacs_round_trip_has_exactly_the_solutions(encoding):
    for n in range(1, 9):
        top, clauses = _parse_dimacs(ql.export(n, format="dimacs", encoding=encoding))
        assert top >= n * n
        models = _board_models(n, clauses)
        assert len(models) == reference.total(n), (encoding, n)
        assert all(oracle.is_solution(_cols(n, m), n) for m in models)


def test_dimacs_with_givens_and_header():
    n, givens = 7, ((0, 1), (3, 0))
    text = ql.export(Problem(n, givens), format="dimacs", encoding="seqcounter")
    assert "n=7" in text and "seqcounter" in text and "0:1 3:0" in text
    assert "(1 = q_0_0, 2 = q_0_1, 3 = q_0_2, ...)" in text  # cell (r, c) is r*7 + c + 1
    _, clauses = _parse_dimacs(text)
    assert [0 * n + 1 + 1] in clauses  # cell (0, 1)
    found = sorted(_cols(n, m) for m in _board_models(n, clauses))
    assert found == sorted(oracle.all_solutions(n, givens))


def test_auxiliary_variables_come_after_the_board():
    formula = cnf.board_cnf(Problem(6).board, "totalizer")
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    assert set(range(1, 37)) <= used
    assert max(used) == formula.top > 36
    assert formula.cells[:7] == ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 0))


def test_the_placement_cnf_is_the_placement_kinds_model():
    """No second statement of the board: the formula is the kind's model, encoded."""
    from queenslab.models.zero_one.cnf import encode
    from queenslab.problems.placement import NQueens

    board = Problem(7, variant="superqueens", blocked=((2, 3),)).board
    model = NQueens().build(board, "cells")
    formula = cnf.board_cnf(board, "seqcounter")
    assert list(formula.clauses) == encode(model, "seqcounter").clauses
    assert (2, 3) not in formula.cells and len(formula.cells) == 48


@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
def test_enumerate_8_gives_the_92_solutions(encoding):
    found = [tuple(p) for p in ql.enumerate_solutions(8, "sat", encoding=encoding)]
    assert len(found) == len(set(found)) == 92
    assert all(oracle.is_solution(p, 8) for p in found)


@pytest.mark.parametrize("solver", sat.SOLVERS)
def test_every_listed_solver_runs(solver):
    assert ql.count(6, "sat", solver=solver).total == 4
    assert oracle.is_solution(list(ql.solve(8, "sat", solver=solver).placement), 8)
    assert ql.solve(4, "sat", solver=solver, givens=[(0, 0)]).status == ql.Status.INFEASIBLE


@pytest.mark.parametrize("workers", [1, 2])
def test_count_10(workers):
    assert ql.count(10, "sat", workers=workers).total == 724


def test_count_with_givens_matches_brute_force():
    givens = ((2, 3),)
    assert ql.count(8, "sat", givens=givens).total == len(oracle.all_solutions(8, givens))
    assert (
        ql.count(11, "sat", givens=givens, workers=2).total
        == ql.count(11, "backtrack", givens=givens).total
    )


@pytest.mark.parametrize("option", [{"encoding": "native"}, {"solver": "lingeling"}])
def test_invalid_options_name_the_choices(option):
    with pytest.raises(UsageError, match="choose from"):
        ql.solve(8, "sat", **option)
    with pytest.raises(UsageError, match="pairwise"):
        ql.export(4, format="dimacs", encoding="native")


def test_time_limits_end_in_limit():
    assert ql.solve(50, "sat", time_limit=0.001).status == ql.Status.LIMIT
    counted = ql.count(13, "sat", time_limit=0.01, workers=2)
    assert counted.status == ql.Status.LIMIT and counted.total is None
    with pytest.raises(LimitReached):
        for _ in ql.enumerate_solutions(14, "sat", time_limit=0.01):
            pass


def test_abandoned_enumeration_is_cheap():
    first = list(itertools.islice(ql.enumerate_solutions(20, "sat"), 3))
    assert len(set(map(tuple, first))) == 3


def test_cli_enumerate_count_cnf(queens):
    lines = queens("enumerate", "8", "--backend", "sat", "--format", "jsonl").stdout.splitlines()
    boards = {tuple(json.loads(line)["cols"]) for line in lines}
    assert len(lines) == len(boards) == 92
    assert queens("count", "10", "--backend", "sat").stdout.strip() == "724"
    done = queens("cnf", "5", "--given", "0:0")
    assert done.returncode == 0 and "p cnf 25 " in done.stdout
    bad = queens("solve", "8", "--backend", "sat", "--solver", "nope")
    assert bad.returncode == 2 and "cadical195" in bad.stderr
    assert queens("solve", "3", "--backend", "sat").returncode == 1


def test_a_stopped_build_raises_limit_and_leaves_no_partial_clauses_behind():
    """The build asks ``should_stop`` while it encodes; what it stopped is not kept, so
    the next count of that board (which reuses built clauses) is exact."""
    problem = Problem(9, variant="superqueens")  # its leap pairs: over 256 constraints
    asked = []

    def stop_at_the_second_look():
        asked.append(None)
        return len(asked) >= 2

    with pytest.raises(LimitReached):
        cnf.board_cnf(problem.board, "seqcounter", stop_at_the_second_look)
    assert len(asked) == 2
    sat = ql.count(problem, "sat", encoding="seqcounter", workers=1)
    assert sat.total == ql.count(problem, "backtrack").total


@pytest.mark.parametrize("solver", ["maplecm", "cadical195"])
def test_solvers_that_slow_with_each_call_get_a_fresh_solver_per_cube(solver, monkeypatch):
    """maplecm's calls grow slower in one solver object (108 s against 10.6 s at n = 12)."""
    import pysat.solvers

    built = []

    class Counted(pysat.solvers.Solver):
        def __init__(self, *args, **kwargs):
            built.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(pysat.solvers, "Solver", Counted)
    problem = Problem(8)
    split = list(cubes.border_split(problem))
    settings = {"solver": solver, "encoding": "pairwise"}
    results = list(sat.cube_counts(problem, split, settings, never))
    (_, stats), counted = results[-1], results[:-1]
    assert len(built) == (len(split) if solver in sat.SLOWER_WITH_EACH_CALL else 1)
    assert sum(cube.weight * found for cube, found in counted) == 92
    assert stats["decisions"] > 0 and set(stats) == {
        "conflicts",
        "decisions",
        "propagations",
        "restarts",
    }


def test_the_placement_model_of_a_huge_board_stops_while_it_is_stated():
    """Stating the model of n = 2000 (4 million variables, 24 million terms) took 100 s and
    4.6 GB before the first look at the clock: the builder now looks as it works."""
    looks = []

    def stop_at_the_third_look():
        looks.append(None)
        return len(looks) >= 3

    with pytest.raises(LimitReached):
        cnf.board_cnf(Problem(2000).board, "pairwise", stop_at_the_third_look)
    assert len(looks) == 3
