"""The harness for the problem kinds: every backend, on every kind, task and variant it
declares, against brute force (tests/kind_oracle.py, which shares no code with queenslab).

Parametrized from the registry and ``problems.KINDS``: a new backend or kind is tested here
without touching this file. Complete backends must prove the brute-force optimum and count
its answers; a heuristic's answer must pass the oracle's checker and never beat it.
"""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab.core.backend import Family, Task
from queenslab.problems import DEFAULT_KIND, KINDS
from queenslab.registry import backend_class, info, names
from tests import kind_oracle

OTHER_KINDS = [k for k in KINDS if k != DEFAULT_KIND]
SIZES = range(1, kind_oracle.MAX_N + 1)
#: A board with blocked cells off its centre, so that symmetries of it are few.
BLOCKED = ((2, 2), (0, 1))


def _cases(task: Task, variants: bool = True) -> list:
    """(backend, kind, variant) triples; unavailable backends are shown as skipped."""
    cases = []
    for name in names():
        cls = backend_class(name)
        details = info(name)
        why = f"{name}: {details.why_unavailable}"
        skip = pytest.mark.skipif(not details.available, reason=why)
        for problem in OTHER_KINDS:
            if not cls.does(task, problem):
                continue
            for variant in sorted(cls.variants) if variants else ["standard"]:
                cases.append(pytest.param(name, problem, variant, marks=skip,
                                          id=f"{name}-{problem}-{variant}"))  # fmt: skip
    return cases


def _sense(problem: str) -> int:
    """+1 when the kind minimises, -1 when it maximises (then a larger value is better)."""
    return 1 if KINDS[problem].sense.value == "min" else -1


def _checked(result, problem: str, n: int, variant: str, blocked=()) -> int:
    """The result's value, after the oracle has checked its answer."""
    assert result.answer is not None, result
    assert kind_oracle.fault(problem, n, variant, blocked, result.answer) is None
    value = kind_oracle.value(problem, result.answer)
    assert value == result.objective
    return value


def _agrees(name: str, result, problem: str, n: int, variant: str, blocked=()) -> None:
    best, _ = kind_oracle.optimum(problem, n, variant, blocked)
    value = _checked(result, problem, n, variant, blocked)
    if backend_class(name).family is Family.HEURISTIC:
        assert _sense(problem) * (value - best) >= 0, f"{name} beat the optimum {best}"
        assert result.status is (ql.Status.OPTIMAL if value == result.bound else ql.Status.FEASIBLE)
        assert isinstance(result.stats["moves"], int)  # its effort, in the shared vocabulary
    else:
        assert (result.status, value, result.bound) == (ql.Status.OPTIMAL, best, best)


def test_every_kind_backend_is_covered():
    """Each backend that declares a kind task is among the cases of that task."""
    for name in names():
        cls = backend_class(name)
        for task in cls.kind_tasks:
            covered = {p.values[1] for p in _cases(task) if p.values[0] == name}
            assert covered == set(cls.kinds) - {DEFAULT_KIND}, (name, task)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.OPTIMIZE))
def test_optimize_gives_the_brute_force_optimum(name, problem, variant):
    for n in SIZES:
        result = ql.optimize(n, problem=problem, backend=name, variant=variant, seed=n,
                             time_limit=60)  # fmt: skip
        _agrees(name, result, problem, n, variant)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.OPTIMIZE, variants=False))
def test_optimize_on_a_blocked_board(name, problem, variant):
    if not KINDS[problem].takes_blocked:
        pytest.skip(f"{problem} takes no blocked cells")
    result = ql.optimize(5, problem=problem, backend=name, blocked=BLOCKED, seed=1, time_limit=60)
    _agrees(name, result, problem, 5, variant, BLOCKED)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.OPTIMIZE, variants=False))
def test_every_model_and_symmetry_keeps_the_optimum(name, problem, variant):
    """Each formulation, with and without lex-leader constraints, at n = 4 and 5. A model
    a backend refuses must say so in one line (a UsageError), never answer wrongly."""
    if backend_class(name).family is Family.HEURISTIC:
        pytest.skip("a heuristic reads no model")
    for model in KINDS[problem].models:
        for symmetry in ("none", "lex-leader"):
            for n in (4, 5):
                try:
                    result = ql.optimize(n, problem=problem, backend=name, model=model,
                                         symmetry=symmetry, time_limit=60)  # fmt: skip
                except ql.UsageError as refused:
                    assert "\n" not in str(refused)
                    continue
                _agrees(name, result, problem, n, variant)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.COUNT))
def test_count_gives_the_brute_force_number_of_optima(name, problem, variant):
    for n in SIZES:
        result = ql.count(n, problem=problem, backend=name, variant=variant, time_limit=60)
        assert (result.optimum, result.total) == kind_oracle.optimum(problem, n, variant)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.ENUMERATE, variants=False))
def test_enumerate_streams_each_optimum_once(name, problem, variant):
    for n, blocked in ((4, ()), (5, BLOCKED)):
        if blocked and not KINDS[problem].takes_blocked:
            continue
        best, number = kind_oracle.optimum(problem, n, variant, blocked)
        seen = []
        with ql.enumerate_solutions(n, name, problem=problem, blocked=blocked) as answers:
            for answer in answers:
                assert kind_oracle.fault(problem, n, variant, blocked, answer) is None
                assert kind_oracle.value(problem, answer) == best
                seen.append(repr(answer))
        assert len(seen) == len(set(seen)) == number
