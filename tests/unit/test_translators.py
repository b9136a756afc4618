"""Paradigms from outside: a translator registered from this file (tests/exhaustive.py, an
exhaustive search) is a backend in one line and answers every task on every built-in
kind as the built-in backends do; milp and maxsat count by blocking as cpsat and sat
count; a translator whose values break the model it was given is blamed by name."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import queenslab as ql
from queenslab import registry
from queenslab.core.errors import BackendBug, CapabilityError, UsageError
from queenslab.core.model import BoolModel
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models.zero_one.backend import KindModels
from queenslab.models.zero_one.outcome import Outcome, Start, Tell, tell_nothing
from queenslab.models.zero_one.translator import TRANSLATORS, Translator, register_translator
from queenslab.problems import kind_class
from tests.exhaustive import Exhaustive
from tests.public_kinds import Rooks

#: Each built-in kind on the board the exhaustive search finishes in seconds.
KINDS = {"domination": 4, "independent-domination": 4, "peaceable": 3, "coloring": 4}


class Liar(Exhaustive):
    """Answers when the exhaustive search does, every value false: values that break the
    model they were given (no queen dominates nothing)."""

    def optimize(
        self,
        model: BoolModel,
        run: Run,
        settings: Mapping[str, Any],
        tell: Tell = tell_nothing,
        start: Start | None = None,
    ) -> Outcome:
        true = super().optimize(model, run, settings, tell, start)
        values = None if true.values is None else (False,) * model.size
        return Outcome(true.status, values, true.objective, true.bound)

    def solutions(
        self, model: BoolModel, run: Run, settings: Mapping[str, Any]
    ) -> Iterator[list[bool]]:
        for values in super().solutions(model, run, settings):
            yield [False] * len(values)


class Mute(Exhaustive):
    """Optimises, and declares that it cannot enumerate."""

    solutions = None


@pytest.fixture(scope="module", autouse=True)
def plugged():
    """The translators registered as a plug-in registers them, each a backend in one line;
    both registries as they were afterwards."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TRANSLATORS, "registered", dict(TRANSLATORS.registered))
        patch.setattr(registry.BACKENDS, "registered", dict(registry.BACKENDS.registered))
        for name, translator in (("exhaustive", Exhaustive()), ("liar", Liar()),
                                 ("mute", Mute())):  # fmt: skip
            register_translator(name, translator)
            ql.register_backend(
                type(f"{name}Backend", (KindModels,), {"name": name, "translator": name})
            )
        yield


@pytest.mark.parametrize("kind", KINDS)
def test_an_outside_translator_optimizes_decides_counts_and_solves_every_kind(kind):
    n = KINDS[kind]
    best = ql.optimize(n, problem=kind, backend="exhaustive")
    reference = ql.optimize(n, problem=kind, backend="cpsat")
    assert (best.status, best.objective) == (Status.OPTIMAL, reference.objective)
    value = best.objective
    assert ql.decide(n, problem=kind, value=value, backend="exhaustive").status is Status.YES
    beyond = value - 1 if kind_class(kind).sense == "min" else value + 1
    assert ql.decide(n, problem=kind, value=beyond, backend="exhaustive").status is Status.NO
    counted = ql.count(n, kind=kind, backend="exhaustive")  # colourings: by class of labels
    expected = ql.count(n, kind=kind, backend="sat")
    assert (counted.total, counted.optimum) == (expected.total, expected.optimum)
    assert ql.solve(n, backend="exhaustive", problem=kind).status is Status.SOLVED


def test_an_outside_translator_optimizes_weighted_placement_and_counts_boards():
    weights = np.arange(16).reshape(4, 4) % 5
    best = ql.optimize(4, weights, backend="exhaustive")
    assert (best.status, best.objective) == (Status.OPTIMAL, ql.optimize(4, weights).objective)
    assert ql.count(5, backend="exhaustive").total == 10
    assert ql.solve(4, backend="exhaustive").placement.is_valid()


@pytest.mark.parametrize("backend", ["exhaustive", "cpsat", "sat", "milp", "maxsat"])
def test_a_kind_without_an_objective_is_solved_counted_and_enumerated(backend):
    """Every answer counts: 4! placements of 4 rooks, 3! streamed at n = 3."""
    assert ql.solve(4, backend=backend, problem=Rooks()).status is Status.SOLVED
    counted = ql.count(4, backend=backend, problem=Rooks())
    assert (counted.status, counted.total, counted.optimum) == (Status.SOLVED, 24, None)
    with ql.enumerate_solutions(3, backend=backend, problem=Rooks()) as found:
        assert len({tuple(map(tuple, answer)) for answer in found}) == 6


def test_a_translator_is_anything_with_the_protocols_members():
    assert isinstance(Exhaustive(), Translator)
    assert all(isinstance(TRANSLATORS.get(name), Translator) for name in TRANSLATORS.names())
    with pytest.raises(UsageError, match=r"must be a queenslab\.Translator"):
        register_translator("nothing", object())  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="taken by a built-in translator"):
        register_translator("cpsat", Exhaustive())
    with pytest.raises(UsageError, match="unknown translator 'gurobi'; choose from: cpsat"):
        TRANSLATORS.get("gurobi")


@pytest.mark.parametrize("task", ["optimize", "decide", "solve", "count"])
def test_values_that_break_the_model_blame_the_translator(task):
    calls = {
        "optimize": lambda: ql.optimize(4, problem="domination", backend="liar"),
        "decide": lambda: ql.decide(4, problem="domination", value=2, backend="liar"),
        "solve": lambda: ql.solve(4, backend="liar", problem="domination"),
        "count": lambda: ql.count(4, problem="domination", backend="liar"),
    }
    with pytest.raises(BackendBug, match=r"^liar returned values that violate its model .*: "):
        calls[task]()


def test_a_translator_that_cannot_enumerate_is_refused_counting_in_one_line():
    assert ql.optimize(4, problem="domination", backend="mute").objective == 2
    with pytest.raises(CapabilityError, match=r"^backend 'mute' cannot count or enumerate: its"):
        ql.count(4, problem="domination", backend="mute")
    with pytest.raises(CapabilityError, match=r"translator 'mute' streams no answers$"):
        next(ql.enumerate_solutions(4, problem="domination", backend="mute"))


@pytest.mark.parametrize(
    "backend, n",
    [
        *((b, n) for b in ("milp", "maxsat") for n in (4, 6)),
        ("maxsat", 5),
        pytest.param("milp", 5, marks=pytest.mark.slow),  # 186 solves: about 15 s
    ],
)
def test_milp_and_maxsat_count_by_blocking_as_cpsat_and_sat_count(backend, n):
    counted = ql.count(n, problem="domination", backend=backend)
    for reference in ("cpsat", "sat"):
        expected = ql.count(n, problem="domination", backend=reference)
        assert (counted.total, counted.optimum) == (expected.total, expected.optimum)


@pytest.mark.parametrize("backend", ["milp", "maxsat"])
def test_milp_and_maxsat_enumerate_each_answer_once(backend):
    with ql.enumerate_solutions(4, problem="independent-domination", backend=backend) as found:
        answers = [tuple(map(tuple, answer)) for answer in found]
    assert len(answers) == len(set(answers)) == 16


def test_the_model_names_what_values_break():
    model = BoolModel("m")
    a, b = model.var("a", answer=True), model.var("b", answer=True)
    model.clause(a + 1, -(b + 1))
    model.add_linear([(1, a), (1, b)], lower=1, upper=1)
    assert model.violations([True, False]) == []
    assert model.violations([False, True]) == ["clause 0 (a or not b)"]
    assert model.violations([True, True]) == ["linear constraint 0 (1 <= 1*a + 1*b <= 1) is 2"]
    assert model.violations([True]) == ["1 values for 2 variables"]
