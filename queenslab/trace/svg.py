"""A trace as an animated SVG for slides: the board replayed frame by frame, no script.

``frames`` (the sampled boards) is shared with the GIF writer.

Each queen is one circle per row whose column and visibility change at discrete key
times (SMIL ``animate``), so the file grows with the changes, not with frames times n.
Traces longer than ``MAX_FRAMES`` steps are sampled evenly (the last step always kept).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from queenslab.io.pictures import STYLE, squares_svg
from queenslab.trace.tracer import Tracer

#: Frames in an animation at most; a longer trace shows every k-th state.
MAX_FRAMES = 600
#: Seconds each frame stays on screen.
FRAME_SECONDS = 0.25


def replay(n: int, steps: Sequence[dict[str, Any]]) -> Iterator[list[int]]:
    """The board (column per row, -1 for none) after each step."""
    cols = [-1] * n
    for step in steps:
        kind = step["kind"]
        if kind == "place":
            cols[step["row"]] = step["col"]
        elif kind == "remove":
            cols[step["row"]] = -1
        elif kind == "move":
            for row, col in zip(step["rows"], step["cols"], strict=True):
                cols[row] = col
        elif kind in ("restart", "solution"):
            cols = list(step["cols"])
        yield list(cols)


def frames(tracer: Tracer) -> list[list[int]]:
    """At most MAX_FRAMES + 1 boards, evenly spread over the steps, the last one included."""
    states = list(replay(tracer.n, tracer.steps))
    every = max(1, -(-len(states) // MAX_FRAMES))
    chosen = states[::every]
    if states and chosen[-1] is not states[-1]:
        chosen.append(states[-1])
    return chosen


def animation(tracer: Tracer, cell: int = 32) -> str:
    """The animated SVG document of ``tracer``'s steps."""
    n = tracer.n
    boards = frames(tracer)
    duration = max(len(boards), 1) * FRAME_SECONDS
    size = n * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">',
        squares_svg(n, cell),
    ]
    for row in range(n):
        parts.append(_queen(row, [board[row] for board in boards], cell, duration))
    parts.append("</svg>")
    return "\n".join(parts)


def _queen(row: int, columns: list[int], cell: int, duration: float) -> str:
    """One row's queen: where it stands in each frame (hidden while -1)."""
    times, xs, shown = [], [], []
    for index, col in enumerate(columns):
        if index == 0 or col != columns[index - 1]:
            times.append(f"{index / len(columns):.5f}")
            xs.append(str((max(col, 0) + 0.5) * cell))
            shown.append("1" if col >= 0 else "0")
    animate = (
        f'dur="{duration:.2f}s" repeatCount="indefinite" calcMode="discrete" '
        f'keyTimes="{";".join(times)}"'
    )
    return (
        f'<circle cx="{xs[0]}" cy="{(row + 0.5) * cell}" r="{cell * 0.35}" '
        f'fill="{STYLE.queen}" opacity="{shown[0]}">'
        f'<animate attributeName="cx" values="{";".join(xs)}" {animate}/>'
        f'<animate attributeName="opacity" values="{";".join(shown)}" {animate}/></circle>'
    )
