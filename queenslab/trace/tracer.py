"""The one tracing hook: a bounded log of search steps that the traced searches write to.

Every traced search calls ``Tracer.emit(kind, **fields)`` and nothing else, so the step
vocabulary below is the whole contract between the searches and the players (JSON lines,
the HTML page, the animated SVG):

- ``place`` / ``remove``: a queen put on / taken off ``row``, ``col`` (row-by-row searches);
- ``reject``: a column tested and found attacked (backtracking tests columns one by one);
- ``move``: queens of ``rows`` moved to ``cols`` (local search), with ``conflicts`` after;
- ``restart``: a fresh start; ``cols`` is the new board (-1 for an empty row);
- ``solution``: ``cols`` is a complete valid board;
- ``end``: the search's last word: ``status`` (solved, exhausted, gave up, step limit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Most steps a trace may record: an HTML page of this many steps still plays smoothly.
MAX_STEPS = 200_000
#: Steps recorded unless asked otherwise.
DEFAULT_STEPS = 20_000


class TraceFull(Exception):
    """Raised inside a search when its tracer has recorded ``max_steps`` steps."""


@dataclass
class Tracer:
    """Collects the steps of one search, up to ``max_steps``."""

    n: int
    method: str
    max_steps: int = DEFAULT_STEPS
    steps: list[dict[str, Any]] = field(default_factory=list)

    def emit(self, kind: str, **fields: Any) -> None:
        if len(self.steps) >= self.max_steps:
            raise TraceFull
        self.steps.append({"step": len(self.steps), "kind": kind, **fields})

    def end(self, status: str, **fields: Any) -> None:
        """The closing step; always recorded, even past ``max_steps``."""
        self.steps.append({"step": len(self.steps), "kind": "end", "status": status, **fields})

    @property
    def truncated(self) -> bool:
        return bool(self.steps) and self.steps[-1].get("status") == LIMIT


#: ``end`` status of a trace cut at ``max_steps``.
LIMIT = "step limit"
