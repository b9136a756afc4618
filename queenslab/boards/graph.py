"""The queens graph of a board: which open cells reach which cells.

Problems other than placing n queens (domination, peaceable armies, colouring) ask about
this graph: two cells are adjacent when a queen on one attacks the other under the
board's rules (lines of every family, wrapped on a torus, and leaps). Blocked cells hold
no queen but are still cells of the graph: a queen attacks along a line through them, so
a blocked cell can be dominated, and it does not shield the cells behind it.
"""

from __future__ import annotations

from collections.abc import Iterator

from queenslab.boards.base import Board, Cell

#: A line of the board: (index of its family in ``board.families``, its key).
LineId = tuple[int, int]


def cells(board: Board) -> Iterator[Cell]:
    """Every cell of the board, blocked ones too, row by row."""
    n = board.n
    return ((r, c) for r in range(n) for c in range(n))


def lines_through(board: Board, cell: Cell) -> list[LineId]:
    """The line of each family through ``cell`` (blocked or open)."""
    return [(index, family.key(board.n, *cell)) for index, family in enumerate(board.families)]


def open_lines(board: Board) -> dict[LineId, list[Cell]]:
    """The open cells of each line that has some, row by row: a queen on any of them
    attacks every cell of the line."""
    found: dict[LineId, list[Cell]] = {}
    for cell in board.open_cells():
        for line in lines_through(board, cell):
            found.setdefault(line, []).append(cell)
    return found


def leap_reach(board: Board, cell: Cell) -> list[Cell]:
    """The open cells a leap joins to ``cell`` (a knight's move for super-queens)."""
    r, c = cell
    return [
        other
        for dr, dc in board.variant.leaps
        for other in ((r + dr, c + dc), (r - dr, c - dc))
        if board.is_open(*other)
    ]


def reach(board: Board) -> dict[Cell, frozenset[Cell]]:
    """For every cell, the open cells whose queen occupies or attacks it.

    Built from the lines over all cells (blocked ones included) and the leaps: O(n^3)
    work, for the boards exact models take.
    """
    lines = open_lines(board)
    found = {}
    for cell in cells(board):
        near = [o for line in lines_through(board, cell) for o in lines.get(line, ())]
        found[cell] = frozenset(near + leap_reach(board, cell))
    return found


def neighbours(board: Board) -> dict[Cell, set[Cell]]:
    """For each open cell, the open cells a queen there attacks (lines and leaps): the
    queens graph on the open cells, which colouring and the DIMACS graph export read."""
    found: dict[Cell, set[Cell]] = {cell: set() for cell in board.open_cells()}
    for group in board.groups():
        for cell in group.cells:
            found[cell].update(group.cells)
    for cell, near in found.items():
        near.discard(cell)
    return found
