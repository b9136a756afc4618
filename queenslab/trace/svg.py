"""A trace as an animated SVG for slides: board, marks, tree and caption, frame by frame,
no script.

Each thing drawn (a row's queen, a domain cell, a crossed value, the refused cell and the
line from its attacker, a moved or emptied row's band, a tree node, a caption) is one
element whose attributes change at discrete key times (SMIL ``animate``), listed only
where they change: the file grows with the changes, not with frames times n. Things never
shown are left out, so a one-frame document is a still picture. The frames come from
``replay.frames`` and the geometry from ``slide.Layout`` (both shared with the GIF).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from queenslab.core.problem import Problem
from queenslab.io.pictures import STYLE, squares_svg
from queenslab.trace.replay import DEFAULT_FPS, MAX_FRAMES, Frame, frames
from queenslab.trace.slide import FONT, Layout, TreeView
from queenslab.trace.tracer import Tracer


def animation(
    tracer: Tracer, problem: Problem, fps: float = DEFAULT_FPS, *, budget: int = MAX_FRAMES,
    key_only: bool = False,
) -> str:  # fmt: skip
    """The animated SVG document of ``tracer``'s steps on ``problem``'s board."""
    return document(tracer, problem, frames(tracer, problem.board, fps, budget, key_only))


def document(tracer: Tracer, problem: Problem, shown: list[Frame]) -> str:
    """The SVG document playing ``shown`` in a loop.

    Blocked cells are dark, given cells ringed in the givens' colour from the first frame.
    """
    layout = Layout.of(tracer)
    n, cell, side = layout.n, layout.cell, layout.side
    starts, total = [], 0.0
    for frame in shown:
        starts.append(total)
        total += frame.seconds
    timing = Timing([t / total for t in starts], total)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.width} {layout.height}" '
        f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>',
        *(
            f'<text x="{x}" y="{y}" font-size="{layout.number_font}" text-anchor="middle" '
            f'dominant-baseline="central" fill="#444">{text}</text>'
            for x, y, text in layout.numbers()
        ),
        f'<g transform="translate({layout.margin},{layout.margin})">',
        squares_svg(n, cell),
    ]
    parts.extend(
        f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
        f'fill="{STYLE.blocked}"/>'
        for r, c in problem.blocked
    )
    parts.append(_domains(shown, cell, timing))
    for row in range(n):
        for flagged, colour, name in (
            ([row in f.moved for f in shown], STYLE.moved, "moved"),
            ([row == f.emptied for f in shown], STYLE.attacked, "wipeout"),
        ):
            parts.append(timing.flag(
                f'rect class="{name}" data-row="{row}" x="0" y="{row * cell}" width="{side}" '
                f'height="{cell}" fill="{colour}" fill-opacity="0.45"', flagged
            ))  # fmt: skip
    parts.extend(
        f'<rect x="{c * cell + 1}" y="{r * cell + 1}" width="{cell - 2}" height="{cell - 2}" '
        f'fill="none" stroke="{STYLE.given}" stroke-width="{max(2, cell // 12)}"/>'
        for r, c in problem.givens
    )
    parts.append(_refusals(shown, cell, timing))
    half = cell / 2
    for row in range(n):
        columns = [f.cols[row] for f in shown]
        parts.append(timing.element(
            f'circle class="queen" cy="{row * cell + half}" r="{cell * 0.35}"',
            {
                "cx": [max(c, 0) * cell + half for c in columns],
                "opacity": [int(c >= 0) for c in columns],
                "fill": [f.colour(row, row in problem.given_cols) for f in shown],
            },
            "circle",
        ))  # fmt: skip
    parts.append("</g>")
    if layout.tree is not None:
        parts.append(_tree(layout.tree, shown, timing))
    parts.append(_captions(shown, layout.caption_baseline, timing))
    parts.append("</svg>")
    return "\n".join(part for part in parts if part)


class Timing:
    """Key times of the frames (fractions of the loop) and the loop's length."""

    def __init__(self, keys: list[float], seconds: float) -> None:
        self.keys = keys
        self.seconds = seconds

    def element(
        self, opening: str, values: Mapping[str, Sequence[object]], tag: str, text: str = ""
    ) -> str:
        """``<tag ...>text`` with one discrete ``animate`` per attribute that changes."""
        first = " ".join(f'{name}="{series[0]}"' for name, series in values.items())
        animations = "".join(
            self._animate(name, series) for name, series in values.items() if len(set(series)) > 1
        )
        return f"<{opening} {first}>{escape(text)}{animations}</{tag}>"

    def flag(self, opening: str, shown: list[bool], tag: str = "rect") -> str:
        """An element visible in the frames where ``shown``; nothing if it never is."""
        return (
            self.element(opening, {"opacity": [int(s) for s in shown]}, tag) if any(shown) else ""
        )

    def _animate(self, name: str, series: Sequence[object]) -> str:
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


def _domains(shown: list[Frame], cell: int, timing: Timing) -> str:
    """Forward checking and MAC: each open row's values still possible (green), and the
    values the last placement's inference removed (red crosses)."""
    n = len(shown[0].cols)
    inset = cell * 0.22
    span = cell - 2 * inset
    parts = []
    for r in range(n):
        for c in range(n):
            at = f'data-row="{r}" data-col="{c}"'
            x, y = c * cell, r * cell
            parts.append(timing.flag(
                f'rect class="domain" {at} x="{x}" y="{y}" width="{cell}" height="{cell}" '
                f'fill="{STYLE.domain}" fill-opacity="0.7"',
                [bool(f.domains) and bool(f.domains[r] >> c & 1) for f in shown],
            ))  # fmt: skip
            parts.append(timing.flag(
                f'path class="cross" {at} d="M{x + inset:g} {y + inset:g}l{span:g} {span:g}'
                f'm0 {-span:g}l{-span:g} {span:g}" '
                f'stroke="{STYLE.attacked}" stroke-width="{max(2, cell // 14)}"',
                [bool(f.crossed) and bool(f.crossed[r] >> c & 1) for f in shown], "path",
            ))  # fmt: skip
    return "\n".join(part for part in parts if part)


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


def _tree(tree: TreeView, shown: list[Frame], timing: Timing) -> str:
    """The search tree so far: each node appears when placed and takes the player's colour."""
    parts = []
    width = max(1.0, min(3.0, tree.rx * 0.35))
    for v, (x, y) in enumerate(tree.centres):
        seen = [int(tree.born[v] <= f.step) for f in shown]
        if not any(seen):
            continue
        colours = [tree.colour(v, f.step) for f in shown]
        if v:
            px, py = tree.centres[tree.parent[v]]
            parts.append(timing.element(
                f'line x1="{px:.1f}" y1="{py:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                f'stroke-width="{width:.1f}"', {"opacity": seen, "stroke": colours}, "line",
            ))  # fmt: skip
        parts.append(timing.element(
            f'ellipse class="node" cx="{x:.1f}" cy="{y:.1f}" rx="{tree.rx:.1f}" ry="{tree.ry:.1f}"',
            {"opacity": seen, "fill": colours}, "ellipse",
        ))  # fmt: skip
        if tree.labels[v]:
            parts.append(timing.element(
                f'text x="{x:.1f}" y="{y:.1f}" font-size="{tree.font}" fill="white" '
                f'text-anchor="middle" dominant-baseline="central"', {"opacity": seen}, "text",
                tree.labels[v],
            ))  # fmt: skip
    current = [tree.centres[tree.current(f.step)] for f in shown]
    parts.append(timing.element(
        f'ellipse rx="{tree.rx + 3:.1f}" ry="{tree.ry + 3:.1f}" fill="none" stroke="black" '
        'stroke-width="2"',
        {"cx": [f"{x:.1f}" for x, _ in current], "cy": [f"{y:.1f}" for _, y in current]},
        "ellipse",
    ))  # fmt: skip
    return "\n".join(parts)


def _captions(shown: list[Frame], baseline: int, timing: Timing) -> str:
    """One text per run of frames with the same caption, shown while the run lasts."""
    parts, start = [], 0
    for index in range(1, len(shown) + 1):
        if index < len(shown) and shown[index].caption == shown[start].caption:
            continue
        visible = [int(start <= i < index) for i in range(len(shown))]
        parts.append(timing.element(
            f'text x="4" y="{baseline}" font-size="{FONT}"', {"opacity": visible}, "text",
            shown[start].caption,
        ))  # fmt: skip
        start = index
    return "\n".join(parts)
