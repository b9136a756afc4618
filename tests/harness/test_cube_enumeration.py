"""Enumeration through the cubes, for every backend that has it (``sat``, ``cpsat``): each
solution once and valid, on one worker or all, first lines at once on big boards, and a stop
(a limit, the time limit) that leaves nothing running."""

from __future__ import annotations

import json
import os

import pytest

import queenslab as ql
from queenslab.core.errors import LimitReached
from tests import oracle
from tests.conftest import HANG, start_queens

BACKENDS = ("sat", "cpsat")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("n", "options"),
    [
        (6, {}),
        (10, {}),
        (11, {"variant": "toroidal"}),
        (10, {"variant": "superqueens"}),
        (10, {"blocked": ((0, 0), (0, 9), (9, 0), (9, 9), (4, 4), (5, 5))}),  # symmetric
        (10, {"blocked": ((0, 0), (9, 9))}),  # keeps the diagonal maps only
        (10, {"blocked": ((0, 3), (2, 7), (6, 1))}),  # no symmetry left
        (10, {"givens": ((0, 2), (9, 6))}),
        (4, {"givens": ((0, 1), (1, 3), (2, 0), (3, 2))}),  # a cube of no queen
    ],
)
@pytest.mark.parametrize("workers", [1, 2])
def test_enumeration_is_distinct_valid_and_complete(backend, n, options, workers):
    found = [tuple(p) for p in ql.enumerate_solutions(n, backend, workers=workers, **options)]
    assert len(found) == len(set(found)) == ql.count(n, "bitmask", **options).total
    variant = options.get("variant", "standard")
    blocked = options.get("blocked", ())
    assert all(oracle.is_solution(p, n, variant, blocked) for p in found)
    assert all(p[r] == c for p in found for r, c in options.get("givens", ()))


@pytest.mark.parametrize("backend", BACKENDS)
def test_parallel_and_serial_enumerations_give_the_same_set(backend):
    serial = {tuple(p) for p in ql.enumerate_solutions(11, backend, workers=1)}
    assert {tuple(p) for p in ql.enumerate_solutions(11, backend, workers=2)} == serial


@pytest.mark.parametrize("backend", BACKENDS)
def test_parallel_enumeration_stops_on_the_time_limit(backend):
    with pytest.raises(LimitReached):
        for _ in ql.enumerate_solutions(16, backend, time_limit=0.5, workers=2):
            pass


@pytest.mark.parametrize("backend", BACKENDS)
def test_cli_limit_stops_early_and_leaves_no_process(backend):
    process = start_queens("enumerate", "18", "--backend", backend, "--workers", "2",
                           "--limit", "5")  # fmt: skip
    out, err = process.communicate(timeout=HANG)
    assert process.returncode == 0, err
    assert len(set(out.splitlines())) == 5
    with pytest.raises(ProcessLookupError):  # its session is empty: no worker is left
        os.killpg(process.pid, 0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_first_solutions_of_a_big_board_come_without_the_whole_split(queens, backend):
    """n = 40 has about 1.6 million border cubes: the first lines need only the first."""
    done = queens("enumerate", "40", "--backend", backend, "--limit", "3")
    assert done.returncode == 0, done.stderr
    boards = {tuple(json.loads(line)["cols"]) for line in done.stdout.splitlines()}
    assert len(boards) == 3 and all(oracle.is_solution(b, 40) for b in boards)
