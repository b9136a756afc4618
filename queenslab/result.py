"""What a backend answers: a status kept apart from the placement, counts, optima."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from queenslab.placement import Placement


class Status(StrEnum):
    """Outcome of a search. Only complete methods may say INFEASIBLE."""

    SOLVED = "solved"  # a valid placement was found
    OPTIMAL = "optimal"  # a placement proven best for the objective (optimize)
    INFEASIBLE = "infeasible"  # proven: no placement exists
    LIMIT = "limit"  # a time or node limit ended the search before an answer
    UNKNOWN = "unknown"  # an incomplete method gave up without proof

    @property
    def exit_code(self) -> int:
        """The CLI contract: 0 answer, 1 proven no answer, 3 limit (or gave up)."""
        return {Status.SOLVED: 0, Status.OPTIMAL: 0, Status.INFEASIBLE: 1}.get(self, 3)


@dataclass
class SolveResult:
    status: Status
    placement: Placement | None = None
    n: int = 0
    backend: str = ""
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return _board_record(self)


@dataclass
class CountResult:
    """A count; ``total`` is None when a limit stopped the count (status LIMIT)."""

    total: int | None
    unique: int | None = None
    n: int = 0
    backend: str = ""
    seconds: float = 0.0
    status: Status = Status.SOLVED
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "backend": self.backend,
            "total": self.total,
            "unique": self.unique,
            "seconds": round(self.seconds, 6),
        }


@dataclass
class OptimizeResult:
    """Best total weight of occupied cells; ``placement`` achieves ``objective``."""

    status: Status
    objective: int | None = None
    placement: Placement | None = None
    n: int = 0
    backend: str = ""
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return _board_record(self, objective=self.objective)


def _board_record(result: SolveResult | OptimizeResult, **extra: Any) -> dict[str, Any]:
    """The JSON contract of an answer with a board: ``extra`` goes before ``cols``."""
    return {
        "n": result.n,
        "backend": result.backend,
        "status": str(result.status),
        **extra,
        "cols": None if result.placement is None else result.placement.to_list(),
        "seconds": round(result.seconds, 6),
    }
