"""A trace replayed as boards, and as the frames of an animation (SVG and GIF alike).

``replay`` gives the board after each step; after a search that walked its whole tree
(``exhausted``) the last solution comes back on the board, so an ``--all`` animation ends
on an answer rather than an empty board. ``frames`` adds what a slide shows besides the
queens: the cell a test refused and the queen that attacks it, the rows a move changed,
the queens under attack, the caption, and how long each frame stays (a solution longer,
the last one longest).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from queenslab.boards import Board
from queenslab.io.pictures import STYLE
from queenslab.trace.captions import caption
from queenslab.trace.tracer import Tracer

#: Frames in an animation at most; a longer trace shows every k-th state (solutions kept).
MAX_FRAMES = 600
#: Frames per second unless asked otherwise.
DEFAULT_FPS = 4.0
#: Seconds a solution stays on screen, and the last frame before the loop starts again.
SOLUTION_SECONDS = 1.5
FINAL_SECONDS = 4.0


def replay(n: int, steps: Sequence[dict[str, Any]]) -> Iterator[list[int]]:
    """The board (column per row, -1 for none) after each step."""
    cols, last_solution = [-1] * n, None
    for step in steps:
        kind = step["kind"]
        if kind in ("place", "move"):
            cols[step["row"]] = step["col"]
        elif kind == "remove":
            cols[step["row"]] = -1
        elif kind == "swap":
            for row, col in zip(step["rows"], step["cols"], strict=True):
                cols[row] = col
        elif kind in ("restart", "solution"):
            cols = list(step["cols"])
            if kind == "solution":
                last_solution = list(cols)
        elif kind == "end" and step["status"] == "exhausted" and last_solution is not None:
            cols = list(last_solution)
        yield list(cols)


@dataclass(frozen=True)
class Frame:
    """One picture of an animation."""

    cols: list[int]
    caption: str
    seconds: float
    rejected: tuple[int, int] | None = None  # a cell a test refused ...
    attacker: int | None = None  # ... and the row of the queen that attacks it
    moved: tuple[int, ...] = ()  # rows a local search move changed
    attacked: frozenset[int] = frozenset()  # rows whose queen is attacked
    solution: bool = False

    def colour(self, row: int, given: bool) -> str:
        """A queen's colour: green in a solution, red under attack, then given or plain."""
        if self.solution:
            return STYLE.solution
        if row in self.attacked:
            return STYLE.attacked
        return STYLE.given if given else STYLE.queen


def frames(tracer: Tracer, board: Board, fps: float = DEFAULT_FPS) -> list[Frame]:
    """At most about MAX_FRAMES frames, evenly spread over the steps, every solution and
    the last step included."""
    steps = tracer.steps
    every = max(1, -(-len(steps) // MAX_FRAMES))
    found: list[Frame] = []
    for index, (step, cols) in enumerate(zip(steps, replay(tracer.n, steps), strict=True)):
        solution = step["kind"] == "solution"
        last = index == len(steps) - 1
        if index % every == 0 or solution or last:
            seconds = FINAL_SECONDS if last else SOLUTION_SECONDS if solution else 1 / fps
            found.append(_frame(step, cols, board, seconds))
    return found


def _frame(step: dict[str, Any], cols: list[int], board: Board, seconds: float) -> Frame:
    kind = step["kind"]
    rejected = (step["row"], step["col"]) if kind == "reject" else None
    moved = tuple(step["rows"]) if kind == "swap" else (step["row"],) if kind == "move" else ()
    attacked: frozenset[int] = frozenset()
    if -1 not in cols:
        attacked = frozenset(row for pair in board.check(cols).attacking for row in pair)
    solution = -1 not in cols and not attacked and board.is_valid(cols)
    return Frame(cols, caption(step), seconds, rejected, step.get("by"), moved, attacked, solution)
