"""Kinds written as a user would, outside the package: the modelling API's tests solve them
on every translator, and tests/harness/conftest.py registers them, so the kinds' harness
runs them on every model backend against their own brute force (``ProblemKind.candidates``
filtered by their own ``check``)."""

from __future__ import annotations

from itertools import product

from queenslab.modelling import ALL_VARIANTS, Board, Cell, ModelBuilder, ProblemKind, any_of
from tests.oracle import attack


class TotalDomination(ProblemKind):
    """Fewest queens such that every cell, occupied or not, is attacked by a queen."""

    name = "total-domination"
    question = "fewest queens attacking every cell, the occupied ones included"
    sense = "min"
    variants = ALL_VARIANTS  # its checker takes every board's geometry (tests/oracle.py)

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        q = m.cells("q", board)
        for cell in product(range(board.n), repeat=2):
            attackers = (q[o] for o in q if o != cell and board.attacks(o, cell))
            m.add(any_of(attackers), why=f"no queen can attack {cell}")
        m.minimise(sum(q.values()))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        """With tests/oracle.py's geometry, not the board's: the model uses the board's."""
        if not answer <= set(board.open_cells()):
            return "a queen off the open cells"
        n, variant = board.n, board.variant.name
        for cell in product(range(n), repeat=2):
            if not any(q != cell and attack(n, variant, q, cell) for q in answer):
                return f"cell {cell} is not attacked"
        return None
