"""What a problem kind declares: its question, models, checker and published values.

A kind is the question asked of a board: place n peaceful queens (``placement``), dominate
every cell with the fewest queens (``domination``), and so on. It knows nothing of
solvers: it builds ``BoolModel``s (one per formulation the literature compares), reads
an answer back from a solution's values, and checks an answer with a checker of its own
that shares no code with the models, so a wrong model can never vouch for itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from queenslab.boards import Board, Cell
from queenslab.boards.symmetry import Symmetry
from queenslab.problems.model import BoolModel, Sense

#: ``--symmetry`` choices: every model takes them.
SYMMETRY_CHOICES = ("none", "lex-leader")


class ProblemKind:
    """Base class: subclasses set the class attributes and implement the methods."""

    name: ClassVar[str]
    question: ClassVar[str]
    sense: ClassVar[Sense]
    #: Formulations, the default first: name -> one line on where it comes from.
    models: ClassVar[Mapping[str, str]]
    #: Board variant -> OEIS id of the optimum's value, and of the number of optima.
    value_sequences: ClassVar[Mapping[str, str]] = {}
    count_sequences: ClassVar[Mapping[str, str]] = {}
    #: Whether blocked cells make sense for this question (else they are refused).
    takes_blocked: ClassVar[bool] = True

    def build(self, board: Board, model: str, symmetry: str = "none") -> BoolModel:
        """The 0-1 model of this question on ``board``, with symmetry breaking when asked."""
        raise NotImplementedError

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> Any:
        """The answer a solution's values describe (cells, armies, colours...)."""
        raise NotImplementedError

    def check(self, board: Board, answer: Any) -> str | None:
        """None when ``answer`` answers the question on ``board``, else what is wrong."""
        raise NotImplementedError

    def value(self, answer: Any) -> int:
        """The objective's value of a checked answer (queens, army size, colours)."""
        raise NotImplementedError

    def to_json(self, answer: Any) -> Any:
        """The answer as JSON data (lists of [row, col] cells, colour grids)."""
        raise NotImplementedError


def cell_images(board: Board, cells: Sequence[Cell], symmetry: Symmetry) -> list[int]:
    """For each of ``cells``, the index in ``cells`` of its image under ``symmetry``.

    ``cells`` must be closed under the board's symmetries (all cells, or the open ones):
    a lex-leader constraint compares a variable vector with its permuted self.
    """
    index = {cell: i for i, cell in enumerate(cells)}
    return [index[symmetry.cell(board.n, r, c)] for r, c in cells]
