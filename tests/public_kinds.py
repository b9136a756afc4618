"""Kinds stated as a user might, importing only the public namespace: n rooks, a question
without an objective, and kinds stated wrongly, for which the solvers must never be blamed
(tests/unit/test_public_modelling.py, tests/unit/test_translators.py)."""

from itertools import product

from queenslab.modelling import Board, Cell, ModelBuilder, ProblemKind, exactly_one


class Rooks(ProblemKind[frozenset[Cell]]):
    """n rooks, one in each row and column: a question without an objective."""

    name = "rooks"
    question = "n rooks, one in each row and column"

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        rook = m.cells("rook", board)
        for i in range(board.n):
            m.add(exactly_one(rook[i, c] for c in range(board.n)))
            m.add(exactly_one(rook[r, i] for r in range(board.n)))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        rows, columns = (sorted(cell[axis] for cell in answer) for axis in (0, 1))
        return None if rows == columns == list(range(board.n)) else "not one a row and column"


class RooksAsQueens(Rooks):
    """n queens, modelled wrongly: the rooks' model, which forgets the diagonals, so rooks'
    answers come back and the checker (queens attack diagonally) rejects them."""

    name = "rooks-as-queens"
    question = "n non-attacking queens (a wrong model: no diagonals)"

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
