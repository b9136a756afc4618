"""Published counts from OEIS, per board variant (the table of each variant names them),
and the published optima of the problem kinds (each kind names its sequences).

For validation and the cross-check report only: no backend may read an answer from here.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from queenslab import boards
from queenslab.problems import kind


@cache
def _tables() -> dict[str, dict[str, Any]]:
    tables: dict[str, dict[str, Any]] = json.loads(
        files("queenslab.data").joinpath("oeis.json").read_text()
    )
    return tables


def _lookup(sequence: str | None, n: int) -> int | None:
    if sequence is None:
        return None
    table = _tables()[sequence]
    index = n - table["offset"]
    values = table["values"]
    return values[index] if 0 <= index < len(values) else None


def total(n: int, variant: str = boards.DEFAULT_VARIANT) -> int | None:
    """Solutions on an n x n board of ``variant``, or None beyond the published table."""
    return _lookup(boards.variant(variant).total_sequence, n)


def unique(n: int, variant: str = boards.DEFAULT_VARIANT) -> int | None:
    """Solutions up to rotation and reflection, or None where nothing is published."""
    return _lookup(boards.variant(variant).unique_sequence, n)


def optimum(problem: str, n: int, variant: str = boards.DEFAULT_VARIANT) -> int | None:
    """The published optimum of problem kind ``problem`` on an n x n board of ``variant``
    (a domination number, an army size...), or None where nothing is published."""
    return _lookup(kind(problem).value_sequences.get(variant), n)


def optima(problem: str, n: int, variant: str = boards.DEFAULT_VARIANT) -> int | None:
    """The published number of optimal answers of ``problem``, or None where unpublished."""
    return _lookup(kind(problem).count_sequences.get(variant), n)
