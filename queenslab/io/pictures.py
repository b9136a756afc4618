"""Board pictures: SVG and PNG in one style, with given queens, blocked cells and attacks.

The style (``STYLE``) is shared by both outputs: a queen attacked by another is drawn in
the attack colour and each attacking pair is joined by a line, given queens have their own
colour, blocked cells are dark grey. The checkerboard is one SVG pattern, so an SVG grows
with n (the queens), not n². For notebooks, ``preview_svg`` caps the picture: boards past
``PREVIEW_MAX_N`` become a density image of a few kB, whatever n. NumPy and matplotlib
are imported only by the functions that need them.
"""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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


@dataclass(frozen=True)
class Style:
    light: str = "#f0d9b5"
    dark: str = "#b58863"
    queen: str = "#1b1b1b"
    given: str = "#1565c0"
    attacked: str = "#d32f2f"
    blocked: str = "#555555"
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


def to_svg(
    placement: Placement,
    cell: int = 40,
    board: Board | None = None,
    givens: Iterable[Cell] = (),
) -> str:
    """The board as an SVG document, attacks and givens marked (cells shrink for big n)."""
    n = placement.n
    cell = max(2, min(cell, 1600 // max(n, 1)))
    marks = Marks.of(placement, board, givens)
    size = n * cell
    half, radius = cell / 2, cell * 0.35
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">',
        squares_svg(n, cell),
    ]
    parts.extend(
        f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
        f'fill="{STYLE.blocked}"><title>blocked: row {r}, column {c}</title></rect>'
        for r, c in marks.blocked
    )
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
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgb

    n = placement.n
    marks = Marks.of(placement, board, givens)
    image = np.empty((n, n, 3))
    dark = np.add.outer(np.arange(n), np.arange(n)) % 2 == 1
    image[:] = to_rgb(STYLE.light)
    image[dark] = to_rgb(STYLE.dark)
    for r, c in marks.blocked:
        image[r, c] = to_rgb(STYLE.blocked)
    cols = placement.as_array()
    fig, ax = plt.subplots(figsize=(6, 6), dpi=100)
    ax.imshow(image, interpolation="nearest")
    for a, b in marks.attacking[:MAX_ATTACK_LINES]:
        ax.plot([cols[a], cols[b]], [a, b], color=STYLE.attacked, linewidth=1)
    attacked = {row for pair in marks.attacking for row in pair}
    colours = [marks.colour(r, attacked) for r in range(n)]
    ax.scatter(cols, np.arange(n), s=max(4.0, 9000 / n**2), c=colours, marker="o")
    ax.set_axis_off()
    ax.set_title(f"{n} queens")
    fig.savefig(out, format="png", bbox_inches="tight")
    plt.close(fig)


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
