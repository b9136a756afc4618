"""What a backend answers: a status kept apart from the placement, counts, optima.

Every result carries the statistics of its run (``stats``, in the shared vocabulary of
``queenslab.core.stats``) and ``seconds``, the time of building plus searching; imports and
compiled-kernel loading are reported apart as ``stats["startup_seconds"]``.
``cpu_seconds`` is the CPU time of the whole call, worker processes included: on a shared
machine wall seconds measure the load as much as the work.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from queenslab.core.errors import ExitCode
from queenslab.core.placement import Placement

if TYPE_CHECKING:
    from queenslab.core.model import Assumption
    from queenslab.core.problem import Problem
    from queenslab.core.run import News


class Status(StrEnum):
    """Outcome of a search. Only complete methods may say INFEASIBLE (or NO)."""

    SOLVED = "solved"  # a valid placement was found
    OPTIMAL = "optimal"  # a placement proven best for the objective (optimize)
    FEASIBLE = "feasible"  # optimize stopped at a limit with a board not proven best
    INFEASIBLE = "infeasible"  # proven: no placement exists
    LIMIT = "limit"  # a time or CPU limit ended the search before an answer
    INTERRUPTED = "interrupted"  # Ctrl-C or SIGTERM ended it before an answer
    UNKNOWN = "unknown"  # an incomplete method gave up without proof
    YES = "yes"  # decide: an answer of the asked value exists (the answer shows it)
    NO = "no"  # decide: proven that no answer of the asked value exists

    @property
    def exit_code(self) -> ExitCode:
        """The CLI contract: an answer, a proven no answer, or a limit (or gave up)."""
        if self in (Status.SOLVED, Status.OPTIMAL, Status.YES):
            return ExitCode.OK
        if self in (Status.INFEASIBLE, Status.NO):
            return ExitCode.NO_SOLUTION
        if self is Status.INTERRUPTED:
            return ExitCode.INTERRUPTED
        return ExitCode.LIMIT


@dataclass
class _Answer:
    """Fields every result shares; the api fills n, variant, backend and seconds."""

    n: int = field(default=0, kw_only=True)
    variant: str = field(default="standard", kw_only=True)
    backend: str = field(default="", kw_only=True)
    seconds: float = field(default=0.0, kw_only=True)
    cpu_seconds: float = field(default=0.0, kw_only=True)
    stats: Mapping[str, Any] = field(default_factory=dict, kw_only=True)
    #: The problem answered (givens, blocked cells), so drawings can mark them.
    problem: Problem | None = field(default=None, kw_only=True, repr=False, compare=False)

    def freeze(self) -> None:
        """Made read-only once the api returns it: checked results are not edited after the
        checks (``stats`` becomes a read-only mapping too)."""
        object.__setattr__(self, "stats", MappingProxyType(dict(self.stats)))
        object.__setattr__(self, "_frozen", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_frozen"):
            raise FrozenInstanceError(f"a returned result is read-only: cannot set {name!r}")
        super().__setattr__(name, value)

    def _record(self, **fields: Any) -> dict[str, Any]:
        return {
            "n": self.n,
            "variant": self.variant,
            "backend": self.backend,
            **fields,
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
            "stats": {k: round(v, 6) if isinstance(v, float) else v for k, v in self.stats.items()},
        }


@dataclass
class SolveResult(_Answer):
    """One answer of the kind (for placement a ``Placement``), or why there is none."""

    status: Status
    answer: Any = None

    @property
    def placement(self) -> Placement | None:
        return _placement(self.answer)

    def to_json(self, with_cols: bool = True) -> dict[str, Any]:
        """The JSON record; ``with_cols=False`` leaves ``cols`` None for a streaming writer.
        Another kind's answer is its JSON data, under ``answer``, with the kind's name."""
        kind = self.problem.kind if self.problem is not None else "placement"
        if kind != "placement":
            return self._record(problem=kind, status=str(self.status), answer=self.answer)
        return self._record(status=str(self.status), cols=_cols(self.placement, with_cols))


@dataclass
class CountResult(_Answer):
    """A count; ``total`` is None when a limit or Ctrl-C stopped the count (status LIMIT),
    and ``lower_bound`` then says how many answers it had found: the total is at least that.

    For a problem kind other than placement (``kind``), ``total`` counts the optimal
    answers (or their classes, with symmetry breaking) and ``optimum`` is their value.
    """

    total: int | None
    unique: int | None = None
    status: Status = Status.SOLVED
    kind: str = "placement"
    optimum: int | None = None
    lower_bound: int | None = None

    def to_json(self) -> dict[str, Any]:
        stopped = {} if self.lower_bound is None else {"lower_bound": self.lower_bound}
        if self.kind == "placement":
            return self._record(
                status=str(self.status), total=self.total, unique=self.unique, **stopped
            )
        return self._record(
            problem=self.kind, status=str(self.status), optimum=self.optimum, total=self.total,
            **stopped,
        )  # fmt: skip


@dataclass
class OptimizeResult(_Answer):
    """The optimum of problem kind ``kind``: ``objective`` is the value of ``answer``, the
    certificate as JSON data (the kind's ``to_json``: queens' cells...; for weighted
    placement the ``Placement``), checked by the kind's own checker; ``bound`` is the best
    proven bound on the optimum (a lower bound when minimising), equal to ``objective``
    when optimal. ``message`` carries a solver's own words when it failed (status unknown).
    """

    status: Status
    objective: int | None = None
    answer: Any = None
    kind: str = "placement"
    bound: int | None = None
    message: str = ""

    @property
    def placement(self) -> Placement | None:
        return _placement(self.answer)

    @classmethod
    def of_news(cls, news: News, kind: str, empty: Status = Status.LIMIT) -> OptimizeResult:
        """What a stopped anytime search leaves: its best answer (``feasible``) with the
        best bound proven, or ``empty`` (``limit``, or ``interrupted`` after a signal; with
        the bound, if any) when it found none."""
        if news.answer is None:
            return cls(empty, kind=kind, bound=news.bound)
        return cls(Status.FEASIBLE, news.objective, kind=kind, answer=news.answer, bound=news.bound)

    @property
    def gap(self) -> int | None:
        """How far ``objective`` may be from the optimum (0 when proven optimal)."""
        if self.objective is None or self.bound is None:
            return None
        return abs(self.objective - self.bound)

    def to_json(self, with_cols: bool = True) -> dict[str, Any]:
        if self.kind == "placement":
            return self._record(
                status=str(self.status),
                objective=self.objective,
                cols=_cols(self.placement, with_cols),
            )
        return self._record(
            problem=self.kind,
            status=str(self.status),
            objective=self.objective,
            bound=self.bound,
            gap=self.gap,
            answer=self.answer,
            **({"message": self.message} if self.message else {}),
        )


@dataclass
class DecideResult(_Answer):
    """Whether problem kind ``kind`` has an answer of value ``value`` or better (at most
    ``value`` when minimising, at least when maximising).

    ``yes`` carries ``answer`` (JSON data, checked by the kind's own checker) and its
    ``objective``; ``no`` is the solver's proof, its effort in ``stats``; ``proof`` is
    ``"checked"`` only once the project's own checker has accepted the solver's proof
    (``--proof DIR``), and names the folder it lies in (``proof_dir``). ``assumptions``
    are the facts the formula stated beyond the board's rules (``core.model.Assumption``):
    a no, and its proof, hold for the board only given them; None when no formula was
    built (a backend's own search).
    """

    status: Status
    kind: str = ""
    value: int = 0
    answer: Any = None
    objective: int | None = None
    proof: str | None = None
    proof_dir: str | None = None
    message: str = ""
    assumptions: tuple[Assumption, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record; a no carries ``assumptions`` (a list of records, null without a
        formula)."""
        said = [a.to_json() for a in self.assumptions] if self.assumptions is not None else None
        return self._record(
            problem=self.kind,
            value=self.value,
            status=str(self.status),
            objective=self.objective,
            answer=self.answer,
            **({"assumptions": said} if self.status is Status.NO else {}),
            **({"proof": self.proof, "proof_dir": self.proof_dir} if self.proof else {}),
            **({"message": self.message} if self.message else {}),
        )


def _placement(answer: Any) -> Placement | None:
    """The answer when it is a placement (the placement kind's answers are)."""
    return answer if isinstance(answer, Placement) else None


def _cols(placement: Placement | None, wanted: bool) -> list[int] | None:
    return placement.to_list() if placement is not None and wanted else None
