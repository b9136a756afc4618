"""The public modelling namespace: everything a problem kind needs, the user's and the
package's own alike.

Why one namespace: a question stated outside the package should import nothing internal,
and the built-in kinds (``queenslab.problems``) import only from here, so anything a
built-in kind needs is here for a user too. It sits just above the board and core layers
and imports nothing else.

A kind in brief (docs/modelling.md)::

    from queenslab.modelling import Board, Cell, ModelBuilder, ProblemKind, any_of

    class TotalDomination(ProblemKind[frozenset[Cell]]):
        name = "total-domination"
        question = "fewest queens attacking every cell"
        sense = "min"

        def state(self, m: ModelBuilder, board: Board, model: str) -> None: ...
        def check(self, board: Board, answer: frozenset[Cell]) -> str | None: ...
"""

from queenslab.boards import DEFAULT_VARIANT, VARIANTS, Board, Cell, Line, LineFamily
from queenslab.boards.graph import (
    LineId,
    leap_reach,
    lines_through,
    neighbours,
    open_lines,
    reach,
)
from queenslab.boards.graph import cells as all_cells
from queenslab.boards.hilbert import hilbert_order
from queenslab.core.errors import KindError, ModelMismatch, UsageError
from queenslab.core.expressions import (
    Clause,
    Constraint,
    Family,
    LinExpr,
    Lit,
    ModelBuilder,
    any_of,
    at_most_one,
    exactly_one,
    total,
)
from queenslab.core.kind import (
    ALL_VARIANTS,
    ProblemKind,
    cell_images,
    cells_from_json,
    encode_cells,
    grid,
    lex_leader,
)
from queenslab.core.model import BoolModel, Sense, Var
from queenslab.core.placement import Placement

__all__ = [
    "ALL_VARIANTS",
    "DEFAULT_VARIANT",
    "VARIANTS",
    "Board",
    "BoolModel",
    "Cell",
    "Clause",
    "Constraint",
    "Family",
    "KindError",
    "LinExpr",
    "Line",
    "LineFamily",
    "LineId",
    "Lit",
    "ModelBuilder",
    "ModelMismatch",
    "Placement",
    "ProblemKind",
    "Sense",
    "UsageError",
    "Var",
    "all_cells",
    "any_of",
    "at_most_one",
    "cell_images",
    "cells_from_json",
    "encode_cells",
    "exactly_one",
    "grid",
    "hilbert_order",
    "leap_reach",
    "lex_leader",
    "lines_through",
    "neighbours",
    "open_lines",
    "reach",
    "total",
]
