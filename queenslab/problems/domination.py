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

from collections.abc import Mapping, Sequence
from typing import ClassVar

from queenslab.boards import Board, Cell
from queenslab.boards.graph import cells, leap_reach, lines_through, open_lines, reach
from queenslab.core.kind import ProblemKind, lex_leader
from queenslab.core.model import BoolModel, Sense, Var


def _unreached(cell: Cell) -> str:
    return f"no open cell reaches cell {cell[0]}:{cell[1]}, so no queens dominate the board"


class Domination(ProblemKind):
    name = "domination"
    question = "fewest queens that occupy or attack every cell"
    sense = Sense.MIN
    models: ClassVar[Mapping[str, str]] = {
        "cells": "one variable per open cell, one covering clause per cell",
        "lines": "cells, plus a variable per line saying it holds a queen: short covering clauses",
    }
    value_sequences: ClassVar[Mapping[str, str]] = {"standard": "A075458", "toroidal": "A279402"}
    count_sequences: ClassVar[Mapping[str, str]] = {"standard": "A002564"}

    def build(self, board: Board, model: str, symmetry: str = "none") -> BoolModel:
        bm = BoolModel(f"{self.name}-{model}")
        open_cells = list(board.open_cells())
        queen = {cell: bm.var(f"q_{cell[0]}_{cell[1]}", answer=True) for cell in open_cells}
        if model == "lines":
            self._cover_by_lines(bm, board, queen)
        else:
            for cell, near in reach(board).items():
                bm.clause(*(queen[other] + 1 for other in sorted(near)), why=_unreached(cell))
        self.restrict(bm, board, queen)
        bm.minimise((1, v) for v in queen.values())
        if symmetry == "lex-leader":
            xs = [queen[cell] for cell in open_cells]
            lex_leader(bm, board, open_cells, xs, board.symmetries())
        return bm

    def _cover_by_lines(self, bm: BoolModel, board: Board, queen: Mapping[Cell, Var]) -> None:
        """A variable per line that has open cells, true exactly when the line holds a
        queen; each cell is covered by one of its lines or a queen a leap away."""
        held = {}
        for line, members in open_lines(board).items():
            o = held[line] = bm.var(f"line_{line[0]}_{line[1]}_held") + 1
            bm.clause(-o, *(queen[cell] + 1 for cell in members))
            for cell in members:
                bm.clause(-(queen[cell] + 1), o)
        for cell in cells(board):
            through = [held[line] for line in lines_through(board, cell) if line in held]
            leaps = (queen[other] + 1 for other in leap_reach(board, cell))
            bm.clause(*through, *leaps, why=_unreached(cell))

    def restrict(self, model: BoolModel, board: Board, queen: Mapping[Cell, Var]) -> None:
        """More rules on the queens (a variant of the question adds them here)."""

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> frozenset[Cell]:
        open_cells = list(board.open_cells())
        return frozenset(
            cell for cell, v in zip(open_cells, model.answer, strict=True) if values[v]
        )

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for queen in answer:
            if not board.is_open(*queen):
                return f"queen {queen[0]}:{queen[1]} is on a blocked or missing cell"
        for cell in cells(board):
            if cell not in answer and not any(board.attacks(q, cell) for q in answer):
                return f"cell {cell[0]}:{cell[1]} is neither occupied nor attacked"
        return None

    def value(self, answer: frozenset[Cell]) -> int:
        return len(answer)

    def to_json(self, answer: frozenset[Cell]) -> list[list[int]]:
        return [list(cell) for cell in sorted(answer)]
