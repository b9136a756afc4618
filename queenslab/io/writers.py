"""Ways to show a placement: text and unicode boards, LeetCode 51 rows, JSON, NumPy (pictures:
``queenslab.io.pictures``, re-exported here for the output formats).

Boards wider than a screen are summarised in text; JSON for huge boards is written in
chunks, so 10^8 queens never become one Python list, and ``.npy`` is the held array
itself behind NumPy's header. NumPy is imported only by the writers that need it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from queenslab.core.placement import Placement
from queenslab.io.pictures import to_svg, write_png

__all__ = [
    "board_rows",
    "to_leetcode",
    "to_svg",
    "to_text",
    "write_json",
    "write_npy",
    "write_png",
]

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
    """The board in a TEXT_STYLES style (``matrix``: the 0/1 matrix).

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
    out.write(cols.data.cast("B"))
