"""The interface every backend implements, and the vocabulary that describes it.

A backend declares, as class attributes, everything the rest of the package needs to know
about it: its name, family, the tasks it does (``Task``: solve, enumerate, count, optimize,
decide)
and the features it honours while doing them (``Feature``: unique counts, given queens,
blocked cells, tree profiles), the board variants and problem kinds it handles (and the
tasks it does on kinds other than placement), the
packages it needs and its options (``Option``: type, default and help, from which the CLI
builds its flags). ``registry.resolve`` reads these to choose and refuse backends.
Its methods receive the ``Problem`` (what to solve) and the ``Run`` (seed, deadline, stop
signal, statistics).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from queenslab.boards import DEFAULT_VARIANT
from queenslab.core.errors import CapabilityError, UsageError
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, DecideResult, OptimizeResult, SolveResult
from queenslab.core.run import Run

if TYPE_CHECKING:
    import numpy as np


class Family(StrEnum):
    MODEL = "model"
    EXACT = "exact"
    HEURISTIC = "heuristic"


class Task(StrEnum):
    """What a call asks a backend to do."""

    SOLVE = "solve"
    ENUMERATE = "enumerate"
    COUNT = "count"
    OPTIMIZE = "optimize"  # weighted N-queens, or a problem kind's objective
    DECIDE = "decide"  # a problem kind: is there an answer of a given value or better?


class Feature(StrEnum):
    """What a backend honours while it does a task; a problem or a call may need some."""

    UNIQUE = "unique"  # count up to the board's symmetries
    GIVENS = "givens"  # honours queens placed in advance
    BLOCKED = "blocked"  # honours blocked cells
    PROFILE = "profile"  # counts record the nodes of each depth of the search tree


@dataclass(frozen=True)
class Option:
    """A backend setting, declared once: its CLI flag and help are built from here.

    ``choices`` limits the value to some names; otherwise ``convert`` turns the value (a
    string from the command line, or any Python value from the API) into what the backend
    uses and raises ValueError or TypeError on a bad one.
    """

    name: str
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    convert: Callable[[Any], Any] = str
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def parse(self, backend: str, value: Any) -> Any:
        if self.choices:
            if str(value) not in self.choices:
                raise UsageError(
                    f"unknown {self.name} {value!r} for backend {backend!r}; "
                    f"choose from: {', '.join(self.choices)}"
                )
            return str(value)
        try:
            return self.convert(value)
        except (TypeError, ValueError) as exc:
            raise UsageError(
                f"invalid {self.name} {value!r} for backend {backend!r}: {exc}"
            ) from None


class Backend:
    """Base class: subclasses set the class attributes and override what they support.

    Solver packages and compiled kernels are imported in ``load`` (timed apart from the
    search as ``startup_seconds``) or inside methods, never at module level.
    """

    name: ClassVar[str]
    family: ClassVar[Family]
    tasks: ClassVar[frozenset[Task]]
    features: ClassVar[frozenset[Feature]] = frozenset()
    #: Problem kinds the backend answers (``queenslab.problems``; placement is today's).
    kinds: ClassVar[frozenset[str]] = frozenset({"placement"})
    #: The tasks it does on the kinds other than placement (``optimize_kind``...).
    kind_tasks: ClassVar[frozenset[Task]] = frozenset()
    summary: ClassVar[str] = ""
    #: Board variants the backend searches correctly (see ``queenslab.boards``).
    variants: ClassVar[frozenset[str]] = frozenset({DEFAULT_VARIANT})
    #: Importable modules the backend needs, and the pip package that provides them.
    requires: ClassVar[Mapping[str, str]] = {}
    options: ClassVar[tuple[Option, ...]] = ()
    #: Options that only counting uses: the other commands do not offer them.
    count_options: ClassVar[frozenset[str]] = frozenset()
    #: Options that only the placement problem uses: a run on another kind refuses them.
    placement_options: ClassVar[frozenset[str]] = frozenset()
    #: Whether the run's seed changes what the backend does (else the CLI says it does not).
    uses_seed: ClassVar[bool] = False

    def __init__(self, **settings: Any) -> None:
        declared = {option.name: option for option in self.options}
        self.settings: dict[str, Any] = {o.name: o.default for o in self.options}
        for key, value in settings.items():
            if value is None:
                continue
            if key not in declared:
                known = ", ".join(sorted(declared)) or "none"
                raise UsageError(f"backend {self.name!r} has no option {key!r} (options: {known})")
            self.settings[key] = declared[key].parse(self.name, value)

    @classmethod
    def unavailable(cls) -> str | None:
        """Why the backend cannot run here although its packages are installed (no device,
        say), or None when it can. Asked only once ``requires`` is satisfied."""
        return None

    def load(self) -> None:
        """Import solver packages and compiled kernels before the clock of the search starts."""

    def load_for(self, task: Task, problem: Problem, unique: bool = False) -> None:
        """``load``, narrowed to what ``task`` on ``problem`` needs (start-up is paid per run)."""
        self.load()

    @classmethod
    def ignores(cls, option: str, task: Task, kind: str) -> str | None:
        """Why option ``option`` would do nothing in ``task`` on ``kind`` ("only when
        counting"), or None when it is used: an ignored option is refused, not dropped."""
        if option in cls.count_options and task is not Task.COUNT:
            return "only when counting"
        if option in cls.placement_options and kind != "placement":
            return "only on the placement problem"
        return None

    @classmethod
    def does(cls, task: Task, kind: str) -> bool:
        """Whether the backend does ``task`` on problem kind ``kind``."""
        if kind == "placement":
            return task in cls.tasks and kind in cls.kinds
        return task in cls.kind_tasks and kind in cls.kinds

    # Each capability raises unless the subclass provides it.
    def solve(self, problem: Problem, run: Run) -> SolveResult:
        raise self.lacks(Task.SOLVE)

    def enumerate(self, problem: Problem, run: Run) -> Iterator[Placement]:
        raise self.lacks(Task.ENUMERATE)

    def count(self, problem: Problem, run: Run, unique: bool = False) -> CountResult:
        raise self.lacks(Task.COUNT)

    def optimize(self, problem: Problem, run: Run, weights: np.ndarray) -> OptimizeResult:
        raise self.lacks(Task.OPTIMIZE)

    # The other problem kinds (``queenslab.problems``). ``question`` is a
    # ``problems.Question``: the kind (with its weights), its model and symmetry breaking.
    # Answers are the kind's own (a set of cells...); the api checks each with the kind's
    # checker, never with the model that produced it.
    def optimize_kind(self, problem: Problem, run: Run, question: Any) -> OptimizeResult:
        """The optimum of ``question`` on the board, its answer and bound in the result."""
        raise self.lacks(Task.OPTIMIZE, problem.kind)

    def count_kind(self, problem: Problem, run: Run, question: Any) -> CountResult:
        """How many answers reach the optimum (the optimum in ``CountResult.optimum``)."""
        raise self.lacks(Task.COUNT, problem.kind)

    def enumerate_kind(self, problem: Problem, run: Run, question: Any) -> Iterator[Any]:
        """Every optimal answer once: the optimum is proven before the first."""
        raise self.lacks(Task.ENUMERATE, problem.kind)

    def decide_kind(
        self, problem: Problem, run: Run, question: Any, value: int, proof: str | None = None
    ) -> DecideResult:
        """An answer of value ``value`` or better (yes), or a proof that none exists (no);
        ``proof``: a folder for the solver's proof, checked before the result says so."""
        raise self.lacks(Task.DECIDE, problem.kind)

    @classmethod
    def lacks(cls, task: Task, kind: str = "placement") -> CapabilityError:
        """The error for a task this backend does not do, naming the ones it does."""
        able = [t for t in Task if cls.does(t, kind)]
        what = "" if kind == "placement" else f" the {kind} problem"
        return CapabilityError(
            f"backend {cls.name!r} cannot {task}{what} (it can: {', '.join(able) or 'none'})"
        )


def default_workers() -> int:
    """The cores this process may run on: the default for every ``workers`` option."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def non_negative_int(value: Any) -> int:
    """Option converter for whole numbers from 0: ASCII digits only (no "８", no "1e3")."""
    if isinstance(value, str) and not (value.isascii() and value.strip().isdigit()):
        raise ValueError("must be a whole number written with the digits 0-9")
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError("must be a whole number")
    number = int(value)
    if number < 0:
        raise ValueError("must be at least 0")
    return number


def positive_int(value: Any) -> int:
    """Option converter for counts such as ``workers``: a whole number from 1."""
    number = non_negative_int(value)
    if number < 1:
        raise ValueError("must be at least 1")
    return number


def workers_option(default: int | None = None, help: str = "parallel workers") -> Option:
    """The ``workers`` option every parallel backend shares."""
    return Option("workers", help, default or default_workers(), convert=positive_int, metavar="K")


def options_table(backends: Mapping[str, type[Backend]]) -> dict[str, list[tuple[str, Option]]]:
    """Each option name -> the backends declaring it, with their declarations."""
    table: dict[str, list[tuple[str, Option]]] = {}
    for name, cls in backends.items():
        for option in cls.options:
            table.setdefault(option.name, []).append((name, option))
    return table
