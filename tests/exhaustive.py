"""A 0-1 translator written outside the package, as a plug-in would write one: an
exhaustive search over every variable of a small ``BoolModel``, registered by
tests/unit/test_translators.py with ``register_translator`` and run as a backend.

Depth first over the variables in order, false before true; a branch ends once a
constraint can no longer hold whatever the variables left take (a clause is the row
"at least one of its literals"). Optimising goes on below the best value found (a row on
the objective that tightens with each answer), so the last answer is optimal once the
search is over; every answer is visited otherwise, so its counts need no solver at all.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from queenslab.core.errors import LimitReached
from queenslab.core.model import BoolModel, Linear, Sense
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models.zero_one.outcome import Outcome, Start, Tell, found, tell_nothing

#: Nodes between two looks at the run's ``should_stop``.
CHECK_EVERY = 1000


class Search:
    """The answers of ``model``, each a value per variable, in the search's order."""

    def __init__(self, model: BoolModel, run: Run) -> None:
        self.model, self.run = model, run
        self.rows = [*model.linear, *(_as_row(clause) for clause in model.clauses)]
        self.touching: list[list[Linear]] = [[] for _ in range(model.size)]
        for row in self.rows:
            for v in {v for _, v in row.terms}:
                self.touching[v].append(row)
        self.cutoff: Linear | None = None
        self.nodes = 0

    def beyond(self, value: int) -> None:
        """From now on, only answers strictly better than ``value``."""
        if self.model.sense is Sense.MIN:
            self.cutoff = Linear(self.model.objective, upper=value - 1)
        else:
            self.cutoff = Linear(self.model.objective, lower=value + 1)

    def answers(self) -> Iterator[list[bool]]:
        """Every answer (beyond the cutoff as it stands when each is reached);
        LimitReached when the run says stop first."""
        values: list[bool | None] = [None] * self.model.size
        if any(not self._may_hold(row, values) for row in self.rows):
            return  # a row without variables that fails
        yield from self._extend(values, 0)

    def _extend(self, values: list[bool | None], v: int) -> Iterator[list[bool]]:
        if v == len(values):
            if self.cutoff is None or self.cutoff.holds(values):  # type: ignore[arg-type]
                yield [bool(value) for value in values]
            return
        for value in (False, True):
            self.nodes += 1
            if self.nodes % CHECK_EVERY == 0 and self.run.should_stop():
                raise LimitReached
            values[v] = value
            rows = self.touching[v] if self.cutoff is None else [*self.touching[v], self.cutoff]
            if all(self._may_hold(row, values) for row in rows):
                yield from self._extend(values, v + 1)
        values[v] = None

    @staticmethod
    def _may_hold(row: Linear, values: Sequence[bool | None]) -> bool:
        """Whether some values of the unset variables make ``row`` hold."""
        low = high = 0
        for a, v in row.terms:
            value = values[v]
            if value is None:
                low, high = low + min(a, 0), high + max(a, 0)
            elif value:
                low, high = low + a, high + a
        return (row.lower is None or high >= row.lower) and (row.upper is None or low <= row.upper)


def _as_row(clause: tuple[int, ...]) -> Linear:
    """At least one literal true: positives minus negatives at least 1 - (negatives)."""
    terms = tuple((1 if lit > 0 else -1, abs(lit) - 1) for lit in clause)
    return Linear(terms, lower=1 - sum(1 for lit in clause if lit < 0))


class Exhaustive:
    """The ``Translator`` over ``Search``: no settings, no solver."""

    def optimize(
        self,
        model: BoolModel,
        run: Run,
        settings: Mapping[str, Any],
        tell: Tell = tell_nothing,
        start: Start | None = None,
    ) -> Outcome:
        with run.phase("build"):
            search = Search(model, run)
        if start is not None:  # a cutoff: "infeasible" proves the start optimal
            search.beyond(start.value)
        best: list[bool] | None = None
        try:
            for values in search.answers():
                best = values
                if not model.objective:
                    break
                tell(values, None)
                search.beyond(model.value(values))
        except LimitReached:
            return Outcome(Status.LIMIT) if best is None else found(model, best, proven=False)
        finally:
            run.stats.add(nodes=search.nodes)
        return Outcome(Status.INFEASIBLE) if best is None else found(model, best, proven=True)

    def solutions(
        self, model: BoolModel, run: Run, settings: Mapping[str, Any]
    ) -> Iterator[list[bool]]:
        """Each answer once on ``model.answer``: the auxiliary variables may take several
        values under one answer, which the search visits each."""
        seen: set[tuple[bool, ...]] = set()
        for values in Search(model, run).answers():
            key = tuple(values[v] for v in model.answer)
            if key not in seen:
                seen.add(key)
                yield values
