"""Backends by name, and the choice of one for a call: ``resolve(task, problem, ...)``.

Three sources, in this order: the package's own backends (``BUILTIN``, class paths), those
other packages declare in the ``queenslab.backends`` entry-point group, and classes
registered at run time with ``register_backend`` (notebooks). A backend's name is written
once, on its class. Backend modules are cheap to import (solver packages are imported
inside their methods), so the built-in ones are imported together when a name is first
looked up; plug-ins only when asked for. The 0-1 translators a model backend names are
registered alike (``TRANSLATORS``, ``register_translator``: ``models.zero_one.translator``).

``resolve`` is the one place that knows which backend takes which call: the defaults for
each task, the features a problem needs (givens, blocked cells), its variant and kind,
the options the caller set, and the one-line error that names the backends that could.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from queenslab.boards import DEFAULT_VARIANT
from queenslab.core import plugins
from queenslab.core.backend import EVERY_KIND, Backend, Family, Feature, Option, Task
from queenslab.core.errors import BackendUnavailable, UsageError
from queenslab.core.problem import MAX_N, Problem
from queenslab.models.zero_one.translator import TRANSLATORS as TRANSLATORS
from queenslab.models.zero_one.translator import register_translator as register_translator
from queenslab.problems import defaults

#: The package's own backends.
BUILTIN: tuple[str, ...] = (
    "queenslab.exact.backtracking:BacktrackingBackend",
    "queenslab.exact.bitmask:BitmaskBackend",
    "queenslab.exact.csp:CspBackend",
    "queenslab.exact.gpu:GpuBackend",
    "queenslab.exact.armies:ArmiesBackend",
    "queenslab.exact.independent_domination:IndependentDominationBackend",
    "queenslab.models.milp:MilpBackend",
    "queenslab.models.cpsat:CpSatBackend",
    "queenslab.models.sat:SatBackend",
    "queenslab.models.maxsat:MaxSatBackend",
    "queenslab.models.portfolio:PortfolioBackend",
    "queenslab.models.sharpsat:SharpSatBackend",
    "queenslab.heuristics.min_conflicts:MinConflictsBackend",
    "queenslab.heuristics.hill_climbing:HillClimbingBackend",
    "queenslab.heuristics.minton:MintonBackend",
    "queenslab.heuristics.las_vegas:LasVegasBackend",
    "queenslab.heuristics.divide_conquer:DivideConquerBackend",
    "queenslab.heuristics.explicit:ExplicitBackend",
    "queenslab.heuristics.graph_search:GraphSearchBackend",
    "queenslab.exact.pure_python:SmallBackend",
)
ENTRY_POINT_GROUP = "queenslab.backends"

#: Default backends per problem kind and task, best first, each with the largest n it is
#: picked for; ``EVERY_KIND`` for the kinds without a row of their own (and placement asked
#: on its 0-1 model), after which any other backend able to take the call is tried, model
#: backends first.
#: Placement: exact search is instant on small boards and proves infeasibility; past that,
#: local search finds a board fast; CP-SAT takes over where givens or blocked cells need a
#: complete method. Up to n = 12 (11 enumerating) the pure-Python ``small`` search
#: finishes before NumPy and Numba would have loaded, even when it walks the whole tree
#: (benchmarks/startup.py).
#: The other kinds: optimize and decide first try the backend the benchmark measured
#: fastest for the kind and n (``problems.defaults``, ``MEASURED_TASKS``); HiGHS proves
#: domination numbers fast (n = 11: 3 s; sat 43 s), CaDiCaL counts their optima fastest
#: (n = 9: 10 s; cpsat 96 s); a decide is an optimisation's last step.
DEFAULTS: dict[str, dict[Task, list[tuple[str, int]]]] = {
    "placement": {
        Task.SOLVE: [
            ("small", 12),
            ("bitmask", 20),
            ("min-conflicts", MAX_N),
            ("backtrack", MAX_N),
        ],
        Task.ENUMERATE: [("small", 11), ("bitmask", 63), ("backtrack", MAX_N)],
        Task.COUNT: [("small", 12), ("bitmask", 63), ("backtrack", MAX_N)],
        Task.OPTIMIZE: [("bitmask", 16), ("cpsat", MAX_N), ("milp", MAX_N)],
    },
    EVERY_KIND: {
        Task.SOLVE: [("sat", MAX_N), ("cpsat", MAX_N)],
        Task.OPTIMIZE: [("milp", MAX_N), ("cpsat", MAX_N), ("maxsat", MAX_N), ("sat", MAX_N)],
        Task.DECIDE: [("milp", MAX_N), ("cpsat", MAX_N), ("maxsat", MAX_N), ("sat", MAX_N)],
        Task.COUNT: [("sat", MAX_N), ("cpsat", MAX_N)],
        Task.ENUMERATE: [("sat", MAX_N), ("cpsat", MAX_N)],
    },
}
#: The tasks whose default backend is the one measured fastest for the kind and n
#: (``problems.defaults``), before the order above.
MEASURED_TASKS = frozenset({Task.OPTIMIZE, Task.DECIDE})
#: The complete method tried right after the small-board search on a constrained board.
COMPLETE_FALLBACK = "cpsat"


@cache
def _builtin() -> dict[str, type[Backend]]:
    found = {}
    for target in BUILTIN:
        cls = plugins.load(f"backend {target!r}", target, Backend)
        found[cls.name] = cls
    return found


#: Every backend by name: ``BUILTIN``, the entry-point group, ``register_backend``.
BACKENDS = plugins.Registry("backend", Backend, ENTRY_POINT_GROUP, _builtin)
#: Make a backend class known to this process (e.g. from a notebook); a class decorator too.
register_backend = BACKENDS.register


def names() -> list[str]:
    """Every backend name: built-in, then installed plug-ins, then registered ones."""
    return BACKENDS.names()


def backend_class(name: str) -> type[Backend]:
    return BACKENDS.get(name)


@dataclass(frozen=True)
class BackendInfo:
    name: str
    family: Family
    #: Problem kind -> the tasks done on it (``core.backend.EVERY_KIND``: any other kind).
    tasks: Mapping[str, frozenset[Task]]
    features: frozenset[Feature]
    variants: frozenset[str]
    options: tuple[Option, ...]
    summary: str
    missing: tuple[str, ...]  # pip packages to install before it can run
    reason: str | None = None  # why it cannot run though its packages are installed

    @property
    def available(self) -> bool:
        return not self.missing and self.reason is None

    @property
    def why_unavailable(self) -> str:
        """What stands in the way, in a few words ("pip install cupy-cuda12x")."""
        if self.missing:
            return f"pip install {' '.join(self.missing)}"
        return self.reason or ""

    def tasks_on(self, kind: str) -> frozenset[Task]:
        """The tasks done on ``kind``: by a search of the backend's own, or on the kind's
        model (``EVERY_KIND``)."""
        return self.tasks.get(kind, frozenset()) | self.tasks.get(EVERY_KIND, frozenset())

    @property
    def capabilities(self) -> list[str]:
        """Task names (on any kind) and feature names, tasks first, in their declaration
        order (for listings)."""
        done = set().union(*self.tasks.values())
        return [str(t) for t in Task if t in done] + [str(f) for f in Feature if f in self.features]


def info(name: str) -> BackendInfo:
    cls = backend_class(name)
    missing = tuple(
        package
        for module, package in cls.requires.items()
        if importlib.util.find_spec(module) is None
    )
    reason = None if missing else cls.unavailable()
    return BackendInfo(
        name, cls.family, cls.tasks, cls.features, cls.variants, cls.options, cls.summary,
        missing, reason,
    )  # fmt: skip


def backends() -> list[BackendInfo]:
    """Every backend, available or not, in registry order."""
    return [info(name) for name in names()]


def needs(problem: Problem, *, unique: bool = False, profile: bool = False) -> set[Feature]:
    """The features a call on ``problem`` needs of its backend."""
    wanted = set()
    if problem.givens:
        wanted.add(Feature.GIVENS)
    if problem.blocked:
        wanted.add(Feature.BLOCKED)
    if unique:
        wanted.add(Feature.UNIQUE)
    if profile:
        wanted.add(Feature.PROFILE)
    return wanted


def _handles(
    cls: type[Backend], task: Task, problem: Problem, features: set[Feature], native: bool = True
) -> bool:
    return (
        cls.does(task, problem.kind, native)
        and features <= cls.features
        and problem.variant in cls.variants
        and problem.n <= cls.largest_n
    )


def able(
    task: Task, problem: Problem, features: Iterable[Feature] = (), native: bool = True
) -> list[str]:
    """The backends (available or not) that can do ``task`` on ``problem`` with
    ``features`` (``native`` False: on the kind's 0-1 model, so model backends only)."""
    wanted = set(features)
    return [
        name for name in names() if _handles(backend_class(name), task, problem, wanted, native)
    ]


def resolve(
    task: Task,
    problem: Problem,
    name: str | None = None,
    options: Mapping[str, Any] | None = None,
    features: Iterable[Feature] = (),
    native: bool = True,
) -> Backend:
    """The backend for this call, ready to run, or a one-line error before any search.

    ``name`` None picks the fastest sensible available backend for the task and board
    among those that take every one of ``options`` (``--workers 2`` passes over the
    one-thread ones). ``features`` are what the call asks beyond the problem's own needs;
    ``native`` False: the kind's 0-1 model was asked for, which only model backends build.
    """
    options = dict(options or {})
    wanted = needs(problem) | set(features)
    chosen = name or _default(task, problem, wanted, set(options), native)
    cls = backend_class(chosen)
    # The question first (a kind the backend does not model), then the task, then the board
    if not native and EVERY_KIND not in cls.tasks:
        raise UsageError(
            f"backend {chosen!r} builds no model: --model, --symmetry and --axioms none are "
            "for the model backends (family model in `queens backends`)"
        )
    if cls.takes(problem.kind) and not cls.does(task, problem.kind, native):
        raise cls.lacks(task, problem.kind)
    refusal = _refusal(cls, problem, wanted)
    if refusal:
        could = able(task, problem, wanted, native)
        raise UsageError(f"backend {chosen!r} {refusal}; backends that do: {_list(could)}")
    for option in options:
        unused = cls.ignores(option, task, cls.searches_itself(task, problem.kind, native))
        if unused is not None and options[option] is not None:
            raise UsageError(f"backend {chosen!r} uses option {option!r} {unused}")
    details = info(chosen)
    if details.missing:
        missing = details.missing
        raise BackendUnavailable(
            f"backend {chosen!r} needs {', '.join(missing)}: pip install {' '.join(missing)}"
        )
    if details.reason is not None:
        raise BackendUnavailable(f"backend {chosen!r} cannot run here: {details.reason}")
    return cls(**options)


_FEATURES = {
    Feature.GIVENS: "given queens",
    Feature.BLOCKED: "blocked cells",
    Feature.UNIQUE: "unique counts",
    Feature.PROFILE: "tree profiles",
}


def _refusal(cls: type[Backend], problem: Problem, wanted: set[Feature]) -> str | None:
    """Why ``cls`` cannot take this problem, or None."""
    if not cls.takes(problem.kind):
        return f"does not model the {problem.kind} problem"
    if problem.variant not in cls.variants:
        return f"does not handle the {problem.variant} board"
    if problem.n > cls.largest_n:
        return f"takes n <= {cls.largest_n}, not {problem.n}"
    lacking = sorted(wanted - cls.features)
    if lacking:
        return f"does not support {', '.join(_FEATURES[f] for f in lacking)}"
    return None


def _default(
    task: Task, problem: Problem, wanted: set[Feature], options: set[str], native: bool
) -> str:
    table = DEFAULTS.get(problem.kind) if native else None
    rows = (table or DEFAULTS[EVERY_KIND]).get(task, [])
    choices = [name for name, largest in rows if problem.n <= largest]
    # A model or symmetry asked for too (``native`` False): the measured fastest backend
    # still goes first when it builds models, before milp, which proved the least
    fastest = defaults.best_backend(problem) if task in MEASURED_TASKS else None
    if fastest is not None:
        choices.insert(0, fastest)
    if table is not None and wanted & {Feature.GIVENS, Feature.BLOCKED}:
        # Local search cannot prove that a constrained board has no solution: complete
        # methods first, CP-SAT right after the small-board exact search.
        choices.insert(1, COMPLETE_FALLBACK)
        choices.sort(key=lambda name: backend_class(name).family == Family.HEURISTIC)
    could = able(task, problem, wanted, native)
    if table is None:  # then any other backend able to, model backends first
        rest = [name for name in could if name not in choices]
        choices += sorted(rest, key=lambda name: backend_class(name).family != Family.MODEL)

    def takes(cls: type[Backend], asked: set[str] = options) -> bool:
        return all(uses(cls, option, task, problem.kind, native) for option in asked)

    for name in choices:
        cls = backend_class(name)
        if takes(cls) and info(name).available and _handles(cls, task, problem, wanted, native):
            return name
    if options and could:
        for option in sorted(options):
            if not any(takes(backend_class(name), {option}) for name in could):
                raise UsageError(_serves(option, task, problem.kind))
        named = [name for name in could if takes(backend_class(name))]
        raise UsageError(
            f"no default backend takes {', '.join(sorted(options))}; name one with --backend: "
            + (", ".join(named) or "none takes them all")
        )
    if not able(task, replace(problem, variant=DEFAULT_VARIANT, blocked=(), givens=())):
        raise UsageError(f"no backend can {task} the {problem.kind} problem")
    lacking = wanted - {Feature.GIVENS, Feature.BLOCKED}
    if lacking and not could and able(task, problem, (), native):
        hint = "; count classes with --symmetry lex-leader" if Feature.UNIQUE in lacking else ""
        raise UsageError(
            f"no backend supports {', '.join(_FEATURES[f] for f in sorted(lacking))} on the "
            f"{problem.kind} problem{hint}"
        )
    raise UsageError(
        f"no installed backend can {task} this board ({problem.describe()})"
        + (f"; backends that could: {', '.join(could)}" if could else "")
    )


def uses(cls: type[Backend], option: str, task: Task, kind: str, native: bool = True) -> bool:
    """Whether ``cls`` declares ``option`` and uses it in ``task`` on ``kind`` (``native``:
    no model was asked for, so it may search its own way)."""
    declared = any(o.name == option for o in cls.options)
    own = cls.searches_itself(task, kind, native)
    return declared and cls.ignores(option, task, own) is None


_DOING = {
    Task.SOLVE: "solving",
    Task.ENUMERATE: "enumerating",
    Task.COUNT: "counting",
    Task.OPTIMIZE: "optimizing",
    Task.DECIDE: "deciding",
}


def _serves(option: str, task: Task, kind: str) -> str:
    """Why no backend able to do this run takes ``option``, from its backends' declarations:
    "option 'checkpoint' is only for counting placement (bitmask, gpu), not for counting
    domination"; tasks that serve the same kinds are named together."""
    users: list[str] = []
    kinds_of: dict[Task, set[str]] = {}
    for name in names():
        cls = backend_class(name)
        served = [(t, k) for k, tasks in cls.tasks.items() for t in tasks]
        served = [(t, k) for t, k in served if uses(cls, option, t, k, k != EVERY_KIND)]
        if served:
            users.append(name)
            for t, k in served:
                kinds_of.setdefault(t, set()).add("any problem" if k == EVERY_KIND else k)
    if not users:
        return f"no backend has an option {option!r}"
    groups: dict[tuple[str, ...], list[str]] = {}
    for t in Task:
        if t in kinds_of:
            groups.setdefault(tuple(sorted(kinds_of[t])), []).append(_DOING[t])
    doing = "; ".join(f"{', '.join(ts)} {' or '.join(ks)}" for ks, ts in groups.items())
    return f"option {option!r} is only for {doing} ({_list(users)}), not for {_DOING[task]} {kind}"


def _list(found: list[str]) -> str:
    return ", ".join(found) or "none"
