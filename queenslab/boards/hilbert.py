"""Cells in the order of a Hilbert curve: each cell of the curve is next to the one before.

Why: a SAT solver's cardinality encoding (a totalizer) merges its input literals pairwise
in the order given, so literals next to each other in that order share counters. Taking
the queens along a Hilbert curve puts cells close on the board under one counter, which
Rostami and Bright found speeds CDCL solvers up on queen domination ("Queen Domination by
SAT Solving", 2025). The curve covers the smallest 2^p x 2^p square holding the board; the
board's cells keep the curve's order.
"""

from __future__ import annotations

from collections.abc import Iterable

from queenslab.boards.base import Cell


def hilbert_index(side: int, cell: Cell) -> int:
    """The position of ``cell`` (row, column) along the Hilbert curve of a ``side`` x
    ``side`` square, ``side`` a power of two; positions 0 .. side² - 1, and consecutive
    positions are cells one step apart."""
    y, x = cell
    index = 0
    half = side // 2
    while half:
        right, lower = int(x & half > 0), int(y & half > 0)
        index += half * half * ((3 * right) ^ lower)
        if not lower:  # the quadrant's curve is turned: reflect, then swap the axes
            if right:
                x, y = side - 1 - x, side - 1 - y
            x, y = y, x
        half //= 2
    return index


def hilbert_order(cells: Iterable[Cell]) -> list[Cell]:
    """``cells`` sorted along the Hilbert curve of the smallest power-of-two square that
    holds them all."""
    found = list(cells)
    largest = max((max(cell) for cell in found), default=0)
    side = 1 << largest.bit_length()
    return sorted(found, key=lambda cell: hilbert_index(side, cell))
