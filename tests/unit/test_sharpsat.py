"""The ``sharpsat`` backend: Ganak's projected count matches OEIS and brute force."""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab.lab import reference
from queenslab.registry import info
from tests import oracle

pytestmark = pytest.mark.skipif(not info("sharpsat").available, reason="pyganak missing")


@pytest.mark.parametrize("encoding", ["seqcounter", "totalizer"])
def test_counts_match_oeis_whatever_the_auxiliary_variables(encoding):
    # pairwise (no auxiliary variables) up to n = 9 is in the common harness
    for n in range(1, 8):
        assert ql.count(n, "sharpsat", encoding=encoding).total == reference.total(n)


def test_counts_with_givens_match_brute_force():
    for n, givens in [(6, ((0, 1),)), (7, ((3, 3),)), (8, ((0, 0), (7, 6)))]:
        expected = len(oracle.all_solutions(n, givens))
        assert ql.count(n, "sharpsat", givens=givens).total == expected


def test_stdout_stays_clean_on_unsatisfiable_boards(capfd):
    assert ql.count(3, "sharpsat").total == 0
    assert ql.count(4, "sharpsat", givens=[(0, 0)]).total == 0
    assert capfd.readouterr().out == ""


def test_cli_count_prints_only_the_answer(queens):
    done = queens("count", "2", "--backend", "sharpsat")
    assert done.stdout.strip() == "0"


def test_time_limit_ends_the_count():
    """Ganak cannot be stopped: the counting child is ended when the limit passes."""
    assert ql.count(12, "sharpsat", time_limit=0.5).status == ql.Status.LIMIT
    assert ql.count(8, "sharpsat", time_limit=60).total == 92


def test_a_board_without_solutions_is_proven_empty_before_ganak(monkeypatch):
    """Ganak spent 20-30 s on super-queens n = 7 and 8 and toroidal n = 6 and 8, which a SAT
    solver proves unsatisfiable in a millisecond: Ganak counts only satisfiable boards."""
    import pyganak

    real = pyganak.Counter

    class Refusing:
        """A Counter that takes the CNF but refuses to count it."""

        def __init__(self):
            self._counter = real()

        def __getattr__(self, name):
            return getattr(self._counter, name)

        def count(self):  # the child's exception comes back to this process
            raise AssertionError("Ganak asked to count")

    monkeypatch.setattr(pyganak, "Counter", Refusing)
    for n, variant in [(7, "superqueens"), (8, "superqueens"), (6, "toroidal"), (8, "toroidal")]:
        assert ql.count(n, "sharpsat", variant=variant).total == 0
    with pytest.raises(AssertionError, match="Ganak asked"):
        ql.count(5, "sharpsat", variant="toroidal")  # 10 solutions: Ganak's to count
