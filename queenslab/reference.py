"""Published counts (OEIS A000170 total, A002562 up to symmetry).

For validation and the cross-check report only: no backend may read an answer from here.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files


@cache
def _tables() -> dict[str, dict]:
    return json.loads(files("queenslab.data").joinpath("oeis.json").read_text())


def _lookup(sequence: str, n: int) -> int | None:
    table = _tables()[sequence]
    index = n - table["offset"]
    values = table["values"]
    return values[index] if 0 <= index < len(values) else None


def total(n: int) -> int | None:
    """A000170(n): solutions on an n x n board, or None beyond the published table."""
    return _lookup("A000170", n)


def unique(n: int) -> int | None:
    """A002562(n): solutions up to rotation and reflection, or None beyond the table."""
    return _lookup("A002562", n)


def largest_n() -> int:
    """The largest n with a published total."""
    table = _tables()["A000170"]
    return table["offset"] + len(table["values"]) - 1
