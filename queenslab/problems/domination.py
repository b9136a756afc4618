"""Queens domination: the fewest queens that occupy or attack every cell of the board.

The domination number of the queens graph (OEIS A075458; on the torus A279402; the number
of minimum dominating sets A002564). Studied by Kearse and Gibbons (2001), Östergård and
Weakley (2001) and Bird (2017). A blocked cell holds no queen but must be dominated.

One model: a variable per open cell, a clause per cell of the board saying that one of
the cells reaching it (``boards.graph.reach``) holds a queen, and the count of queens to
minimise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from queenslab.boards import Board, Cell
from queenslab.boards.graph import cells, reach
from queenslab.problems.base import ProblemKind, cell_images
from queenslab.problems.model import BoolModel, Sense


class Domination(ProblemKind):
    name = "domination"
    question = "fewest queens that occupy or attack every cell"
    sense = Sense.MIN
    models: ClassVar[Mapping[str, str]] = {
        "cells": "one variable per open cell, one covering clause per cell"
    }
    value_sequences: ClassVar[Mapping[str, str]] = {"standard": "A075458", "toroidal": "A279402"}
    count_sequences: ClassVar[Mapping[str, str]] = {"standard": "A002564"}

    def build(self, board: Board, model: str, symmetry: str = "none") -> BoolModel:
        bm = BoolModel(f"{self.name}-{model}")
        open_cells = list(board.open_cells())
        queen = {cell: bm.var(f"q_{cell[0]}_{cell[1]}", answer=True) for cell in open_cells}
        for near in reach(board).values():
            bm.clause(*(queen[other] + 1 for other in sorted(near)))
        bm.minimise((1, v) for v in queen.values())
        if symmetry == "lex-leader":
            xs = [queen[cell] for cell in open_cells]
            for image in board.symmetries()[1:]:
                order = cell_images(board, open_cells, image)
                bm.lex_leq(xs, [xs[i] for i in order])
        return bm

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
