"""A trace as an animated SVG for slides: board, marks and caption, frame by frame, no script.

Each thing drawn (a row's queen, the refused cell, the line from its attacker, a moved
row's band, a caption) is one element whose attributes change at discrete key times
(SMIL ``animate``), listed only where they change: the file grows with the changes, not
with frames times n. The frames come from ``replay.frames`` (shared with the GIF).
"""

from __future__ import annotations

from html import escape

from queenslab.core.problem import Problem
from queenslab.io.pictures import STYLE, squares_svg
from queenslab.trace.replay import DEFAULT_FPS, Frame, frames
from queenslab.trace.tracer import Tracer

#: Side of the board in pixels, and the caption's font size.
SIDE = 560
FONT = 15


def animation(tracer: Tracer, problem: Problem, fps: float = DEFAULT_FPS) -> str:
    """The animated SVG document of ``tracer``'s steps on ``problem``'s board.

    Blocked cells are dark, given cells ringed in the givens' colour from the first frame.
    """
    n = tracer.n
    shown = frames(tracer, problem.board, fps)
    cell = max(2, SIDE // n)
    side = n * cell
    starts, total = [], 0.0
    for frame in shown:
        starts.append(total)
        total += frame.seconds
    timing = Timing([t / total for t in starts], total)
    height = side + 2 * FONT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{height}" '
        f'viewBox="0 0 {side} {height}" font-family="sans-serif">',
        squares_svg(n, cell),
    ]
    parts.extend(
        f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
        f'fill="{STYLE.blocked}"/>'
        for r, c in problem.blocked
    )
    parts.extend(
        f'<rect x="{c * cell + 1}" y="{r * cell + 1}" width="{cell - 2}" height="{cell - 2}" '
        f'fill="none" stroke="{STYLE.given}" stroke-width="{max(2, cell // 12)}"/>'
        for r, c in problem.givens
    )
    for row in range(n):
        if any(row in f.moved for f in shown):
            band = [1 if row in f.moved else 0 for f in shown]
            parts.append(timing.element(
                f'rect x="0" y="{row * cell}" width="{side}" height="{cell}" '
                f'fill="{STYLE.moved}" fill-opacity="0.45"', {"opacity": band}, "rect"
            ))  # fmt: skip
    parts.append(_refusals(shown, cell, timing))
    half = cell / 2
    for row in range(n):
        columns = [f.cols[row] for f in shown]
        parts.append(timing.element(
            f'circle cy="{row * cell + half}" r="{cell * 0.35}"',
            {
                "cx": [max(c, 0) * cell + half for c in columns],
                "opacity": [int(c >= 0) for c in columns],
                "fill": [f.colour(row, row in problem.given_cols) for f in shown],
            },
            "circle",
        ))  # fmt: skip
    parts.append(_captions(shown, side, timing))
    parts.append("</svg>")
    return "\n".join(part for part in parts if part)


class Timing:
    """Key times of the frames (fractions of the loop) and the loop's length."""

    def __init__(self, keys: list[float], seconds: float) -> None:
        self.keys = keys
        self.seconds = seconds

    def element(
        self, opening: str, values: dict[str, list[object]], tag: str, text: str = ""
    ) -> str:
        """``<tag ...>text`` with one discrete ``animate`` per attribute that changes."""
        first = " ".join(f'{name}="{series[0]}"' for name, series in values.items())
        animations = "".join(
            self._animate(name, series) for name, series in values.items() if len(set(series)) > 1
        )
        return f"<{opening} {first}>{escape(text)}{animations}</{tag}>"

    def _animate(self, name: str, series: list[object]) -> str:
        times, shown = [], []
        for index, value in enumerate(series):
            if index == 0 or value != series[index - 1]:
                times.append(f"{self.keys[index]:.5f}")
                shown.append(str(value))
        return (
            f'<animate attributeName="{name}" values="{";".join(shown)}" '
            f'keyTimes="{";".join(times)}" dur="{self.seconds:.2f}s" '
            f'repeatCount="indefinite" calcMode="discrete"/>'
        )


def _refusals(shown: list[Frame], cell: int, timing: Timing) -> str:
    """The refused cell and the line from the queen that attacks it (backtracking)."""
    if not any(f.rejected for f in shown):
        return ""
    half = cell / 2
    cells = [f.rejected or (0, 0) for f in shown]
    on = [int(f.rejected is not None) for f in shown]
    attackers = [  # (col, row) of the attacking queen; the cell itself when none
        (c, r) if f.attacker is None else (f.cols[f.attacker], f.attacker)
        for f, (r, c) in zip(shown, cells, strict=True)
    ]
    square = timing.element(
        f'rect width="{cell}" height="{cell}" fill="{STYLE.attacked}" fill-opacity="0.7"',
        {"x": [c * cell for _, c in cells], "y": [r * cell for r, _ in cells], "opacity": on},
        "rect",
    )
    line = timing.element(
        f'line stroke="{STYLE.attacked}" stroke-width="{max(2, cell // 10)}"',
        {
            "x1": [c * cell + half for c, _ in attackers],
            "y1": [r * cell + half for _, r in attackers],
            "x2": [c * cell + half for _, c in cells],
            "y2": [r * cell + half for r, _ in cells],
            "opacity": on,
        },
        "line",
    )
    return square + line


def _captions(shown: list[Frame], side: int, timing: Timing) -> str:
    """One text per run of frames with the same caption, shown while the run lasts."""
    parts, start = [], 0
    for index in range(1, len(shown) + 1):
        if index < len(shown) and shown[index].caption == shown[start].caption:
            continue
        visible = [int(start <= i < index) for i in range(len(shown))]
        parts.append(timing.element(
            f'text x="4" y="{side + FONT + 4}" font-size="{FONT}"', {"opacity": visible}, "text",
            shown[start].caption,
        ))  # fmt: skip
        start = index
    return "\n".join(parts)
