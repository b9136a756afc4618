"""Board pictures: SVG and PNG in one style, with given queens, blocked cells and attacks.

The style (``STYLE``) is shared by both outputs: a queen attacked by another is drawn in
the attack colour and each attacking pair is joined by a line, given queens have their own
colour, blocked cells are dark grey. The checkerboard is one SVG pattern, so an SVG grows
with n (the queens), not n². For notebooks, ``preview_svg`` caps the picture: boards past
``PREVIEW_MAX_N`` become a density image of a few kB, whatever n. NumPy and matplotlib
are imported only by the functions that need them.

Answers of the other problem kinds (``answer_svg``, ``write_answer_png``) are drawn on the
same board: two armies as white and black queens, a colouring as tinted cells (one hue
per colour class), a dominating set as queens over the cells they dominate (any cell left
undominated framed in the attack colour).
"""

from __future__ import annotations

import base64
import colorsys
import struct
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from queenslab.boards.graph import cells as every_cell
from queenslab.boards.graph import reach
from queenslab.problems.coloring import ColourClasses
from queenslab.problems.peaceable import Armies

if TYPE_CHECKING:
    import numpy as np

    from queenslab.boards import Board
    from queenslab.core.placement import Placement

Cell = tuple[int, int]
#: Largest board ``preview_svg`` draws square by square (with its attacks checked).
PREVIEW_MAX_N = 64
#: Pixels per side of the density image shown for larger boards.
DENSITY_PIXELS = 64
#: Attacking pairs drawn as lines at most (a bad placement can have ~n²/2 of them).
MAX_ATTACK_LINES = 500
#: Largest board whose colour classes are also numbered cell by cell (hues alone blur).
LABEL_MAX_N = 32


@dataclass(frozen=True)
class Style:
    light: str = "#f0d9b5"
    dark: str = "#b58863"
    queen: str = "#1b1b1b"
    given: str = "#1565c0"
    attacked: str = "#d32f2f"
    blocked: str = "#555555"
    white_queen: str = "#fafafa"
    dominated: str = "#64b5f6"  # drawn half transparent over the squares
    #: trace players: a solution's queens, the rows a move changed, the columns a domain
    #: still holds, and the search tree's open path and explored nodes
    solution: str = "#2e7d32"
    moved: str = "#ffca28"
    domain: str = "#66bb6a"
    path: str = "#1565c0"
    explored: str = "#9e9e9e"


STYLE = Style()


@dataclass(frozen=True)
class Marks:
    """What a picture highlights besides the queens."""

    attacking: tuple[tuple[int, int], ...] = ()  # pairs of rows whose queens attack
    given_rows: frozenset[int] = frozenset()
    blocked: tuple[Cell, ...] = ()

    @classmethod
    def of(cls, placement: Placement, board: Board | None, givens: Iterable[Cell]) -> Marks:
        """The attacking pairs on ``board`` (the standard one by default) and the givens."""
        verdict = placement.check(board)
        pairs = () if verdict.off_board else verdict.attacking
        return cls(
            tuple(pairs),
            frozenset(r for r, _ in givens),
            board.blocked if board is not None else (),
        )

    def colour(self, row: int, attacked: set[int]) -> str:
        if row in attacked:
            return STYLE.attacked
        return STYLE.given if row in self.given_rows else STYLE.queen


def squares_svg(n: int, cell: int) -> str:
    """The empty checkerboard as one pattern (a few hundred bytes for any n).

    The pattern's id names its cell size: boards of several sizes on one page (a
    notebook, the site) would otherwise all use the first board's squares.
    """
    size = n * cell
    return (
        f'<defs><pattern id="squares{cell}" width="{2 * cell}" height="{2 * cell}" '
        f'patternUnits="userSpaceOnUse"><rect width="{2 * cell}" height="{2 * cell}" '
        f'fill="{STYLE.light}"/><rect x="{cell}" width="{cell}" height="{cell}" '
        f'fill="{STYLE.dark}"/><rect y="{cell}" width="{cell}" height="{cell}" '
        f'fill="{STYLE.dark}"/></pattern></defs>'
        f'<rect width="{size}" height="{size}" fill="url(#squares{cell})"/>'
    )


def _cell_size(n: int, cell: int) -> int:
    """Cells shrink for big n so the picture stays within 1600 pixels."""
    return max(2, min(cell, 1600 // max(n, 1)))


def _svg_frame(n: int, cell: int) -> list[str]:
    """The opening of every board SVG: the document and the squares."""
    size = n * cell
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">',
        squares_svg(n, cell),
    ]


def _blocked_svg(cell: int, blocked: Iterable[Cell]) -> list[str]:
    return [
        f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
        f'fill="{STYLE.blocked}"><title>blocked: row {r}, column {c}</title></rect>'
        for r, c in blocked
    ]


def to_svg(
    placement: Placement,
    cell: int = 40,
    board: Board | None = None,
    givens: Iterable[Cell] = (),
) -> str:
    """The board as an SVG document, attacks and givens marked (cells shrink for big n)."""
    n = placement.n
    cell = _cell_size(n, cell)
    marks = Marks.of(placement, board, givens)
    half, radius = cell / 2, cell * 0.35
    parts = _svg_frame(n, cell) + _blocked_svg(cell, marks.blocked)
    cols = placement.to_list()
    pairs = marks.attacking[:MAX_ATTACK_LINES]
    parts.extend(
        f'<line x1="{cols[a] * cell + half}" y1="{a * cell + half}" x2="{cols[b] * cell + half}" '
        f'y2="{b * cell + half}" stroke="{STYLE.attacked}" stroke-width="{max(1, cell // 12)}"/>'
        for a, b in pairs
    )
    attacked = {row for pair in marks.attacking for row in pair}
    parts.extend(
        f'<circle cx="{c * cell + half}" cy="{r * cell + half}" r="{radius}" '
        f'fill="{marks.colour(r, attacked)}"><title>row {r}, column {c}</title></circle>'
        for r, c in enumerate(cols)
    )
    parts.append("</svg>")
    return "\n".join(parts)


def write_png(
    placement: Placement, out: Any, board: Board | None = None, givens: Iterable[Cell] = ()
) -> None:
    """Save the board as a PNG (matplotlib, imported only here), in the SVG's style."""
    import numpy as np

    n = placement.n
    marks = Marks.of(placement, board, givens)
    cols = placement.as_array()
    fig, ax = _png_frame(n, marks.blocked, {})
    for a, b in marks.attacking[:MAX_ATTACK_LINES]:
        ax.plot([cols[a], cols[b]], [a, b], color=STYLE.attacked, linewidth=1)
    attacked = {row for pair in marks.attacking for row in pair}
    colours = [marks.colour(r, attacked) for r in range(n)]
    ax.scatter(cols, np.arange(n), s=max(4.0, 9000 / n**2), c=colours, marker="o")
    _png_save(fig, ax, f"{n} queens", out)


def _png_frame(n: int, blocked: Iterable[Cell], tint: Mapping[Cell, str]) -> tuple[Any, Any]:
    """A matplotlib figure of the squares, ``tint`` colours mixed half into some of them,
    and the blocked cells (matplotlib imported here only)."""
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgb

    image = np.empty((n, n, 3))
    dark = np.add.outer(np.arange(n), np.arange(n)) % 2 == 1
    image[:] = to_rgb(STYLE.light)
    image[dark] = to_rgb(STYLE.dark)
    for (r, c), colour in tint.items():
        image[r, c] = (image[r, c] + np.array(to_rgb(colour))) / 2
    for r, c in blocked:
        image[r, c] = to_rgb(STYLE.blocked)
    fig, ax = plt.subplots(figsize=(6, 6), dpi=100)
    ax.imshow(image, interpolation="nearest")
    return fig, ax


def _png_save(fig: Any, ax: Any, title: str, out: Any) -> None:
    import matplotlib.pyplot as plt

    ax.set_axis_off()
    ax.set_title(title)
    fig.savefig(out, format="png", bbox_inches="tight")
    plt.close(fig)


# -- answers of the other problem kinds --------------------------------------------------
@dataclass(frozen=True)
class AnswerMarks:
    """What a picture of a kind's answer shows: queens and tinted cells, by colour."""

    title: str
    queens: dict[Cell, str] = field(default_factory=dict)
    tint: dict[Cell, str] = field(default_factory=dict)
    framed: tuple[Cell, ...] = ()  # cells drawn with an attack-coloured frame
    labels: dict[Cell, str] = field(default_factory=dict)  # written in the cell

    @classmethod
    def of(cls, board: Board, answer: Any) -> AnswerMarks:
        """Armies, a colouring, or a set of queens that dominates the board."""
        if isinstance(answer, Armies):
            both = {cell: STYLE.white_queen for cell in answer.white}
            both.update({cell: STYLE.queen for cell in answer.black})
            return cls(f"{len(answer.white)} white and {len(answer.black)} black queens", both)
        if isinstance(answer, ColourClasses):
            hues = palette(len(answer.classes))
            colours = answer.colours()
            tint = {cell: hues[k] for cell, k in colours.items()}
            labels = {cell: str(k) for cell, k in colours.items()} if board.n <= LABEL_MAX_N else {}
            return cls(f"{len(answer.classes)} colours", tint=tint, labels=labels)
        queens = frozenset(answer)
        near = reach(board)
        dominated = {cell for cell in every_cell(board) if near[cell] & queens}
        return cls(
            f"{len(queens)} queens dominating {len(dominated)} of {board.n**2} cells",
            {cell: STYLE.queen for cell in queens},
            {cell: STYLE.dominated for cell in dominated - queens},
            tuple(sorted(set(every_cell(board)) - dominated)),
        )


def palette(k: int) -> list[str]:
    """k distinct colours: hues spread by the golden angle, so neighbours in the list
    differ most (colour classes drawn side by side stay apart)."""
    hues = [(i * 0.618033988749895) % 1.0 for i in range(k)]
    return [
        "#{:02x}{:02x}{:02x}".format(*(round(255 * v) for v in colorsys.hsv_to_rgb(h, 0.55, 0.95)))
        for h in hues
    ]


def answer_svg(board: Board, answer: Any, cell: int = 40) -> str:
    """A kind's answer on the board as an SVG document (see ``AnswerMarks``)."""
    n = board.n
    cell = _cell_size(n, cell)
    marks = AnswerMarks.of(board, answer)
    half, radius = cell / 2, cell * 0.35
    parts = _svg_frame(n, cell)
    parts.extend(
        f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="{colour}" '
        f'fill-opacity="0.7"><title>row {r}, column {c}</title></rect>'
        for (r, c), colour in sorted(marks.tint.items())
    )
    parts.extend(_blocked_svg(cell, board.blocked))
    parts.extend(
        f'<rect x="{c * cell + 1}" y="{r * cell + 1}" width="{cell - 2}" height="{cell - 2}" '
        f'fill="none" stroke="{STYLE.attacked}" stroke-width="{max(1, cell // 12)}">'
        f"<title>not dominated: row {r}, column {c}</title></rect>"
        for r, c in marks.framed
    )
    parts.extend(
        f'<circle cx="{c * cell + half}" cy="{r * cell + half}" r="{radius}" fill="{colour}" '
        f'stroke="{STYLE.queen}" stroke-width="{max(1, cell // 20)}">'
        f"<title>row {r}, column {c}</title></circle>"
        for (r, c), colour in sorted(marks.queens.items())
    )
    parts.extend(
        f'<text x="{c * cell + half}" y="{r * cell + half}" font-size="{cell * 0.4:.1f}" '
        f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif">{text}</text>'
        for (r, c), text in sorted(marks.labels.items())
    )
    parts.append(f"<title>{marks.title}</title></svg>")
    return "\n".join(parts)


def write_answer_png(board: Board, answer: Any, out: Any) -> None:
    """A kind's answer on the board as a PNG, in the SVG's style."""
    n = board.n
    marks = AnswerMarks.of(board, answer)
    fig, ax = _png_frame(n, board.blocked, marks.tint)
    for r, c in marks.framed:
        ax.add_patch(_frame_patch(r, c))
    if marks.queens:
        cells = sorted(marks.queens)
        ax.scatter(
            [c for _, c in cells],
            [r for r, _ in cells],
            s=max(4.0, 9000 / n**2),
            c=[marks.queens[cell] for cell in cells],
            edgecolors=STYLE.queen,
            marker="o",
        )
    for (r, c), text in marks.labels.items():
        ax.text(c, r, text, ha="center", va="center", fontsize=max(4.0, 120 / n))
    _png_save(fig, ax, marks.title, out)


def _frame_patch(r: int, c: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor=STYLE.attacked, linewidth=2)


def preview_svg(placement: Placement) -> str:
    """A notebook picture of bounded size: the board up to PREVIEW_MAX_N, else a density.

    The density image bins the queens into DENSITY_PIXELS² squares (darker: more queens),
    an embedded PNG of a few kB computed in one pass over the columns.
    """
    n = placement.n
    if n <= PREVIEW_MAX_N:
        return to_svg(placement, cell=max(4, 320 // max(n, 1)))
    import numpy as np

    side = min(DENSITY_PIXELS, n)
    cols = placement.as_array()
    rows = np.arange(n, dtype=np.int64) * side // n
    bins = rows * side + np.clip(cols, 0, n - 1).astype(np.int64) * side // n
    density = np.bincount(bins, minlength=side * side).reshape(side, side)
    grey = (255 - 255 * density / max(int(density.max()), 1)).astype(np.uint8)
    image = base64.b64encode(_grey_png(grey)).decode("ascii")
    scale = 256
    head = ", ".join(str(c) for c in cols[:6].tolist())
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scale}" height="{scale + 36}">'
        f'<image width="{scale}" height="{scale}" style="image-rendering:pixelated" '
        f'href="data:image/png;base64,{image}"/>'
        f'<text x="0" y="{scale + 15}" font-size="12" font-family="sans-serif">'
        f"{n} queens: density per {n // side}×{n // side} block</text>"
        f'<text x="0" y="{scale + 31}" font-size="12" font-family="monospace">'
        f"cols [{head}, ...]</text></svg>"
    )


def _grey_png(pixels: np.ndarray) -> bytes:
    """An 8-bit greyscale PNG, written directly (no imaging library needed)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    height, width = pixels.shape
    raw = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
