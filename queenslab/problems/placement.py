"""Placement as a problem kind: n non-attacking queens, optionally of greatest weight.

The N-queens question itself (OEIS A000170; torus A051906; super-queens A051223). Its
specialists (the exact counters, the local searches, the model backends' own
formulations) answer it with searches of their own; its ``BoolModel`` is what any other
backend solves, and what a model backend builds when ``--model cells`` is asked for, so
its own formulation can be checked against the kind's. Blocked cells hold no queen;
given queens are fixed.

One model: a variable per open cell (``q_R_C``, row by row); each of the board's groups
(``Board.groups``: rows and columns exactly one queen, diagonals and leap pairs at most
one) a row named as the group (``row_3``, ``diag_up_7``), which the exports keep. With
weights, the total weight of the occupied cells is maximised; without, there is nothing
to optimise and every placement is optimal with value 0. Answers are
``core.placement.Placement``s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from queenslab.modelling import (
    ALL_VARIANTS,
    Board,
    BoolModel,
    Cell,
    ModelBuilder,
    Placement,
    ProblemKind,
    Sense,
    UsageError,
    Var,
    at_most_one,
    encode_cells,
    exactly_one,
    grid,
    lex_leader,
    total,
)


def _givens(givens: Sequence[Cell]) -> str:
    """The given queens in a few words: the first five cells, and how many in all."""
    shown = ", ".join(f"{r}:{c}" for r, c in givens[:5])
    more = f" and {len(givens) - 5} more" if len(givens) > 5 else ""
    return f"queens on {shown}{more} (given)"


class NQueens(ProblemKind[Placement]):
    name = "placement"
    question = "n non-attacking queens, of greatest total weight when weights are given"
    sense = Sense.MAX
    variants = ALL_VARIANTS
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
    takes_givens = True
    #: n² variables and about 6 n² terms: the ceiling of the placement CNF models.
    largest_model_n: ClassVar[int] = 2000
    broken_symmetries = "the board's symmetries that keep the weights and the givens"

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        queen = m.cells("q", board)
        for group in board.groups():
            lines = [queen[cell] for cell in group.cells]
            m.add(
                (exactly_one(lines) if group.exactly_one else at_most_one(lines)).named(group.name)
            )
        if self.givens and m.assume("givens", _givens(self.givens), kind="given", asked=True):
            m.add(*(queen[cell] for cell in self.givens))
        m.maximise(total(self._weight(cell) * queen[cell] for cell in queen))

    def break_symmetry(self, m: ModelBuilder, board: Board, model: str) -> None:
        """Only the symmetries that keep every weight and the givens: the others would
        change the question."""
        queen = m.cell_families[0]
        givens = set(self.givens)
        kept = [
            image
            for image in board.symmetries()
            if all(self._weight(image.cell(board.n, *cell)) == self._weight(cell) for cell in queen)
            and {image.cell(board.n, *cell) for cell in givens} == givens
        ]
        lex_leader(m.bool_model, board, list(queen), [lit.var for lit in queen.values()], kept)

    def _weight(self, cell: Cell) -> int:
        return 0 if self.weights is None else int(self.weights[cell])

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> Placement:
        cols = [0] * board.n
        for (r, c), v in zip(board.open_cells(), model.answer, strict=True):
            if values[v]:
                cols[r] = c
        return Placement(cols)

    def encode(self, board: Board, model: BoolModel, answer: Placement) -> dict[Var, bool]:
        return encode_cells(board, model, set(enumerate(answer)))

    def check(self, board: Board, answer: Placement) -> str | None:
        """The board's rules on the columns (O(n), for millions of queens), then the givens."""
        if answer.n != board.n:
            return f"{answer.n} queens for n={board.n}"
        if not board.is_valid(answer.cols):
            return board.check(answer.cols).describe()
        for r, c in self.givens:
            if answer[r] != c:
                return f"the given queen {r}:{c} moved"
        return None

    def value(self, answer: Placement) -> int:
        if self.weights is None:
            return 0
        return sum(int(self.weights[r, c]) for r, c in enumerate(answer))

    def to_json(self, answer: Placement) -> Placement:
        """The placement itself: the writers record its ``cols``."""
        return answer

    def from_json(self, data: Any) -> Placement:
        """A placement's columns, row by row (the ``cols`` its JSON record holds)."""
        if not isinstance(data, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in data
        ):
            raise UsageError("a placement is a list of columns, one per row")
        return Placement(data)

    def text(self, board: Board, data: Placement) -> str:
        return grid(board, {cell: "Q" for cell in enumerate(data)})


def feasibility_model(
    board: Board, givens: Sequence[Cell] = (), should_stop: Callable[[], bool] | None = None
) -> BoolModel:
    """The ``cells`` model of n peaceful queens on ``board`` keeping ``givens``, nothing to
    optimise: what the placement searches of the model backends (``models.cnf``,
    ``models.cpsat``, ``models.milp``) translate, so N-queens is stated here alone.
    ``should_stop``: asked while it is stated (LimitReached)."""
    stated = NQueens(None, givens).build(board, "cells", should_stop=should_stop)
    return stated.without_objective()
