"""Ways to show a placement: text and unicode boards, LeetCode 51 rows, JSON, NumPy, SVG, PNG.

Boards wider than a screen are summarised in text; JSON for huge boards is written in
chunks, so 10^8 queens never become one Python list, and ``.npy`` is the held array
itself behind NumPy's header. NumPy is imported only by the writers that need it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from queenslab.placement import Placement

if TYPE_CHECKING:
    import numpy as np

#: Widest board drawn cell by cell in text; larger ones are summarised.
MAX_DRAWN = 64
_JSON_CHUNK = 1 << 16


def board_rows(placement: Placement, queen: str = "Q", empty: str = ".") -> list[str]:
    """One string per row, e.g. ``".Q.."`` (the LeetCode 51 convention)."""
    n = placement.n
    return [empty * c + queen + empty * (n - c - 1) for c in placement]


#: Text board styles: (queen, empty square, separator between squares).
TEXT_STYLES = {"text": ("Q", ".", ""), "unicode": ("♛", "·", " "), "matrix": ("1", "0", " ")}


def to_text(placement: Placement, style: str = "text") -> str:
    """The board in a TEXT_STYLES style (``matrix`` is the 0/1 matrix of seeds 001 and 003).

    Boards wider than MAX_DRAWN are summarised in two lines instead.
    """
    n = placement.n
    if n > MAX_DRAWN:
        head = " ".join(str(c) for c in placement.as_array()[:10].tolist())
        return (
            f"{n} queens (board too large to draw; use --format json)\n"
            f"cols: {head}{' ...' if n > 10 else ''}"
        )
    queen, empty, separator = TEXT_STYLES[style]
    return "\n".join(separator.join(row) for row in board_rows(placement, queen, empty))


def to_leetcode(placement: Placement) -> str:
    """The LeetCode 51 form of one solution: a JSON list of row strings."""
    return json.dumps(board_rows(placement))


def to_svg(placement: Placement, cell: int = 40) -> str:
    """A chessboard with queens as an SVG document (cell size shrinks for big boards)."""
    n = placement.n
    cell = max(2, min(cell, 1600 // max(n, 1)))
    size = n * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">',
        f'<rect width="{size}" height="{size}" fill="#f0d9b5"/>',
    ]
    parts.extend(
        f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="#b58863"/>'
        for r in range(n)
        for c in range(n)
        if (r + c) % 2
    )
    radius = cell * 0.35
    parts.extend(
        f'<circle cx="{c * cell + cell / 2}" cy="{r * cell + cell / 2}" r="{radius}" '
        f'fill="#1b1b1b"><title>row {r}, column {c}</title></circle>'
        for r, c in enumerate(placement)
    )
    parts.append("</svg>")
    return "\n".join(parts)


def write_png(placement: Placement, out: Any) -> None:
    """Save the board as a PNG into a path or binary file (matplotlib, imported only here)."""
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = placement.n
    squares = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(float)
    fig, ax = plt.subplots(figsize=(6, 6), dpi=100)
    ax.imshow(squares, cmap="copper_r", vmin=-0.5, vmax=2.5, interpolation="nearest")
    ax.scatter(placement.as_array(), np.arange(n), s=max(4.0, 9000 / n**2), c="black", marker="o")
    ax.set_axis_off()
    ax.set_title(f"{n} queens")
    fig.savefig(out, format="png", bbox_inches="tight")
    plt.close(fig)


def write_json(
    record: dict[str, Any], out: TextIO, cols: Sequence[int] | np.ndarray | None = None
) -> None:
    """Write ``record`` as one JSON object; ``cols``, if given, is streamed in chunks.

    Keys keep their order; the ``cols`` value in ``record`` is replaced by the array. At
    most one chunk of columns is a Python list at any time, whatever n.
    """
    out.write("{")
    for index, (key, value) in enumerate(record.items()):
        out.write(", " if index else "")
        out.write(json.dumps(key) + ": ")
        if key != "cols" or cols is None:
            out.write(json.dumps(value))
            continue
        out.write("[")
        for start in range(0, len(cols), _JSON_CHUNK):
            chunk = cols[start : start + _JSON_CHUNK]
            numbers = chunk.tolist() if hasattr(chunk, "tolist") else chunk
            out.write((", " if start else "") + ", ".join(map(str, numbers)))
        out.write("]")
    out.write("}\n")


def write_npy(cols: np.ndarray, out: BinaryIO) -> None:
    """NumPy's ``.npy`` format (what ``np.load`` reads): the header, then the raw array.

    The array's own bytes are written (int32 columns stay int32), never a copy of them.
    """
    import numpy as np

    cols = np.ascontiguousarray(cols)  # a no-op for the arrays placements hold
    np.lib.format.write_array_header_1_0(out, np.lib.format.header_data_from_array_1_0(cols))
    out.write(memoryview(cols).cast("B"))
