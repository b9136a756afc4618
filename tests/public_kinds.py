"""Kinds stated wrongly as a user might, importing only the public namespace: the solvers
must never be blamed for them (tests/unit/test_public_modelling.py)."""

from itertools import product

from queenslab.modelling import (
    Board,
    Cell,
    ModelBuilder,
    ProblemKind,
    any_of,
    at_most_one,
)


class RooksAsQueens(ProblemKind[frozenset[Cell]]):
    """n queens, modelled wrongly: the diagonals are forgotten, so rooks' answers come back
    and the checker (queens attack diagonally) rejects them."""

    name = "rooks-as-queens"
    question = "n non-attacking queens (a wrong model: no diagonals)"

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        q = m.cells("q", board)
        for i in range(board.n):
            m.add(any_of(q[i, c] for c in range(board.n)))
            m.add(at_most_one(q[i, c] for c in range(board.n)))
            m.add(at_most_one(q[r, i] for r in range(board.n)))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for (a, b), (c, d) in product(answer, repeat=2):
            if (a, b) < (c, d) and (a == c or b == d or abs(a - c) == abs(b - d)):
                return f"queens {(a, b)} and {(c, d)} attack each other"
        return None if len(answer) == board.n else f"{len(answer)} queens, not {board.n}"


class Unmeasured(RooksAsQueens):
    """Says it minimises, but its model states no objective."""

    name = "unmeasured"
    sense = "min"


class BrokenState(RooksAsQueens):
    name = "broken-state"

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        raise ValueError("a bug in the user's model")


class BrokenCheck(RooksAsQueens):
    name = "broken-check"

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        raise ZeroDivisionError("a bug in the user's checker")


class NoCells(RooksAsQueens):
    """Its variables are no cells, and it writes no decode of its own."""

    name = "no-cells"

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        m.add(m.var("x"))


class Nothing(RooksAsQueens):
    """States no variables at all."""

    name = "nothing"

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        pass


#: Every wrong kind here, with the words its one-line error must contain.
WRONG = {
    RooksAsQueens: "model admits an answer its checker rejects",
    Unmeasured: "states no objective",
    BrokenState: "state raised ValueError: a bug in the user's model",
    BrokenCheck: "check raised ZeroDivisionError",
    NoCells: "the default decode takes one a cell",
    Nothing: "states no variables",
}
