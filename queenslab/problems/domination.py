"""Queens domination: the fewest queens that occupy or attack every cell of the board.

The domination number of the queens graph (OEIS A075458; on the torus A279402; the number
of minimum dominating sets A002564). Studied by Kearse and Gibbons (2001), Östergård and
Weakley (2001) and Bird (2017).

Blocked cells: a blocked cell holds no queen but must still be dominated; a queen attacks
it, and the cells behind it, along a line through it (``boards.graph``).

Three models, all minimising the number of queens over a variable per open cell:

- ``cells``: a clause per cell of the board saying that one of the cells reaching it
  (``boards.graph.reach``) holds a queen, about 4n literals long;
- ``lines``: a variable per line saying that it holds a queen (defined both ways, so it
  is determined by the queens), and a clause per cell over its four lines and the cells a
  leap away: short clauses, on which unit propagation does more. Each queen is on one
  line of each family, so each family holds at most as many lines as there are queens:
  stated as sums beneath the objective (``ModelBuilder.at_most_objective``), every bound
  on the queens bounds the lines held in each family too: a count a SAT solver cannot
  derive from the clauses, which turns its minutes into seconds (docs/problems.md);
- ``hilbert``: ``cells``, with the queens counted in the order of a Hilbert curve over the
  board (``boards.hilbert``), so that a SAT backend's totalizer counts neighbouring cells
  together: the literal order of Rostami and Bright, "Queen Domination by SAT Solving"
  (2025; their published encoder keeps the cells' variables row by row and orders only
  the cardinality constraint's literals, as here).

Every model states the proven lower bound on the number of queens where it is a theorem
(``lower_bound``): a valid inequality, so the optima and their number stay the same. It
and the line model's sums are facts beyond the board's rules, each stated through
``ModelBuilder.assume``: a proof of a no names them, and ``axioms="none"`` leaves them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from queenslab.modelling import (
    ALL_VARIANTS,
    Board,
    Cell,
    Family,
    LineId,
    Lit,
    ModelBuilder,
    ProblemKind,
    all_cells,
    any_of,
    hilbert_order,
    leap_reach,
    lines_through,
    open_lines,
    reach,
    total,
)


def _unreached(cell: Cell) -> str:
    return f"no open cell reaches cell {cell[0]}:{cell[1]}, so no queens dominate the board"


def lower_bound(board: Board) -> int:
    """The fewest queens that can dominate ``board`` by a theorem; 0 where none applies.

    On the standard n x n board without blocked cells: at least (n - 1)/2 (Spencer's
    bound, proved in E. J. Cockayne, "Chessboard domination problems", 1990, and W. D.
    Weakley, "Domination in the queen's graph", 1995), and at least ceil(n/2) for every n
    but 3 and 11 (D. Finozhenok and W. D. Weakley, "An improved lower bound for domination
    numbers of the queen's graph", Australas. J. Combin. 37, 2007). Not a theorem on the
    torus, with super-queens' leaps or on blocked boards, so none is stated there.
    """
    if board.variant.name != "standard" or board.blocked:
        return 0
    n = board.n
    return n // 2 if n in (3, 11) else (n + 1) // 2


#: The line model's sums beneath the objective, as the fact they state.
LINES_HELD = (
    "each family of lines has at most as many lines holding a queen as there are queens "
    "(a queen is on one line of each)"
)


def _bound_source(n: int) -> str:
    """Where ``lower_bound``'s value at ``n`` is proven."""
    if n in (3, 11):
        return "Spencer's bound: Cockayne 1990; Weakley 1995"
    return "Finozhenok and Weakley 2007"


class Domination(ProblemKind[frozenset[Cell]]):
    name = "domination"
    question = "fewest queens that occupy or attack every cell"
    sense = "min"
    variants = ALL_VARIANTS
    models: ClassVar[Mapping[str, str]] = {
        "cells": "one variable per open cell, one covering clause per cell",
        "lines": "cells, plus a variable per line saying it holds a queen: short covering clauses",
        "hilbert": "cells, the queens counted along a Hilbert curve (Rostami and Bright's order)",
    }
    value_sequences: ClassVar[Mapping[str, str]] = {"standard": "A075458", "toroidal": "A279402"}
    count_sequences: ClassVar[Mapping[str, str]] = {"standard": "A002564"}

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        queen = m.cells("q", board)
        held: dict[LineId, Lit] = {}
        if model == "lines":
            held = self._cover_by_lines(m, board, queen)
        else:
            for cell, near in reach(board).items():
                m.add(any_of(queen[other] for other in sorted(near)), why=_unreached(cell))
        self.restrict(m, board, queen)
        counted = hilbert_order(queen) if model == "hilbert" else list(queen)
        queens = total(queen[cell] for cell in counted)
        lowest = lower_bound(board)
        theorem = f"every dominating set has at least {lowest} queens"
        if lowest and m.assume("lower-bound", theorem, _bound_source(board.n), kind="theorem"):
            m.add(queens >= lowest)
        m.minimise(queens)
        families = sorted({line[0] for line in held})
        if families and m.assume("lines-held", LINES_HELD, kind="implied"):
            for family in families:
                m.at_most_objective(total(o for line, o in held.items() if line[0] == family))

    def _cover_by_lines(
        self, m: ModelBuilder, board: Board, queen: Family[Cell]
    ) -> dict[LineId, Lit]:
        """A variable per line that has open cells, true exactly when the line holds a
        queen; each cell is covered by one of its lines or a queen a leap away. The
        line variables, by line."""
        held = {}
        for line, members in open_lines(board).items():
            o = held[line] = m.var(f"line_{line[0]}_{line[1]}_held")
            m.add(o >> any_of(queen[cell] for cell in members))
            m.add(*(queen[cell] >> o for cell in members))
        for cell in all_cells(board):
            through = [held[line] for line in lines_through(board, cell) if line in held]
            leaps = (queen[other] for other in leap_reach(board, cell))
            m.add(any_of(through, leaps), why=_unreached(cell))
        return held

    def restrict(self, m: ModelBuilder, board: Board, queen: Family[Cell]) -> None:
        """More rules on the queens (a variant of the question adds them here)."""

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for queen in answer:
            if not board.is_open(*queen):
                return f"queen {queen[0]}:{queen[1]} is on a blocked or missing cell"
        for cell in all_cells(board):
            if cell not in answer and not any(board.attacks(q, cell) for q in answer):
                return f"cell {cell[0]}:{cell[1]} is neither occupied nor attacked"
        return None
