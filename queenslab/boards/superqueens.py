"""Super-queens: each queen also moves like a knight (OEIS A051223, A051224 unique)."""

from queenslab.boards.base import Variant


class SuperQueens(Variant):
    name = "superqueens"
    summary = "queens also attack like a knight"
    leaps = ((1, -2), (1, 2), (2, -1), (2, 1))
    total_sequence = "A051223"
    unique_sequence = "A051224"
