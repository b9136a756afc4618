"""The harness for the problem kinds: every backend, on every kind, task and variant it
declares, against brute force: tests/kind_oracle.py (which shares no code with queenslab)
for the built-in kinds, the kind's own ``candidates`` and ``check`` for any other
(tests/kind_brute_force.py).

Parametrized from the backend registry and the kinds registered when the tests are
collected (``problems.kind_names()``: plug-ins, and tests/harness/conftest.py's): a new
backend or kind is tested here without touching this file. Complete backends must prove
the brute-force optimum and count its answers; a heuristic's answer must pass the oracle's
checker and never beat it. The variants beyond the standard board, and the
portfolio (checked by its unit tests), are slow tests.
"""

from __future__ import annotations

from types import ModuleType

import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.core.backend import Family, Task
from queenslab.problems import DEFAULT_KIND, kind_class, kind_names
from queenslab.registry import backend_class, names
from tests import kind_brute_force, kind_oracle
from tests.conftest import harness_marks

OTHER_KINDS = [k for k in kind_names() if k != DEFAULT_KIND]
#: Backends that count and enumerate by solving once per answer (a no-good each): those
#: runs are slow tests (milp: 12 minutes of the harness under load); tests/unit/
#: test_translators.py checks their counts in the default suite.
BLOCKING = frozenset({"milp", "maxsat"})


def count_limit(name: str) -> float:
    """A count's guard against a hang, not a measure: a counter that solves again for each
    answer (``BLOCKING``) takes minutes for hundreds of colourings at load 10."""
    return 900.0 if name in BLOCKING else 60.0


#: A board with blocked cells off its centre, so that symmetries of it are few.
BLOCKED = ((2, 2), (0, 1))


def _oracle(problem: str) -> ModuleType:
    """kind_oracle for the kinds it knows; any other kind's own brute force."""
    return kind_oracle if problem in kind_oracle.KINDS else kind_brute_force


def _sizes(problem: str) -> range:
    """n = 1 up to the largest board its oracle takes (the blocked board's size too)."""
    return range(1, _oracle(problem).MAX_N + 1)


def _cases(task: Task, variants: bool = True) -> list:
    """(backend, kind, variant) triples; unavailable backends are shown as skipped, and
    variants other than the standard board and the racers are slow tests."""
    cases = []
    for name in names():
        cls = backend_class(name)
        for problem in OTHER_KINDS:
            if not cls.does(task, problem):
                continue
            slow = name in BLOCKING and task in (Task.COUNT, Task.ENUMERATE)
            for variant in sorted(cls.variants) if variants else ["standard"]:
                marks = (*harness_marks(name, variant), *([pytest.mark.slow] if slow else []))
                cases.append(pytest.param(name, problem, variant, marks=marks,
                                          id=f"{name}-{problem}-{variant}"))  # fmt: skip
    return cases


def _model_cases(task: Task, variants: bool = True) -> list:
    """(backend, kind, variant, model) for every model of every kind of ``_cases``."""
    return [
        pytest.param(*case.values, model, marks=case.marks, id=f"{case.id}-{model}")
        for case in _cases(task, variants)
        for model in kind_class(case.values[1]).models
    ]


def _boards(problem: str, variant: str = "standard") -> list[tuple[int, tuple]]:
    """Small boards: n = 4, and on the standard board the largest the oracle takes with
    ``BLOCKED``."""
    blocked = variant == "standard" and kind_class(problem).takes_blocked
    return [(4, ()), *([(_sizes(problem)[-1], BLOCKED)] if blocked else [])]


def _refused(refusal: ql.UsageError, problem: str, model: str) -> None:
    """A model that cannot count the kind's answers (or that the backend cannot take)
    says so in one line; a model that counts them names no other."""
    assert "\n" not in str(refusal)
    if model in kind_class(problem).uncounted:
        assert "count and enumerate with" in str(refusal)


def _cpsat_budget(patch: pytest.MonkeyPatch, k: int) -> dict:
    """k conflicts; none at all at k = 0, where the presolve itself is cut short."""
    from queenslab.models import cpsat

    made = cpsat.parallel_solver

    def limited(workers: int, run) -> object:
        solver = made(workers, run)
        if k:
            solver.parameters.max_number_of_conflicts = k
        else:
            solver.parameters.max_deterministic_time = 0.0
        return solver

    patch.setattr(cpsat, "parallel_solver", limited)
    return {}


def _milp_budget(patch: pytest.MonkeyPatch, k: int) -> dict:
    """k branch-and-bound nodes of HiGHS; at k = 0 a time limit of 0 ends its presolve."""
    from queenslab.models import pyomo_solvers

    options = {"mip_max_nodes": k} if k else {"time_limit": 0.0}
    patch.setattr(pyomo_solvers.PyomoSolver, "_presolve_options", lambda self, _: options)
    return {}


def _oracle_call_budget(patch: pytest.MonkeyPatch, k: int) -> dict:
    """k calls of the SAT oracle (the sat descent's solves, RC2's core-guided calls)."""
    from queenslab.models import sat

    made, calls = sat.solve_until, []

    def limited(solver, should_stop, assumptions=()) -> bool | None:
        calls.append(1)
        return made(solver, should_stop, assumptions) if len(calls) <= k else None

    patch.setattr(sat, "solve_until", limited)
    return {}


def _portfolio_budget(patch: pytest.MonkeyPatch, k: int) -> dict:
    """Each default member's budget at once (the patches reach the forked members)."""
    from queenslab.models.portfolio import DEFAULT_MEMBERS

    for member in DEFAULT_MEMBERS.split(","):
        BUDGETS[member](patch, k)
    return {}


def _rounds_budget(patch: pytest.MonkeyPatch, k: int) -> dict:
    """k decisions of the armies search (an optimisation's rounds), then a stop."""
    from queenslab.core.errors import LimitReached
    from queenslab.exact import armies

    made, calls = armies._Search.decide, []

    def limited(self, target: int, *rest):
        calls.append(1)
        if len(calls) > k:
            raise LimitReached
        return made(self, target, *rest)

    patch.setattr(armies._Search, "decide", limited)
    return {"workers": 1}


def _decisions_budget(patch: pytest.MonkeyPatch, k: int) -> dict:
    """k decisions of the independent-domination search, then a stop."""
    from queenslab.core.errors import LimitReached
    from queenslab.exact import independent_domination

    made, calls = independent_domination._decide, []

    def limited(*args: object):
        calls.append(1)
        if len(calls) > k:
            raise LimitReached
        return made(*args)

    patch.setattr(independent_domination, "_decide", limited)
    return {"workers": 1}


#: A deterministic budget per backend, in the solver's own units of work (never the clock):
#: each sets it for one run (a test-only hook where the solver is made) or passes it as an
#: option, and returns the options to call with.
BUDGETS = {
    "cpsat": _cpsat_budget,
    "milp": _milp_budget,
    "sat": _oracle_call_budget,
    "maxsat": _oracle_call_budget,
    "portfolio": _portfolio_budget,
    "graph-search": lambda patch, k: {"patience": k + 1},
    "armies": _rounds_budget,
    "independent-search": _decisions_budget,
}


def _sense(problem: str) -> int:
    """+1 when the kind minimises, -1 when it maximises (then a larger value is better)."""
    return 1 if kind_class(problem).sense.value == "min" else -1


def _checked(result, problem: str, n: int, variant: str, blocked=()) -> int:
    """The result's value, after the oracle has checked its answer."""
    assert result.answer is not None, result
    oracle = _oracle(problem)
    assert oracle.fault(problem, n, variant, blocked, result.answer) is None
    value = oracle.value(problem, result.answer)
    assert value == result.objective
    return value


def _agrees(name: str, result, problem: str, n: int, variant: str, blocked=()) -> None:
    """The result is the brute force's optimum (a heuristic's: no better than it); where
    there is no answer, a complete backend proves it and a heuristic returns none."""
    best, _ = _oracle(problem).optimum(problem, n, variant, blocked)
    heuristic = backend_class(name).family is Family.HEURISTIC
    if best is None:
        assert result.answer is None, result
        assert (result.status is ql.Status.INFEASIBLE) is not heuristic, result
        return
    value = _checked(result, problem, n, variant, blocked)
    if heuristic:
        assert _sense(problem) * (value - best) >= 0, f"{name} beat the optimum {best}"
        assert result.status is (ql.Status.OPTIMAL if value == result.bound else ql.Status.FEASIBLE)
        assert isinstance(result.stats["moves"], int)  # its effort, in the shared vocabulary
    else:
        assert (result.status, value, result.bound) == (ql.Status.OPTIMAL, best, best)


def test_every_kind_backend_is_covered():
    """Each backend that declares a kind task is among the cases of that task."""
    for name in names():
        cls = backend_class(name)
        for task in Task:
            covered = {p.values[1] for p in _cases(task) if p.values[0] == name}
            assert covered == {k for k in OTHER_KINDS if cls.does(task, k)}, (name, task)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.OPTIMIZE))
def test_optimize_gives_the_brute_force_optimum(name, problem, variant):
    for n in _sizes(problem):
        result = ql.optimize(n, problem=problem, backend=name, variant=variant, seed=n,
                             time_limit=60)  # fmt: skip
        _agrees(name, result, problem, n, variant)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.OPTIMIZE, variants=False))
def test_optimize_on_a_blocked_board(name, problem, variant):
    if not kind_class(problem).takes_blocked:
        pytest.skip(f"{problem} takes no blocked cells")
    n = _sizes(problem)[-1]
    result = ql.optimize(n, problem=problem, backend=name, blocked=BLOCKED, seed=1, time_limit=60)
    _agrees(name, result, problem, n, variant, BLOCKED)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.OPTIMIZE, variants=False))
def test_optimize_on_a_board_without_open_cells(name, problem, variant):
    """The empty answer is optimal (no colour, no army); domination, which must still
    reach every cell, is infeasible, and a complete backend says why in the words of the
    kind's model (domination: which cell no queen reaches)."""
    if not kind_class(problem).takes_blocked:
        pytest.skip(f"{problem} takes no blocked cells")
    closed = ((0, 0), (0, 1), (1, 0), (1, 1))
    result = ql.optimize(2, problem=problem, backend=name, blocked=closed, seed=1, time_limit=60)
    _agrees(name, result, problem, 2, variant, closed)
    if result.status is ql.Status.INFEASIBLE:
        kind = kind_class(problem)()
        why = kind.build(board(2, blocked=closed), kind.model_name(None)).impossible
        assert why and why in result.message


#: Backends whose every model and symmetry at n = 4 is a slow test too: milp's took 10 CPU s
#: of the default suite, where cpsat, sat and maxsat solve the same models at n = 4.
MODELS_SLOW = frozenset({"milp"})


def _model_symmetry_cases() -> list:
    """``_cases(Task.OPTIMIZE)`` on the standard board at n = 4 (slow for ``MODELS_SLOW``),
    and at the largest board its oracle takes (slow)."""
    slow = pytest.mark.slow
    cases = []
    for case in _cases(Task.OPTIMIZE, variants=False):
        at_4 = (*case.marks, *([slow] if case.values[0] in MODELS_SLOW else []))
        cases.append(pytest.param(*case.values, False, marks=at_4, id=f"{case.id}-n4"))
        cases.append(pytest.param(*case.values, True, marks=(*case.marks, slow),
                                  id=f"{case.id}-largest"))  # fmt: skip
    return cases


@pytest.mark.parametrize(("name", "problem", "variant", "largest"), _model_symmetry_cases())
def test_every_model_and_symmetry_keeps_the_optimum(name, problem, variant, largest):
    """Each formulation, with and without lex-leader constraints, at n = 4, and (a slow
    test: milp's lex-leader rows take seconds there) at the largest board its oracle takes.
    A model a backend refuses must say so in one line (a UsageError), never answer
    wrongly."""
    if backend_class(name).family is Family.HEURISTIC:
        pytest.skip("a heuristic reads no model")
    n = _sizes(problem)[-1] if largest else 4
    for model in kind_class(problem).models:
        for symmetry in ("none", "lex-leader"):
            try:
                result = ql.optimize(n, problem=problem, backend=name, model=model,
                                     symmetry=symmetry, time_limit=60)  # fmt: skip
            except ql.UsageError as refused:
                assert "\n" not in str(refused)
                continue
            _agrees(name, result, problem, n, variant)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.OPTIMIZE, variants=False))
def test_a_limit_leaves_a_valid_bound(name, problem, variant, monkeypatch):
    """Stopped by a deterministic budget, a run's bound lies on the right side of the
    brute-force optimum (at least it when maximising, at most when minimising) or is absent;
    any answer passes the oracle, and only the optimum is called optimal. A complete
    backend stopped before its proof must show it (the smallest budget does)."""
    n = _sizes(problem)[-1]
    best, _ = _oracle(problem).optimum(problem, n, variant)
    # the kind's first model, not the measured default (problems/measured.py): colouring's
    # exact cover is solved at the root, where no budget can stop it; a search of a
    # backend's own reads no model
    heuristic = backend_class(name).family is Family.HEURISTIC
    modelled = backend_class(name).family is Family.MODEL
    model = next(iter(kind_class(problem).models)) if modelled else None
    statuses = set()
    for k in (0, 1, 4, 16):
        with monkeypatch.context() as patch:
            options = BUDGETS[name](patch, k)
            result = ql.optimize(n, problem=problem, backend=name, seed=1, time_limit=60,
                                 model=model, **options)  # fmt: skip
        statuses.add(result.status)
        assert result.status in (ql.Status.OPTIMAL, ql.Status.FEASIBLE, ql.Status.LIMIT), result
        if result.answer is not None:
            assert _sense(problem) * (_checked(result, problem, n, variant) - best) >= 0
        if result.bound is not None:
            assert _sense(problem) * (best - result.bound) >= 0, (k, result.bound, best)
        if result.status is ql.Status.OPTIMAL:
            assert result.objective == result.bound == best
    if not heuristic:
        assert statuses - {ql.Status.OPTIMAL}, "no budget stopped the run before its proof"


def test_every_optimizing_backend_has_a_budget():
    """The bound test above needs a way to stop each backend deterministically."""
    optimizing = {
        name
        for name in names()
        for kind in OTHER_KINDS
        if backend_class(name).does(Task.OPTIMIZE, kind)
    }
    assert optimizing <= set(BUDGETS)


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.COUNT))
def test_count_gives_the_brute_force_number_of_optima(name, problem, variant):
    for n in _sizes(problem):
        result = ql.count(n, problem=problem, backend=name, variant=variant,
                          time_limit=count_limit(name))  # fmt: skip
        assert (result.optimum, result.total) == _oracle(problem).optimum(problem, n, variant)


@pytest.mark.parametrize(("name", "problem", "variant", "model"), _model_cases(Task.COUNT))
def test_every_model_counts_the_kinds_answers(name, problem, variant, model):
    """A count is of the kind's answers (sets of queens, white and black pairs, colourings
    as partitions), the same on every model: a model whose solutions are something else
    (labelled colours, white armies alone) is refused in one line."""
    for n, blocked in _boards(problem, variant):
        try:
            result = ql.count(n, problem=problem, backend=name, variant=variant, model=model,
                              blocked=blocked, time_limit=count_limit(name))  # fmt: skip
        except ql.UsageError as refusal:
            _refused(refusal, problem, model)
            continue
        assert model not in kind_class(problem).uncounted, f"{model} counted {result.total}"
        expected = _oracle(problem).optimum(problem, n, variant, blocked)
        assert (result.optimum, result.total) == expected


@pytest.mark.parametrize(
    ("name", "problem", "variant", "model"), _model_cases(Task.ENUMERATE, variants=False)
)
def test_enumerate_streams_each_optimum_once(name, problem, variant, model):
    oracle = _oracle(problem)
    for n, blocked in _boards(problem):
        best, number = oracle.optimum(problem, n, variant, blocked)
        seen = []
        try:
            with ql.enumerate_solutions(n, name, problem=problem, blocked=blocked,
                                        model=model) as answers:  # fmt: skip
                for answer in answers:
                    assert oracle.fault(problem, n, variant, blocked, answer) is None
                    assert oracle.value(problem, answer) == best
                    seen.append(repr(answer))
        except ql.UsageError as refusal:
            _refused(refusal, problem, model)
            continue
        assert model not in kind_class(problem).uncounted, f"{model} streamed {len(seen)}"
        assert len(seen) == len(set(seen)) == number


@pytest.mark.parametrize(("name", "problem", "variant"), _cases(Task.DECIDE, variants=False))
def test_decide_agrees_with_the_brute_force_optimum(name, problem, variant):
    """At the optimum and one step looser: yes, with an answer the oracle accepts, of the
    value asked or better; one step past the optimum: no. On ``_boards``."""
    sense = _sense(problem)
    for n, blocked in _boards(problem):
        best, _ = _oracle(problem).optimum(problem, n, variant, blocked)
        for value in (best, best + sense):
            result = ql.decide(n, problem, value, name, blocked=blocked, time_limit=60)
            assert result.status is ql.Status.YES, (n, value, result)
            found = _checked(result, problem, n, variant, blocked)
            assert sense * (value - found) >= 0 and found == result.objective
        beyond = best - sense
        if beyond >= 0:
            result = ql.decide(n, problem, beyond, name, blocked=blocked, time_limit=60)
            assert (result.status, result.answer) == (ql.Status.NO, None), (n, beyond)
