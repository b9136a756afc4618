"""The interface every backend implements, and the vocabulary that describes it.

A backend declares, as class attributes, everything the rest of the package needs to know
about it: its name, family, the tasks it does on each problem kind (``Task``: solve,
enumerate, count, optimize, decide; ``EVERY_KIND`` for any kind that states a 0-1 model,
built-in or a user's), the features it honours while doing them (``Feature``: unique
counts, given queens, blocked cells, tree profiles), the board variants it handles, the
packages it needs and its options (``Option``: type, default and help, from which the CLI
builds its flags). ``registry.resolve`` reads these to choose and refuse backends.
It has one method per task, each receiving the ``Problem`` (the board), the ``Run``
(seed, deadline, stop signal, statistics) and the ``Question`` (the kind with its weights
and givens, the model and symmetry breaking asked for).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from queenslab.boards import DEFAULT_VARIANT
from queenslab.core.errors import CapabilityError, LimitReached, UsageError
from queenslab.core.integers import cores
from queenslab.core.kind import Question
from queenslab.core.problem import MAX_N, Problem
from queenslab.core.result import CountResult, DecideResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import Run

#: In ``Backend.tasks``, the tasks done on every kind not named there: a model backend
#: solves any kind's 0-1 model, including kinds registered after it was imported.
EVERY_KIND = "*"


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
    #: Problem kind -> the tasks the backend does on it with a search of its own;
    #: ``EVERY_KIND`` -> those it does on any kind's 0-1 model (``Question.build``).
    tasks: ClassVar[Mapping[str, frozenset[Task]]]
    features: ClassVar[frozenset[Feature]] = frozenset()
    summary: ClassVar[str] = ""
    #: Board variants the backend searches correctly (see ``queenslab.boards``).
    variants: ClassVar[frozenset[str]] = frozenset({DEFAULT_VARIANT})
    #: The largest n the backend takes: a larger board is refused when it is named and
    #: passed over when a default is chosen.
    largest_n: ClassVar[int] = MAX_N
    #: Importable modules the backend needs, and the pip package that provides them.
    requires: ClassVar[Mapping[str, str]] = {}
    options: ClassVar[tuple[Option, ...]] = ()
    #: Options that only counting uses: the other commands do not offer them.
    count_options: ClassVar[frozenset[str]] = frozenset()
    #: Options that only the backend's own searches use (``searches_itself``): a run on a
    #: kind's 0-1 model refuses them.
    native_options: ClassVar[frozenset[str]] = frozenset()
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

    def load_for(self, task: Task, problem: Problem, question: Question) -> None:
        """``load``, narrowed to what ``task`` on ``problem`` needs (start-up is paid per run)."""
        self.load()

    @classmethod
    def ignores(cls, option: str, task: Task, own: bool) -> str | None:
        """Why option ``option`` would do nothing in ``task`` (``own``: answered by the
        backend's own search, not a kind's 0-1 model), e.g. "only when counting", or None
        when it is used: an ignored option is refused, not dropped."""
        if option in cls.count_options and task is not Task.COUNT:
            return "only when counting"
        if option in cls.native_options and not own:
            kinds = " or ".join(kind for kind in cls.tasks if kind != EVERY_KIND)
            return f"only in its own search of {kinds}, not on a problem's 0-1 model"
        return None

    @classmethod
    def searches_itself(cls, task: Task, kind: str, native: bool = True) -> bool:
        """Whether ``task`` on ``kind`` is answered by a search of the backend's own rather
        than the kind's 0-1 model: it has one, and no model was asked for (``native``)."""
        return native and task in cls.tasks.get(kind, frozenset())

    @classmethod
    def does(cls, task: Task, kind: str, native: bool = True) -> bool:
        """Whether the backend does ``task`` on problem kind ``kind``, by its own search or
        on the kind's 0-1 model."""
        return cls.searches_itself(task, kind, native) or task in cls.tasks.get(
            EVERY_KIND, frozenset()
        )

    @classmethod
    def takes(cls, kind: str) -> bool:
        """Whether the backend answers problem kind ``kind`` at all."""
        return kind in cls.tasks or EVERY_KIND in cls.tasks

    # One method per task; each raises unless the subclass provides it. Answers are the
    # kind's own (a Placement, a set of cells...); the api checks each with the kind's
    # checker, never with the model or search that produced it.
    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        """One answer (for placement: any n peaceful queens)."""
        raise self.lacks(Task.SOLVE, question.kind.name)

    def enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Any]:
        """Every optimal answer once (every answer, when there is nothing to optimise)."""
        raise self.lacks(Task.ENUMERATE, question.kind.name)

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        """How many answers reach the optimum (its value in ``CountResult.optimum``); with
        ``question.unique``, how many symmetry classes too."""
        raise self.lacks(Task.COUNT, question.kind.name)

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        """The optimum, its answer and the best bound proven."""
        raise self.lacks(Task.OPTIMIZE, question.kind.name)

    def decide(
        self, problem: Problem, run: Run, question: Question, value: int, proof: str | None = None
    ) -> DecideResult:
        """An answer of value ``value`` or better (yes), or a proof that none exists (no);
        ``proof``: a folder for the solver's proof, checked before the result says so."""
        raise self.lacks(Task.DECIDE, question.kind.name)

    @classmethod
    def lacks(cls, task: Task, kind: str) -> CapabilityError:
        """The error for a task this backend does not do, naming the ones it does."""
        able = [t for t in Task if cls.does(t, kind)]
        return CapabilityError(
            f"backend {cls.name!r} cannot {task} the {kind} problem "
            f"(it can: {', '.join(able) or 'none'})"
        )


def first_solution(stream: Iterator[Any]) -> SolveResult:
    """The first answer of a search's stream as a ``SolveResult`` (infeasible when the
    stream ends empty, limit when the run stopped first); the stream is closed after."""
    try:
        first = next(stream, None)
    except LimitReached:
        return SolveResult(Status.LIMIT)
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # records the search's statistics now
    return SolveResult(Status.INFEASIBLE) if first is None else SolveResult(Status.SOLVED, first)


def default_workers() -> int:
    """The cores this process may run on: the default for every ``workers`` option."""
    return cores()


def non_negative_int(value: Any) -> int:
    """Option converter for whole numbers from 0: ASCII digits only (no "８", no "1e3",
    no spaces)."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
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


def scheduler_option() -> Option:
    """The ``scheduler`` option of the backends whose work runs on a Dask cluster."""
    return Option("scheduler", "Dask scheduler address, e.g. tcp://127.0.0.1:8786", metavar="ADDR")


def options_table(backends: Mapping[str, type[Backend]]) -> dict[str, list[tuple[str, Option]]]:
    """Each option name -> the backends declaring it, with their declarations."""
    table: dict[str, list[tuple[str, Option]]] = {}
    for name, cls in backends.items():
        for option in cls.options:
            table.setdefault(option.name, []).append((name, option))
    return table
