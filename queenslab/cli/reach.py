"""The one line on a terminal saying that a run is beyond what its backend proved here.

A person who names a backend for a board larger than any it proved in the benchmark's
budget (``problems.defaults.beyond_reach``) should hear it before waiting minutes, and
which backend and setting proved more; a script reading stderr should not.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from queenslab.core.problem import Problem
from queenslab.problems.defaults import beyond_reach
from queenslab.runtime.progress import is_interactive


def say_beyond_reach(board: Problem, kind: str, backend: str | None) -> None:
    """On a terminal, the line for ``backend`` on the ``kind`` problem of ``board`` (None,
    the default backend: the one measured best, nothing to say)."""
    if backend is None or not is_interactive():
        return
    line = beyond_reach(replace(board, kind=kind), backend)
    if line is not None:
        print(f"queens: {line}", file=sys.stderr)
