"""What a 0-1 translator answers, the same for every paradigm.

``status``: ``optimal`` only with a proof; ``feasible`` when a limit came first, with the
best answer found and the best bound proven; ``infeasible`` proven; ``limit`` when no
answer came before the limit (the bound, if any, is still proven); ``unknown`` when the
solver failed, with its own words in ``message`` (a failure is never read as a limit).
The statistics of the solve go into the run's record (``Run.stats``, in the shared
vocabulary of ``core.stats``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from queenslab.core.model import BoolModel, Sense, Var
from queenslab.core.result import Status

#: How a translator tells what it finds while it searches (an anytime search): the values
#: of a better answer (None: only the bound improved) and the best bound proven (None:
#: none yet); improvements only, in order.
Tell = Callable[[Sequence[bool] | None, int | None], None]


def tell_nothing(_values: Sequence[bool] | None, _bound: int | None) -> None:
    """The ``Tell`` of a caller that only wants the outcome."""


class Improvements:
    """A ``Tell`` that passes on to ``tell`` only what improves on what it passed before:
    a solver's callbacks repeat themselves (HiGHS's bound at every node) and may report an
    answer no better than the last (RC2's oracle, answering a core's question)."""

    def __init__(self, model: BoolModel, tell: Tell) -> None:
        self.model, self.tell = model, tell
        #: The best answer passed on (its values and its value) and the best bound.
        self.best: Sequence[bool] = ()
        self.value: int | None = None
        self.bound: int | None = None

    def __call__(self, values: Sequence[bool] | None, bound: int | None) -> None:
        sense = self.model.sense
        moved = bound is not None and (self.bound is None or sense.tighter(bound, self.bound))
        if moved:
            self.bound = bound
        if values is not None:
            value = self.model.value(values)
            if self.value is None or sense.better(value, self.value):
                self.best, self.value = values, value
                self.tell(values, self.bound)
                return
        if moved:
            self.tell(None, self.bound)


@dataclass(frozen=True)
class Outcome:
    status: Status
    #: A value per variable of the model, for the best answer found (None: no answer).
    values: tuple[bool, ...] | None = None
    objective: int | None = None
    #: The best proven bound on the objective: a lower bound when minimising, an upper
    #: bound when maximising; equal to ``objective`` when optimal.
    bound: int | None = None
    message: str = ""


@dataclass(frozen=True)
class Start:
    """A checked answer a search begins from (``core.warm_start``): the values of the
    model's answer variables that give it (``ProblemKind.encode``) and its value.

    A translator takes it as a hint (CP-SAT: it finds the start or better) or as a cutoff
    (``cutoff``: it searches only below the start's value, so "infeasible" proves the start
    optimal); either way the start is the incumbent until something better comes."""

    values: Mapping[Var, bool]
    value: int

    def cutoff(self, model: BoolModel) -> BoolModel:
        """``model`` whose answers are strictly better than the start."""
        if model.sense is Sense.MIN:
            beyond = model.objective_rows(None, self.value - 1)
        else:
            beyond = model.objective_rows(self.value + 1, None)
        return replace(model, linear=[*model.linear, *beyond])


def found(
    model: BoolModel, values: Sequence[bool], proven: bool, bound: int | None = None
) -> Outcome:
    """The outcome of an answer: its objective computed from ``values``, never taken from
    the solver; ``proven``: optimal (the bound is then the objective)."""
    values = tuple(bool(v) for v in values)
    objective = model.value(values)
    if proven:
        return Outcome(Status.OPTIMAL, values, objective, objective)
    return Outcome(Status.FEASIBLE, values, objective, bound)


def integral_bound(model: BoolModel, bound: float | None) -> int | None:
    """A solver's bound as an integer (objectives have integer coefficients): rounded up
    when minimising, down when maximising; None when the solver proved no finite bound."""
    if bound is None or not math.isfinite(bound):
        return None
    slack = 1e-6  # float noise of LP bounds
    if model.sense is Sense.MIN:
        return math.ceil(bound - slack)
    return math.floor(bound + slack)
