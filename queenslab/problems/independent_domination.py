"""Independent queens domination: the fewest non-attacking queens that occupy or attack
every cell.

The independent domination number of the queens graph (OEIS A075324, the diagonal of
A299029); Östergård and Weakley (2001) and Bird (2017) computed it beside the domination
number. Always at least the domination number (n = 4: 3 against 2).

Blocked cells: as for domination, a blocked cell holds no queen but must be dominated.
Two queens on one line attack each other even with a blocked cell between them: a blocked
cell shields nothing (``boards.graph``).

Each model is domination's (``cells``, ``lines`` or ``hilbert``) with every line and leap
pair of the board (``Board.groups``) holding at most one queen, rows and columns included.
Domination's lower bound holds here too: an independent dominating set dominates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from queenslab.modelling import Board, Cell, Family, ModelBuilder, at_most_one
from queenslab.problems.domination import Domination


class IndependentDomination(Domination):
    name = "independent-domination"
    question = "fewest non-attacking queens that occupy or attack every cell"
    models: ClassVar[Mapping[str, str]] = {
        "cells": "domination's covering clauses, at most one queen on each line and leap pair",
        "lines": "domination's line model, at most one queen on each line and leap pair",
        "hilbert": "domination's Hilbert-ordered count, at most one queen per line and leap pair",
    }
    value_sequences: ClassVar[Mapping[str, str]] = {"standard": "A075324"}
    count_sequences: ClassVar[Mapping[str, str]] = {}

    def restrict(self, m: ModelBuilder, board: Board, queen: Family[Cell]) -> None:
        for group in board.groups():
            m.add(at_most_one(queen[cell] for cell in group.cells))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        queens = sorted(answer)
        for i, a in enumerate(queens):
            for b in queens[i + 1 :]:
                if board.attacks(a, b):
                    return f"queens {a[0]}:{a[1]} and {b[0]}:{b[1]} attack each other"
        return super().check(board, answer)
