"""Problem kinds on the 0-1 translators: published optima proven on every paradigm, the
optima counted, symmetry classes, the checkers, limits and models the CNF cannot take."""

from __future__ import annotations

from itertools import combinations
from types import MappingProxyType

import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.core.errors import UsageError
from queenslab.core.model import BoolModel
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.lab import reference
from queenslab.models.zero_one import sat
from queenslab.models.zero_one.outcome import Outcome
from queenslab.problems import BUILTIN, kind
from tests import kind_brute_force, kind_oracle, oracle
from tests.translators import ENUMERATORS, TRANSLATORS, Budget, load_solvers


@pytest.fixture(scope="module", autouse=True)
def loaded():
    load_solvers()


def optimize(name: str, problem: str, n: int, variant: str = "standard", **build) -> Outcome:
    """The translator's outcome, its answer checked by the kind's own checker."""
    module, settings = TRANSLATORS[name]
    question, field = kind(problem), board(n, variant, build.pop("blocked", ()))
    model = question.build(field, build.pop("model", "cells"), **build)
    outcome = module.optimize(model, Run(), settings)
    if outcome.values is not None:
        answer = question.decode(field, model, outcome.values)
        assert question.check(field, answer) is None
        assert question.value(answer) == outcome.objective
    return outcome


def count(name: str, problem: str, n: int, variant: str = "standard", **build) -> int:
    """The number of optimal answers: the optimum proven, then its answers streamed."""
    module, settings = ENUMERATORS[name]
    question, field = kind(problem), board(n, variant, build.pop("blocked", ()))
    model = question.build(field, build.pop("model", "cells"), **build)
    best = module.optimize(model, Run(), settings)
    assert best.status is Status.OPTIMAL
    fixed = model.with_objective_at(best.objective)
    answers = [question.decode(field, model, v) for v in module.solutions(fixed, Run(), settings)]
    assert all(question.check(field, a) is None for a in answers)
    assert len(set(answers)) == len(answers)
    return len(answers)


@pytest.mark.parametrize("name", TRANSLATORS)
@pytest.mark.parametrize("variant", ["standard", "toroidal"])
def test_domination_numbers_are_the_published_ones(name, variant):
    for n in range(1, 7):
        outcome = optimize(name, "domination", n, variant)
        assert outcome.status is Status.OPTIMAL
        assert outcome.objective == outcome.bound == reference.optimum("domination", n, variant)


@pytest.mark.parametrize("name", TRANSLATORS)
def test_independent_domination_numbers_are_the_published_ones(name):
    for n in range(1, 7):
        outcome = optimize(name, "independent-domination", n)
        assert outcome.status is Status.OPTIMAL
        assert outcome.objective == reference.optimum("independent-domination", n)


@pytest.mark.slow
@pytest.mark.parametrize("name", TRANSLATORS)
@pytest.mark.parametrize("problem", ["domination", "independent-domination"])
def test_the_lines_model_and_lex_leader_keep_the_optimum(name, problem):
    for n in (5, 7):
        expected = reference.optimum(problem, n)
        for build in ({"model": "lines"}, {"symmetry": "lex-leader"}):
            assert optimize(name, problem, n, **build).objective == expected


def brute_force_domination(n: int, blocked: tuple) -> tuple[int, int]:
    """(domination number, number of minimum dominating sets) by trying every set of
    open cells, smallest first, with the naive attack rule of ``tests.oracle``."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    free = [cell for cell in cells if cell not in blocked]
    for k in range(1, len(free) + 1):
        found = sum(
            all(
                cell in queens or any(oracle.attack(n, "standard", q, cell) for q in queens)
                for cell in cells
            )
            for queens in combinations(free, k)
        )
        if found:
            return k, found
    raise AssertionError("the whole board dominates itself")


@pytest.mark.parametrize("name", TRANSLATORS)
def test_blocked_cells_hold_no_queen_but_are_dominated(name):
    blocked = ((2, 2), (0, 1))  # the centre: one queen there would dominate the 5x5 board
    best, _ = brute_force_domination(5, blocked)
    outcome = optimize(name, "domination", 5, blocked=blocked)
    assert outcome.objective == best


@pytest.mark.parametrize("name", ENUMERATORS)
def test_optima_counted_as_published(name):
    for n in range(1, 7):
        assert count(name, "domination", n) == reference.optima("domination", n)
    assert (
        count(name, "domination", 5, blocked=((2, 2), (0, 1)))
        == brute_force_domination(5, ((2, 2), (0, 1)))[1]
    )


#: The issue's proofs: (problem, variant) -> the sizes each model backend must prove.
PROVEN = {
    ("domination", "standard"): range(7, 12),
    ("domination", "toroidal"): range(7, 13),
    ("independent-domination", "standard"): range(7, 11),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", TRANSLATORS)
@pytest.mark.parametrize(("problem", "variant"), PROVEN)
def test_the_published_optima_are_proven_through_the_api(name, problem, variant):
    """Domination n <= 11, toroidal n <= 12, independent domination n <= 10 (smaller n
    run in the default suite), each answer checked by the kind's own checker."""
    for n in PROVEN[problem, variant]:
        result = ql.optimize(n, problem=problem, backend=name, variant=variant)
        assert result.status is Status.OPTIMAL, (n, result.status)
        assert result.objective == reference.optimum(problem, n, variant), n


@pytest.mark.slow
@pytest.mark.parametrize("name", ENUMERATORS)
def test_4860_minimum_dominating_sets_at_8(name):
    assert count(name, "domination", 8) == 4860


def classes(problem: str, n: int) -> int:
    """Optima up to the board's symmetries, from every optimum and its images."""
    question, field = kind(problem), board(n)
    model = question.build(field, "cells")
    module, settings = ENUMERATORS["sat"]
    best = module.optimize(model, Run(), settings).objective
    seen = set()
    for values in module.solutions(model.with_objective_at(best), Run(), settings):
        answer = question.decode(field, model, values)
        seen.add(min(s.cells(n, answer) for s in field.symmetries()))
    return len(seen)


@pytest.mark.parametrize("name", ENUMERATORS)
def test_lex_leader_counts_the_classes(name):
    for n in (4, 5, 6):
        for problem in ("domination", "independent-domination"):
            assert count(name, problem, n, symmetry="lex-leader") == classes(problem, n)


@pytest.mark.parametrize("name", ENUMERATORS)
@pytest.mark.parametrize(
    ("n", "variant", "blocked"),
    [(6, "standard", ()), (7, "toroidal", ()), (10, "superqueens", ()), (6, "standard", ((0, 1),))],
)
def test_placement_as_a_kind_counts_what_the_counters_count(name, n, variant, blocked):
    expected = ql.count(ql.Problem(n, variant=variant, blocked=blocked), "backtrack").total
    assert count(name, "placement", n, variant, blocked=blocked) == expected


def test_weighted_placement_is_the_weighted_optimum():
    import numpy as np

    weights = np.random.default_rng(3).integers(-5, 20, size=(6, 6))
    field = board(6)
    question = kind("placement", weights)
    model = question.build(field, "cells", "lex-leader")
    for name in ("cpsat", "milp", "maxsat"):
        module, settings = TRANSLATORS[name]
        outcome = module.optimize(model, Run(), settings)
        assert outcome.objective == oracle.best_weight(6, weights)
        assert question.value(question.decode(field, model, outcome.values)) == outcome.objective


def test_each_checker_rejects_a_wrong_answer():
    field = board(5)
    domination = kind("domination")
    assert "neither occupied nor attacked" in domination.check(field, frozenset({(0, 0), (4, 4)}))
    assert "blocked" in domination.check(
        board(5, blocked=[(2, 2)]), frozenset({(2, 2)}) | {(0, 0), (4, 4)}
    )
    independent = kind("independent-domination")
    attacking = frozenset({(0, 0), (1, 1), (2, 3), (4, 2)})
    assert domination.check(board(4), frozenset({(0, 0), (2, 2)})) is None
    assert "attack each other" in independent.check(board(4), frozenset({(0, 0), (2, 2)}))
    assert independent.check(field, attacking) is not None
    placement = kind("placement", None, [(0, 1)])
    assert placement.check(board(4), ql.Placement([1, 3, 0, 2])) is None
    assert "attack each other" in placement.check(board(4), ql.Placement([1, 2, 3, 1]))
    assert "3 queens for n=4" in placement.check(board(4), ql.Placement([1, 3, 0]))
    assert "given queen 0:1 moved" in placement.check(board(4), ql.Placement([2, 0, 3, 1]))


def test_kinds_refuse_what_they_do_not_take():
    with pytest.raises(UsageError, match="unknown problem 'dominaton'; choose from: placement"):
        kind("dominaton")
    with pytest.raises(UsageError, match="problem 'domination' takes no weights"):
        kind("domination", [[1]])
    with pytest.raises(UsageError, match="unknown model 'rows' for problem 'domination'"):
        kind("domination").model_name("rows")
    assert set(BUILTIN) >= {"placement", "domination", "independent-domination"}


def general_linear_model() -> BoolModel:
    model = BoolModel("pb")
    x = [model.var(f"x{i}", answer=True) for i in range(3)]
    model.add_linear([(2, x[0]), (1, x[1]), (1, x[2])], lower=2, upper=3)
    model.minimise((1, v) for v in x)
    return model


@pytest.mark.parametrize("name", ["sat", "maxsat"])
def test_a_constraint_the_cnf_cannot_take_is_one_line(name):
    module, settings = TRANSLATORS[name]
    with pytest.raises(UsageError, match=r"coefficient 2.*backends that take it: cpsat, milp"):
        module.optimize(general_linear_model(), Run(), settings)


@pytest.mark.parametrize("name", ["cpsat", "milp"])
def test_general_linear_constraints_on_cpsat_and_milp(name):
    module, settings = TRANSLATORS[name]
    outcome = module.optimize(general_linear_model(), Run(), settings)
    assert (outcome.status, outcome.objective) == (Status.OPTIMAL, 1)


@pytest.mark.parametrize("name", TRANSLATORS)
def test_infeasible_models_are_proven_so(name):
    model = BoolModel("none")
    x = model.var("x", answer=True)
    model.clause(x + 1)
    model.add_linear([(1, x)], upper=0)
    model.minimise([(1, x)])
    module, settings = TRANSLATORS[name]
    assert module.optimize(model, Run(), settings).status is Status.INFEASIBLE


@pytest.fixture
def first_answer_stops(monkeypatch: pytest.MonkeyPatch) -> Run:
    """A run that CP-SAT's first answer stops, through the run as a deadline does, so the
    run's poller ends the solve: deterministic, where a 1 s timer left a loaded machine
    without an answer (issue 35)."""

    from queenslab.models import cpsat as cp

    run, search = Run(), cp.search

    def stopping(solver, model, should_stop, callback):
        class FirstAnswer(type(callback)):  # the translator's own callback, then a stop
            def on_solution_callback(self) -> None:
                super().on_solution_callback()
                run.stop()

        return search(solver, model, should_stop, FirstAnswer())

    monkeypatch.setattr(cp, "search", stopping)
    return run


def placement_of_30():
    """Random weights 0..999 on 30 x 30: no optimum proven after 60 s by CP-SAT or HiGHS."""
    import numpy as np

    weights = np.random.default_rng(0).integers(0, 1000, (30, 30))
    question, field = kind("placement", weights), board(30)
    return question, field, question.build(field, "cells")


def test_cpsat_stopped_leaves_the_best_answer_and_its_bound(first_answer_stops):
    question, field, model = placement_of_30()
    module, settings = TRANSLATORS["cpsat"]
    outcome = module.optimize(model, first_answer_stops, settings)
    assert outcome.status is Status.FEASIBLE
    assert outcome.objective < outcome.bound  # maximising: the bound is above
    assert question.check(field, question.decode(field, model, outcome.values)) is None


@pytest.mark.slow
def test_milp_at_a_time_limit_leaves_the_best_answer_and_its_bound():
    """HiGHS takes no budget through Pyomo here, so a time limit with a margin: feasible,
    far from proven, after 20 s at load 10 on two cores as after 60 s on an idle one."""
    question, field, model = placement_of_30()
    module, settings = TRANSLATORS["milp"]
    outcome = module.optimize(model, Run(time_limit=20.0), settings)
    assert outcome.status is Status.FEASIBLE
    assert outcome.objective < outcome.bound
    assert question.check(field, question.decode(field, model, outcome.values)) is None


def test_sat_stopped_keeps_its_best_answer():
    question, field = kind("domination"), board(16)
    model = question.build(field, "cells")
    outcome = sat.optimize(model, Budget(20), TRANSLATORS["sat"][1])
    # the bound is the one the model states (at least ceil(16 / 2) queens), not 0
    assert outcome.status is Status.FEASIBLE and outcome.bound == 8
    assert question.check(field, question.decode(field, model, outcome.values)) is None


def test_cpsat_stopped_by_the_run_keeps_its_best_answer(first_answer_stops):
    """The run's poller, not CP-SAT's own limit, ends this solve: the answer found so far
    was lost to that race (status limit at the deadline on colouring n = 9)."""
    question, field = kind("coloring"), board(9)
    model = question.build(field, "precedence")
    module, settings = TRANSLATORS["cpsat"]
    outcome = module.optimize(model, first_answer_stops, settings)
    assert outcome.status is Status.FEASIBLE and outcome.values is not None
    assert question.check(field, question.decode(field, model, outcome.values)) is None


def test_maxsat_stopped_reports_its_best_answer_and_its_cores_bound():
    """The translator stops itself between conflict slices, in this process too; its
    answer is the best its oracle's models gave on the way, if any came."""
    question, field = kind("peaceable"), board(9)
    model = question.build(field, "white-only")
    module, settings = TRANSLATORS["maxsat"]
    outcome = module.optimize(model, Budget(50), settings)
    assert reference.optimum("peaceable", 9) <= outcome.bound < 81
    if outcome.values is None:
        assert outcome.status is Status.LIMIT
    else:
        assert outcome.status is Status.FEASIBLE and outcome.objective <= outcome.bound
        assert question.check(field, question.decode(field, model, outcome.values)) is None


# -- through the API ---------------------------------------------------------------------


@pytest.mark.parametrize("name", TRANSLATORS)
def test_the_api_proves_and_checks_the_optimum(name):
    result = ql.optimize(6, problem="domination", backend=name)
    assert (result.status, result.objective, result.bound, result.gap) == (Status.OPTIMAL, 3, 3, 0)
    answer = frozenset(tuple(cell) for cell in result.answer)
    assert kind("domination").check(board(6), answer) is None and len(answer) == 3
    record = result.to_json()
    assert record["problem"] == "domination" and record["answer"] == result.answer


def test_the_api_counts_and_streams_the_optima():
    counted = ql.count(5, problem="domination")
    assert (counted.total, counted.optimum, counted.kind) == (186, 3, "domination")
    assert counted.to_json()["optimum"] == 3
    for name in ENUMERATORS:
        with ql.enumerate_solutions(5, name, problem="domination") as stream:
            answers = [tuple(map(tuple, answer)) for answer in stream]
        assert len(set(answers)) == len(answers) == 186
    classes = ql.count(5, "cpsat", problem="domination", symmetry="lex-leader")
    assert classes.total == 37


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ql.optimize(8, problem="dominaton"), "unknown problem 'dominaton'"),
        (lambda: ql.optimize(8, problem="domination", backend="bitmask"), "does not model"),
        (lambda: ql.optimize(4, [[1] * 4] * 4, problem="domination"), "takes no weights"),
        (lambda: ql.optimize(8, problem="domination", model="rows"), "unknown model 'rows'"),
        (lambda: ql.optimize(8, problem="domination", givens=[(0, 0)]), "takes no given queens"),
        (lambda: ql.optimize(8, problem="domination", symmetry="all"), "unknown symmetry"),
        (lambda: ql.optimize(8), "the placement problem is valued by weights"),
        (lambda: ql.count(8, "backtrack", symmetry="lex-leader"), "builds no model"),
        (lambda: ql.count(8, problem="domination", unique=True), "--symmetry lex-leader"),
        (lambda: ql.solve(ql.Problem(8, kind="domination"), "armies"), "does not model"),
        (
            lambda: ql.count(4, "cpsat", problem="coloring", model="assignment"),
            "labelled colourings .*count and enumerate with: precedence, representatives",
        ),
        (
            lambda: ql.enumerate_solutions(4, "sat", problem="peaceable", model="white-only"),
            "white armies .*count and enumerate with: lines, basic, bosch",
        ),
        (
            lambda: ql.optimize(10**9, problem="coloring", backend="milp"),
            "the coloring models take n <= 100, got 1000000000",
        ),
        (lambda: ql.count(121, "sat", problem="peaceable"), "the peaceable models take n <= 120"),
        (lambda: ql.problem_model(201, "domination"), "the domination models take n <= 200"),
    ],
)
def test_bad_input_is_refused_before_any_search(call, message):
    with pytest.raises(ql.QueensError, match=message):
        call()


def test_a_backend_that_does_not_count_a_kind_says_what_it_does():
    with pytest.raises(ql.CapabilityError, match="cannot count the domination problem"):
        ql.count(6, "portfolio", problem="domination")


@pytest.mark.slow
def test_a_time_limit_through_the_api_is_feasible_with_its_bound():
    """The first answer comes at once (every cell), the optimum (9) is not proven in 30 s:
    5 s holds at load 10."""
    result = ql.optimize(16, problem="domination", backend="sat", time_limit=5.0)
    # the bound is the one the model states: at least ceil(16 / 2) queens
    assert result.status is Status.FEASIBLE and result.bound == 8 < result.objective
    assert result.gap == result.objective - 8 and result.answer


class Liar:
    """A backend whose answers are wrong in the ways the API must catch."""

    name = "liar"

    def __init__(self, answer, objective, bound):
        self.answer, self.objective, self.bound = answer, objective, bound

    def optimize(self, problem, run, question):
        return ql.OptimizeResult(
            Status.OPTIMAL, self.objective, answer=self.answer, bound=self.bound
        )


@pytest.mark.parametrize(
    ("answer", "objective", "bound", "message"),
    [
        (frozenset({(0, 0)}), 1, 1, "wrong domination answer"),
        (frozenset({(0, 0), (2, 2)}), 1, 1, "reported 1, its answer gives 2"),
        (frozenset({(0, 0), (2, 2)}), 2, 3, "bound 3 is beyond"),
        (frozenset({(0, 0), (2, 2)}), 2, 1, "said optimal with bound 1"),
        (None, 2, 2, "without an answer"),
    ],
)
def test_the_api_catches_a_wrong_answer(monkeypatch, answer, objective, bound, message):
    from queenslab import api
    from queenslab.core.backend import Backend, Family, Task

    class Lying(Liar, Backend):
        family = Family.MODEL
        tasks = MappingProxyType({"domination": frozenset({Task.OPTIMIZE})})

        def __init__(self, **_):
            Liar.__init__(self, answer, objective, bound)

    monkeypatch.setitem(api.registry.BACKENDS.registered, "liar", Lying)
    with pytest.raises(api.BackendBug, match=message):
        ql.optimize(4, problem="domination", backend="liar")


@pytest.mark.parametrize("sense", ["min", "max"])
def test_the_bounded_model_keeps_the_answers_of_the_value_or_better(sense):
    """Every assignment of three variables: the bounded copy (nothing to optimise) holds
    exactly those whose objective is at most the value (min) or at least it (max)."""
    model = BoolModel("three", ["a", "b", "c"])
    model.clause(1, 2)
    terms = [(1, 0), (1, 1), (-1, 2)]
    model.minimise(terms) if sense == "min" else model.maximise(terms)
    for value in (-1, 0, 1, 2):
        bounded = model.with_objective_bound(value)
        assert bounded.objective == () and model.objective
        for bits in range(8):
            values = [bool(bits >> i & 1) for i in range(3)]
            total = model.value(values)
            better = total <= value if sense == "min" else total >= value
            assert bounded.satisfied_by(values) == (model.satisfied_by(values) and better)


@pytest.mark.parametrize("problem", ["domination", "independent-domination"])
def test_a_kinds_own_brute_force_is_the_oracles(problem):
    """``ProblemKind.candidates`` filtered by the kind's checker (what the harness tests a
    registered kind against) finds kind_oracle's optima and their numbers."""
    for n, variant, blocked in [
        *((n, v, ()) for n in (1, 2, 3) for v in oracle.VARIANTS),
        (4, "standard", ((2, 2), (0, 1))),
    ]:
        expected = kind_oracle.optimum(problem, n, variant, blocked)
        assert kind_brute_force.optimum(problem, n, variant, blocked) == expected
