"""The one tracing hook: a bounded log of search steps that the traced searches write to.

Every traced search calls ``Tracer.emit(kind, **fields)`` and nothing else, so the step
vocabulary below is the whole contract between the searches and the players (JSON lines,
the HTML page, the animated SVG and GIF). Steps are numbered from 1, as the players count
them; step 0 is the position before the search starts.

- ``place`` / ``remove``: a queen put on / taken off ``row``, ``col`` (row-by-row searches);
  ``given`` when it is a given queen; ``free``, the row's free columns (bitmask search);
  ``domains`` (per row, a bitmask of the columns still possible) and ``pruned`` (values
  inference removed) with forward checking and MAC; with MAC, ``forward`` (the values
  forward checking removed) and ``revisions``, AC-3's removals after it, one
  ``[row, col, against, domain]`` per value: ``col`` left ``row`` because no value of
  ``domain``, row ``against``'s domain then, is compatible with it;
- ``reject``: a column tested and found attacked, ``by`` the queen of that row along
  ``line`` (``col``, ``diag_up``, ``diag_down``, ``leap``);
- ``wipeout``: inference left ``row`` without a value: the placement fails;
- ``prune``: inference before the first choice (MAC), with ``domains``, ``pruned`` and
  ``revisions``;
- ``move``: queens of ``rows`` moved to ``cols`` (local search), with ``conflicts`` after
  and ``plateau`` when they did not change (Minton's min-conflicts);
- ``restart``: a fresh start; ``cols`` is the new board (-1 for an empty row);
- ``solution``: ``cols`` is a complete valid board;
- ``end``: the search's last word: ``status`` (solved, exhausted, no solution, gave up,
  step limit), the number of ``solutions`` met, and ``stats``, the statistics of the
  search where it keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Most steps a trace may record: the backtracking tree of n = 10 with every test.
MAX_STEPS = 1_000_000
#: Steps recorded unless asked otherwise: every search of the teaching examples, whole.
DEFAULT_STEPS = 500_000


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
        self.steps.append({"step": len(self.steps) + 1, "kind": kind, **fields})

    def end(self, status: str, **fields: Any) -> None:
        """The closing step; always recorded, even past ``max_steps``."""
        self.steps.append({"step": len(self.steps) + 1, "kind": "end", "status": status, **fields})

    @property
    def truncated(self) -> bool:
        return bool(self.steps) and self.steps[-1].get("status") == LIMIT


#: ``end`` status of a trace cut at ``max_steps``.
LIMIT = "step limit"
