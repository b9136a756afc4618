"""Kinds stated as a user would, importing only the public namespace: total domination
(at most 25 lines, ruff- and mypy-clean) and a deliberately wrong model of n queens."""

from itertools import product

from queenslab.modelling import Board, Cell, ModelBuilder, ProblemKind, any_of, at_most_one


class TotalDomination(ProblemKind[frozenset[Cell]]):
    name = "public-total-domination"
    question = "fewest queens attacking every cell, the occupied ones included"
    sense = "min"
    models = ("cells",)

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        q = m.cells("q", board)
        for cell in product(range(board.n), repeat=2):
            m.add(any_of(q[o] for o in q if o != cell and board.attacks(o, cell)))
        m.minimise(sum(q.values()))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for r, c in product(range(board.n), repeat=2):
            if not any((a, b) != (r, c) and (a == r or b == c or abs(a - r) == abs(b - c))
                       for a, b in answer):  # fmt: skip
                return f"cell {(r, c)} is not attacked"
        return None


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
