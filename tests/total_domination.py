"""Total domination stated as a user would, importing only the public namespace: the whole
file, this docstring aside, is at most 25 lines, ruff- and mypy --strict-clean."""

from queenslab.modelling import Board, Cell, ModelBuilder, ProblemKind, all_cells, any_of


class TotalDomination(ProblemKind[frozenset[Cell]]):
    name = "public-total-domination"
    question = "fewest queens attacking every cell, the occupied ones included"
    sense = "min"
    models = ("cells",)

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        q = m.cells("q", board)
        for cell in all_cells(board):
            m.add(any_of(q[o] for o in q if o != cell and board.attacks(o, cell)))
        m.minimise(sum(q.values()))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for r, c in all_cells(board):
            if not any((a, b) != (r, c) and (a == r or b == c or abs(a - r) == abs(b - c))
                       for a, b in answer):  # fmt: skip
                return f"cell {(r, c)} is not attacked"
        return None
