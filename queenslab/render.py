"""Ways to show a placement: text and unicode boards, LeetCode 51 rows, JSON (pictures:
``queenslab.draw``, re-exported here for the output formats).

Boards wider than a screen are summarised in text, and JSON for huge boards is written in
chunks so 10^7 queens never become one Python list.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

import numpy as np

from queenslab.draw import to_svg, write_png
from queenslab.placement import Placement

__all__ = ["board_rows", "to_leetcode", "to_svg", "to_text", "write_json", "write_png"]

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


def write_json(record: dict[str, Any], out: TextIO, cols: np.ndarray | None = None) -> None:
    """Write ``record`` as one JSON object; ``cols``, if given, is streamed in chunks.

    Keys keep their order; the ``cols`` value in ``record`` is replaced by the array.
    """
    if cols is None or len(cols) <= _JSON_CHUNK:
        if cols is not None:
            record = {**record, "cols": cols.tolist()}
        out.write(json.dumps(record))
        out.write("\n")
        return
    items = list(record.items())
    out.write("{")
    for index, (key, value) in enumerate(items):
        out.write(", " if index else "")
        out.write(json.dumps(key) + ": ")
        if key != "cols":
            out.write(json.dumps(value))
            continue
        out.write("[")
        for start in range(0, len(cols), _JSON_CHUNK):
            chunk = cols[start : start + _JSON_CHUNK]
            out.write((", " if start else "") + ", ".join(map(str, chunk.tolist())))
        out.write("]")
    out.write("}\n")
