"""Placement through the kind lane: its ``cells`` 0-1 model (``model="cells"``, with and
without lex-leader constraints) on every backend that does the task on a kind's model,
against tests/oracle.py's brute force over permutations, on n = 1..6, a blocked board and
given queens; weighted, the optimum is the brute force's. The variants beyond the standard
board, the portfolio (checked by its unit tests) and the enumerations of the backends that
solve once per answer (``BLOCKING``: their counts run that loop) are slow tests.

Parametrized from the registry: a backend that declares a task on every kind's model
(``Backend.does(task, "placement", native=False)``) is tested here without an edit.
"""

from __future__ import annotations

import numpy as np
import pytest

import queenslab as ql
from queenslab.core.backend import Task
from queenslab.registry import backend_class, names
from tests import oracle
from tests.conftest import harness_marks

SIZES = range(1, 7)
SYMMETRIES = ("none", "lex-leader")
#: (n, blocked, givens): the boards beyond the bare ones. Givens kept by few symmetries:
#: lex-leader must not prune a board down to an image that moves them.
BOARDS = [(6, ((2, 2), (0, 1)), ()), (6, (), ((0, 1),)), (8, ((3, 3), (0, 6)), ((1, 4),))]
#: Backends that enumerate by solving once per answer, a no-good each: the same loop as
#: their count, which the default suite runs; their enumerations are slow tests (milp's
#: took 4 CPU s).
BLOCKING = frozenset({"milp", "maxsat"})


def _cases(task: Task) -> list:
    """(backend, variant) pairs; unavailable backends are shown as skipped, and variants
    other than the standard board, the racers and ``BLOCKING``'s enumerations are slow
    tests."""
    cases = []
    for name in names():
        cls = backend_class(name)
        if not cls.does(task, "placement", native=False):
            continue
        slow = (pytest.mark.slow,) if task is Task.ENUMERATE and name in BLOCKING else ()
        cases += [
            pytest.param(
                name, variant, marks=(*harness_marks(name, variant), *slow), id=f"{name}-{variant}"
            )
            for variant in sorted(cls.variants)
            if variant in oracle.VARIANTS
        ]
    return cases


def _boards(variant: str) -> list[tuple[int, tuple, tuple]]:
    """n = 1..6 bare, and on the standard board ``BOARDS``."""
    return [(n, (), ()) for n in SIZES] + (BOARDS if variant == "standard" else [])


def _classes(boards, n: int, blocked, givens) -> set:
    """One board (as its sorted cells) per class under the symmetries of the square that
    keep the blocked cells and the givens."""
    keep = (tuple(sorted(blocked)), tuple(sorted(givens)))
    kept = [
        i
        for i, images in enumerate(
            zip(*(oracle.cell_images(n, cells) for cells in keep), strict=True)
        )
        if images == keep
    ]
    return {min(oracle.cell_images(n, list(enumerate(cols)))[i] for i in kept) for cols in boards}


def _expected(n: int, variant: str, blocked, givens, symmetry: str) -> int:
    boards = oracle.all_solutions(n, givens, variant, blocked)
    return len(boards) if symmetry == "none" else len(_classes(boards, n, blocked, givens))


@pytest.mark.parametrize(("name", "variant"), _cases(Task.COUNT))
def test_the_cells_model_counts_the_brute_force_boards(name, variant):
    """Every board once; with lex-leader, one per symmetry class."""
    for n, blocked, givens in _boards(variant):
        for symmetry in SYMMETRIES:
            result = ql.count(n, name, variant=variant, blocked=blocked, givens=givens,
                              model="cells", symmetry=symmetry, time_limit=60)  # fmt: skip
            expected = _expected(n, variant, blocked, givens, symmetry)
            assert result.total == expected, (n, blocked, givens, symmetry)
            assert result.optimum == (0 if expected else None)


@pytest.mark.parametrize(("name", "variant"), _cases(Task.ENUMERATE))
def test_the_cells_model_enumerates_the_brute_force_boards(name, variant):
    for n, blocked, givens in _boards(variant):
        every = set(oracle.all_solutions(n, givens, variant, blocked))
        for symmetry in SYMMETRIES:
            with ql.enumerate_solutions(n, name, variant=variant, blocked=blocked, givens=givens,
                                        model="cells", symmetry=symmetry) as answers:  # fmt: skip
                seen = [tuple(answer.cols) for answer in answers]
            assert len(seen) == len(set(seen)) and set(seen) <= every, (n, symmetry)
            if symmetry == "none":
                assert set(seen) == every
            else:
                assert _classes(seen, n, blocked, givens) == _classes(every, n, blocked, givens)
                assert len(seen) == len(_classes(every, n, blocked, givens))


def _weights(n: int) -> list[np.ndarray]:
    """Weights 0 or 1 (which every 0-1 backend takes, sat's cardinality encodings too);
    from 0 to 9 at random; and from 0 to 9 alike on the cells a symmetry of the square
    maps onto each other, so that lex-leader keeps every symmetry and prunes."""
    random = np.random.default_rng(n)
    rim = np.minimum(np.arange(n), np.arange(n)[::-1])
    symmetric = np.add.outer(rim, rim) + np.minimum.outer(rim, rim)
    return [random.integers(0, 2, size=(n, n)), random.integers(0, 10, size=(n, n)), symmetric]


@pytest.mark.parametrize(("name", "variant"), _cases(Task.OPTIMIZE))
def test_the_cells_model_finds_the_brute_force_weight(name, variant):
    for n, blocked, givens in _boards(variant):
        boards = oracle.all_solutions(n, givens, variant, blocked)
        for weights in _weights(n):
            best = max((sum(int(weights[r, c]) for r, c in enumerate(b)) for b in boards),
                       default=None)  # fmt: skip
            for symmetry in SYMMETRIES:
                try:
                    result = ql.optimize(n, weights, name, variant=variant, blocked=blocked,
                                         givens=givens, model="cells", symmetry=symmetry,
                                         time_limit=60)  # fmt: skip
                except ql.UsageError as refusal:  # weights beyond 0-1 that it cannot take
                    assert "\n" not in str(refusal) and weights.max() > 1, refusal
                    continue
                if best is None:
                    assert (result.status, result.answer) == (ql.Status.INFEASIBLE, None), n
                    continue
                cols = tuple(result.answer.cols)
                assert result.status is ql.Status.OPTIMAL and result.objective == best
                assert cols in boards, (n, blocked, givens, symmetry)
                assert sum(int(weights[r, c]) for r, c in enumerate(cols)) == best
