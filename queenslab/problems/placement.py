"""Placement as a problem kind: n non-attacking queens, optionally of greatest weight.

Today's question (OEIS A000170; torus A051906; super-queens A051223), stated as a
``BoolModel`` so that every 0-1 translator can be checked against the placement counters
that exist already. Blocked cells hold no queen; givens are not part of a kind's model.

One model: a variable per open cell; each of the board's groups (``Board.groups``: rows
and columns exactly one queen, diagonals and leap pairs at most one). With weights, the
total weight of the occupied cells is maximised; without, there is nothing to optimise
and every placement is optimal with value 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from queenslab.boards import Board, Cell
from queenslab.core.kind import ProblemKind, grid, lex_leader
from queenslab.core.model import BoolModel, Sense


class Placement(ProblemKind):
    name = "placement"
    question = "n non-attacking queens, of greatest total weight when weights are given"
    sense = Sense.MAX
    models: ClassVar[Mapping[str, str]] = {
        "cells": "one variable per open cell, each line and leap pair of the board as a group"
    }
    value_sequences: ClassVar[Mapping[str, str]] = {}
    count_sequences: ClassVar[Mapping[str, str]] = {
        "standard": "A000170",
        "toroidal": "A051906",
        "superqueens": "A051223",
    }
    takes_weights = True
    #: n² variables and about 6 n² terms: the ceiling of the placement CNF models.
    largest_model_n: ClassVar[int] = 2000

    def build(self, board: Board, model: str, symmetry: str = "none") -> BoolModel:
        bm = BoolModel(f"{self.name}-{model}")
        open_cells = list(board.open_cells())
        queen = {cell: bm.var(f"q_{cell[0]}_{cell[1]}", answer=True) for cell in open_cells}
        for group in board.groups():
            cells = [queen[cell] for cell in group.cells]
            (bm.exactly_one if group.exactly_one else bm.at_most_one)(cells)
        bm.maximise((self._weight(cell), v) for cell, v in queen.items() if self._weight(cell))
        if symmetry == "lex-leader":
            # Only the symmetries that keep every weight: the others change the question.
            kept = [
                image
                for image in board.symmetries()
                if all(self._weight(image.cell(board.n, *cell)) == self._weight(cell)
                       for cell in open_cells)
            ]  # fmt: skip
            lex_leader(bm, board, open_cells, [queen[cell] for cell in open_cells], kept)
        return bm

    def _weight(self, cell: Cell) -> int:
        return 0 if self.weights is None else int(self.weights[cell])

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> frozenset[Cell]:
        open_cells = list(board.open_cells())
        return frozenset(
            cell for cell, v in zip(open_cells, model.answer, strict=True) if values[v]
        )

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        queens = sorted(answer)
        for r, c in queens:
            if not board.is_open(r, c):
                return f"queen {r}:{c} is on a blocked or missing cell"
        if sorted(r for r, _ in queens) != list(range(board.n)):
            return f"not one queen in each of the {board.n} rows"
        for i, a in enumerate(queens):
            for b in queens[i + 1 :]:
                if board.attacks(a, b):
                    return f"queens {a[0]}:{a[1]} and {b[0]}:{b[1]} attack each other"
        return None

    def value(self, answer: frozenset[Cell]) -> int:
        return sum(self._weight(cell) for cell in answer)

    def to_json(self, answer: frozenset[Cell]) -> list[int]:
        """The queen's column in each row, as ``cols`` everywhere else."""
        return [c for _, c in sorted(answer)]

    def text(self, board: Board, data: list[int]) -> str:
        return grid(board, {cell: "Q" for cell in enumerate(data)})
