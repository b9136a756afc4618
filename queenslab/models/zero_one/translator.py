"""What a 0-1 translator is, and every translator by name: the built-in paradigms and
those a plug-in adds, found one way.

A translator turns a ``BoolModel`` into one solver's form and solves it (``Translator``).
``KindModels`` (``backend``) asks it for every task on every kind: solve and decide are
``optimize`` on the model without an objective or bounded at the value asked, counting
and enumerating are ``solutions`` on the model fixed at the optimum. So a paradigm
written outside the package, ``register_translator("name", translator)`` (or an entry in
the ``queenslab.translators`` entry-point group, "module" or "module:attribute"), is a
backend in one line: a ``KindModels`` subclass naming it (docs/api.md).

The built-in ones are declared as a plug-in declares its entry point (``BUILTIN``) and
loaded and checked by the same code (``core.plugins``): a module is a translator when it
has the Protocol's members, as ``cpsat``, ``sat``, ``milp`` and ``maxsat`` do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any, Protocol, runtime_checkable

from queenslab.core import plugins
from queenslab.core.errors import LimitReached, Undecided
from queenslab.core.model import BoolModel
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models.zero_one.outcome import Outcome, Start, Tell

#: The package's own translators, declared as an entry point declares one.
BUILTIN: dict[str, str] = {
    "cpsat": "queenslab.models.zero_one.cpsat",
    "sat": "queenslab.models.zero_one.sat",
    "milp": "queenslab.models.zero_one.milp",
    "maxsat": "queenslab.models.zero_one.maxsat",
}
ENTRY_POINT_GROUP = "queenslab.translators"

#: A translator's ``solutions``: the values of every answer of a model without objective.
Solutions = Callable[[BoolModel, Run, Mapping[str, Any]], Iterator[Sequence[bool]]]


@runtime_checkable
class Translator(Protocol):
    """One solver family's side of every task on every kind (a module or an object).

    ``settings`` are the backend's option values (``Backend.settings``: ``workers``,
    ``solver``, ``encoding``, a plug-in's own). Every value a translator returns is a
    value per variable of the model it was given, numbered as in it; ``KindModels``
    evaluates them against that model (``BoolModel.violations``), and values that break
    it are the translator's bug (``BackendBug`` naming it), before the kind reads them.

    Building: the solver's own model is built inside each call, timed in
    ``run.phase("build")``, its size added to ``run.stats`` with the solve's statistics.

    Stopping: the ``Run`` carries the one deadline and stop signal of the call; a
    translator looks at ``run.should_stop()`` (or passes ``run.remaining()`` to its
    solver) while it builds and solves, and answers a stop as a limit, never as an
    error. ``KindModels`` runs ``optimize`` in a forked child that the parent ends at the
    deadline too, so a solver that cannot be asked still stops.
    """

    def optimize(
        self,
        model: BoolModel,
        run: Run,
        settings: Mapping[str, Any],
        tell: Tell = ...,
        start: Start | None = None,
    ) -> Outcome:
        """The model's optimum, proven, or what a limit left (``Outcome``); on a model
        without an objective, any answer (solve, and decide: the model bounded at the
        value). ``tell`` hears each better answer and bound as they come (an anytime
        search; telling nothing is allowed); ``start`` is a checked answer to begin from,
        as a hint or as a cutoff (``Start.cutoff``)."""
        ...

    #: Every answer of a model without an objective, once each on ``model.answer`` (the
    #: auxiliary variables projected away), as values per variable; LimitReached when the
    #: run stops first. Counting and enumerating stream it. A paradigm without its own
    #: enumeration blocks each answer found (``by_blocking``); None declares that it
    #: cannot enumerate, and counting and enumerating are refused in one line.
    solutions: Solutions | None


def by_blocking(
    optimize: Callable[..., Outcome],
    model: BoolModel,
    run: Run,
    settings: Mapping[str, Any],
) -> Iterator[list[bool]]:
    """Every answer of ``model`` (no objective) through ``optimize`` alone: each one found
    is excluded by a no-good over ``model.answer`` only, until none is left.

    Sound for any complete ``optimize``: a no-good over the answer variables removes
    exactly the answer found (however its auxiliary variables were set: blocking every
    variable would count one answer once per setting of them), and "infeasible" then
    proves that no other answer is left. Each call solves the model anew, with its
    no-goods as clauses. LimitReached when the run stops first; Undecided when the solver
    fails (never taken for a limit).
    """
    blocked: list[tuple[int, ...]] = []
    while True:
        outcome = optimize(replace(model, clauses=[*model.clauses, *blocked]), run, settings)
        if outcome.values is not None:
            values = list(outcome.values)
            yield values
            blocked.append(tuple(-(v + 1) if values[v] else v + 1 for v in model.answer))
        elif outcome.status is Status.INFEASIBLE:
            return
        elif outcome.status is Status.LIMIT:
            raise LimitReached
        else:
            raise Undecided(outcome.message or f"the solver ended {outcome.status}")


@cache
def _builtin() -> dict[str, Translator]:
    return {
        name: plugins.load(f"translator {name!r}", target, Translator, instance=True)
        for name, target in BUILTIN.items()
    }


#: Every translator by name: ``BUILTIN``, the entry-point group, ``register_translator``.
TRANSLATORS: plugins.Registry[Translator] = plugins.Registry(
    "translator", Translator, ENTRY_POINT_GROUP, _builtin, instances=True
)


def register_translator(name: str, translator: Translator) -> Translator:
    """Make ``translator`` known to this process as ``name``: a backend that names it
    (``KindModels.translator``) solves every kind through it. Returns it."""
    return TRANSLATORS.register(translator, name)
