"""Queens domination: the fewest queens that occupy or attack every cell of the board.

The domination number of the queens graph (OEIS A075458; on the torus A279402; the number
of minimum dominating sets A002564). Studied by Kearse and Gibbons (2001), Östergård and
Weakley (2001) and Bird (2017).

Blocked cells: a blocked cell holds no queen but must still be dominated; a queen attacks
it, and the cells behind it, along a line through it (``boards.graph``).

Two models, both minimising the number of queens over a variable per open cell:

- ``cells``: a clause per cell of the board saying that one of the cells reaching it
  (``boards.graph.reach``) holds a queen, about 4n literals long;
- ``lines``: a variable per line saying that it holds a queen (defined both ways, so it
  is determined by the queens), and a clause per cell over its four lines and the cells a
  leap away: short clauses, on which unit propagation does more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from queenslab.boards import Board, Cell
from queenslab.boards.graph import cells, leap_reach, lines_through, open_lines, reach
from queenslab.core.expressions import Family, ModelBuilder, any_of
from queenslab.core.kind import ProblemKind


def _unreached(cell: Cell) -> str:
    return f"no open cell reaches cell {cell[0]}:{cell[1]}, so no queens dominate the board"


class Domination(ProblemKind):
    name = "domination"
    question = "fewest queens that occupy or attack every cell"
    sense = "min"
    models: ClassVar[Mapping[str, str]] = {
        "cells": "one variable per open cell, one covering clause per cell",
        "lines": "cells, plus a variable per line saying it holds a queen: short covering clauses",
    }
    value_sequences: ClassVar[Mapping[str, str]] = {"standard": "A075458", "toroidal": "A279402"}
    count_sequences: ClassVar[Mapping[str, str]] = {"standard": "A002564"}

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        queen = m.cells("q", board)
        if model == "lines":
            self._cover_by_lines(m, board, queen)
        else:
            for cell, near in reach(board).items():
                m.add(any_of(queen[other] for other in sorted(near)), why=_unreached(cell))
        self.restrict(m, board, queen)
        m.minimise(sum(queen.values()))

    def _cover_by_lines(self, m: ModelBuilder, board: Board, queen: Family[Cell]) -> None:
        """A variable per line that has open cells, true exactly when the line holds a
        queen; each cell is covered by one of its lines or a queen a leap away."""
        held = {}
        for line, members in open_lines(board).items():
            o = held[line] = m.var(f"line_{line[0]}_{line[1]}_held")
            m.add(o >> any_of(queen[cell] for cell in members))
            m.add(*(queen[cell] >> o for cell in members))
        for cell in cells(board):
            through = [held[line] for line in lines_through(board, cell) if line in held]
            leaps = (queen[other] for other in leap_reach(board, cell))
            m.add(any_of(through, leaps), why=_unreached(cell))

    def restrict(self, m: ModelBuilder, board: Board, queen: Family[Cell]) -> None:
        """More rules on the queens (a variant of the question adds them here)."""

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for queen in answer:
            if not board.is_open(*queen):
                return f"queen {queen[0]}:{queen[1]} is on a blocked or missing cell"
        for cell in cells(board):
            if cell not in answer and not any(board.attacks(q, cell) for q in answer):
                return f"cell {cell[0]}:{cell[1]} is neither occupied nor attacked"
        return None
