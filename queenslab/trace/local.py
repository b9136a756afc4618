"""Local searches for tracing: the ``min-conflicts``, ``hill-climbing`` and ``minton``
backends' own searches, heard through their hooks, so a trace shows what the backend does.

Hill climbing and Minton's min-conflicts are plain Python and emit their steps
themselves. The min-conflicts backend (QS4, or breakout on a torus) runs compiled
kernels that log their swaps for a watcher; the trace replays each start and swap on
``Collisions`` (the board layer's lines), which counts the attacking pairs it shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from queenslab.core.problem import Problem
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.heuristics.collisions import Collisions
from queenslab.heuristics.hill_climbing import climb
from queenslab.heuristics.min_conflicts import RESTARTS, search
from queenslab.heuristics.minton import MinConflicts
from queenslab.trace.tracer import Tracer

if TYPE_CHECKING:
    import numpy as np


def min_conflicts(problem: Problem, tracer: Tracer, run: Run, **_: object) -> str:
    """QS4 (or the torus's breakout): every start and every swap the kernels made."""
    board = Collisions(problem, [])

    def watch(event: str, data: np.ndarray) -> None:
        if event == "start":
            board.reset(data.tolist())
            tracer.emit("restart", cols=list(board.cols), conflicts=board.pairs)
            return
        for a, b in data.tolist():
            board.swap(a, b)
            cols = [board.cols[a], board.cols[b]]
            tracer.emit("swap", rows=[a, b], cols=cols, conflicts=board.pairs)

    result = search(problem, run, RESTARTS, watch)
    if result.status is not Status.SOLVED:
        return "gave up"
    tracer.emit("solution", cols=list(board.cols))
    return "solved"


def hill_climbing(problem: Problem, tracer: Tracer, run: Run, **_: object) -> str:
    """Two random rows swap unless that adds attacking pairs; restarts after n*n steps."""
    return "gave up" if climb(problem, run, tracer.emit) is None else "solved"


def minton(problem: Problem, tracer: Tracer, run: Run, *, restarts: int = 100, **_: object) -> str:
    """Minton's min-conflicts, the ``minton`` backend's search: one queen moved per step."""
    found = MinConflicts(problem, run, tracer.emit).solve(restarts)
    return "gave up" if found is None else "solved"
