"""Peaceable armies of queens: the largest m such that m white and m black queens share the
board with no queen attacking one of the other colour (CSPLib 110, OEIS A250000).

Queens of one colour may attack each other; only cross-colour attacks are forbidden. A
blocked cell holds no queen, but (as everywhere in queenslab) a line through it still
attacks: blocked cells do not shield.

Four formulations, which the literature compares (Bosch 1999; Smith, Petrie and Gent 2004):

- ``lines``: a white and a black variable per cell, and per line (row, column, diagonal)
  a flag saying it holds a white queen and one saying it holds a black queen, never both;
  O(n^2) constraints instead of the O(n^3) attacking pairs.
- ``basic``: a white and a black variable per cell; for every attacking pair of cells,
  not white on one and black on the other.
- ``white-only``: only the white queens are chosen; a cell is black exactly when no white
  queen occupies or attacks it, and the armies compare by count (at least as many black
  cells as white queens; the answer keeps m of them). It optimises but does not count:
  its solutions are white armies, each standing for every black army its free cells allow.
- ``bosch``: the MILP of Bosch's article: for each cell and each line through it, a big-M
  constraint aggregating the line's white queens (none of them when the cell is black).

Every formulation maximises the white army with equal armies as a linear constraint.
Lex-leader symmetry breaking covers the board's own symmetries and the colour swap (the
white-only formulation has no colour swap: its black cells are forced).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from queenslab.modelling import (
    ALL_VARIANTS,
    Board,
    BoolModel,
    Cell,
    Family,
    Line,
    Lit,
    ModelBuilder,
    ProblemKind,
    UsageError,
    Var,
    any_of,
    at_most_one,
    cell_images,
    cells_from_json,
    grid,
    total,
)


@dataclass(frozen=True)
class Armies:
    """A white and a black army (sets of cells)."""

    white: frozenset[Cell]
    black: frozenset[Cell]


def attacking_groups(board: Board) -> list[Line]:
    """Groups of open cells that attack one another: lines of two cells or more, leap pairs."""
    return [group for group in board.groups() if len(group.cells) > 1]


def line_flags(
    m: ModelBuilder, groups: Sequence[Line], cell_var: Family[Cell], tag: str
) -> Family[str]:
    """Per group, a variable that is true exactly when one of its cells' variables is.

    Defined both ways (not only "a queen implies the flag"), so a flag is determined by
    the queens and never multiplies the solutions a counter sees.
    """
    flags = {}
    for group in groups:
        flag = flags[group.name] = m.var(f"{tag}_{group.name}")
        members = [cell_var[cell] for cell in group.cells]
        m.add(*(v >> flag for v in members))
        m.add(flag >> any_of(members))
    return Family(tag, flags)


Build = Callable[[ModelBuilder, Board, Family[Cell], Family[Cell]], None]


def _basic(m: ModelBuilder, board: Board, white: Family[Cell], black: Family[Cell]) -> None:
    pairs = {
        (a, b)
        for group in attacking_groups(board)
        for i, a in enumerate(group.cells)
        for b in group.cells[i + 1 :]
    }
    for cell in white:
        m.add(~white[cell] | ~black[cell])
    for a, b in sorted(pairs):
        m.add(~white[a] | ~black[b], ~white[b] | ~black[a])


def _lines(m: ModelBuilder, board: Board, white: Family[Cell], black: Family[Cell]) -> None:
    groups = attacking_groups(board)
    has_white = line_flags(m, groups, white, "white")
    has_black = line_flags(m, groups, black, "black")
    for cell in white:  # a cell alone on all its lines has no flag to keep its colours apart
        m.add(~white[cell] | ~black[cell])
    for name, flag in has_white.items():
        m.add(~flag | ~has_black[name])


def _white_only(m: ModelBuilder, board: Board, white: Family[Cell], black: Family[Cell]) -> None:
    groups = attacking_groups(board)
    has_white = line_flags(m, groups, white, "white")
    through: dict[Cell, list[Lit]] = {cell: [white[cell]] for cell in white}
    for group in groups:
        for cell in group.cells:
            through[cell].append(has_white[group.name])
    for cell, reaching in through.items():  # black <-> no white flag through the cell
        m.add(*(black[cell] >> ~v for v in reaching))
        m.add(black[cell] | any_of(reaching))


def _bosch(m: ModelBuilder, board: Board, white: Family[Cell], black: Family[Cell]) -> None:
    for cell in white:
        m.add(at_most_one([white[cell], black[cell]]))
    for group in attacking_groups(board):
        for cell in group.cells:
            others = [white[other] for other in group.cells if other != cell]
            big_m = len(others)  # sum(white on the line but here) <= M * (1 - black here)
            m.add(total(others) + big_m * black[cell] <= big_m)


@dataclass(frozen=True)
class Formulation:
    summary: str
    build: Build
    #: Black cells are every free cell: armies compare by count, and swapping the colours
    #: is no symmetry of the model.
    black_forced: bool = False


FORMULATIONS: dict[str, Formulation] = {
    "lines": Formulation(
        "Smith, Petrie and Gent 2004: white/black flags per line, never both", _lines
    ),
    "basic": Formulation("a white and a black variable per cell, no cross-attacking pair", _basic),
    "white-only": Formulation(
        "Smith, Petrie and Gent 2004: black = every cell no white queen reaches", _white_only, True
    ),
    "bosch": Formulation("Bosch 1999: per cell and line, a big-M bound on white queens", _bosch),
}


class Peaceable(ProblemKind[Armies]):
    name = "peaceable"
    question = "largest m: m white and m black queens, no queen attacking the other colour"
    sense = "max"
    variants = ALL_VARIANTS
    models: ClassVar[Mapping[str, str]] = {
        name: formulation.summary for name, formulation in FORMULATIONS.items()
    }
    uncounted: ClassVar[Mapping[str, str]] = {
        "white-only": "white armies (not white and black pairs: its black cells are forced)"
    }
    value_sequences: ClassVar[Mapping[str, str]] = {"standard": "A250000"}
    #: the basic model's two clauses per attacking pair: about 12 n³ literals
    largest_model_n: ClassVar[int] = 120
    broken_symmetries = "the board's symmetries, each also with the colour swap"

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        formulation = FORMULATIONS[model]
        white, black = m.cells("w", board), m.cells("b", board)
        formulation.build(m, board, white, black)
        difference = total(white.values()) - total(black.values())
        if formulation.black_forced:
            m.add(difference <= 0)  # at least as many black cells as white queens
        else:
            m.add(difference == 0)
        m.maximise(sum(white.values()))

    def break_symmetry(self, m: ModelBuilder, board: Board, model: str) -> None:
        """Lex-leader over the board's symmetries, each also composed with the colour swap.

        The vector is the white army then the black one; an image permutes the cells of
        both (and, with the swap, exchanges the halves). Every member of the group gets
        its constraint, so the orbit's lex-least solution survives.
        """
        white, black = m.cell_families
        cells = list(white)
        ws, bs = list(white.values()), list(black.values())
        xs = ws + bs
        swap = not FORMULATIONS[model].black_forced
        for index, image in enumerate(board.symmetries()):
            order = cell_images(board, cells, image)
            moved_w, moved_b = [ws[i] for i in order], [bs[i] for i in order]
            if index:  # the identity alone gives nothing
                m.lex_leq(xs, moved_w + moved_b)
            if swap:
                m.lex_leq(xs, moved_b + moved_w)

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> Armies:
        cells = list(board.open_cells())
        whites, blacks = model.answer[: len(cells)], model.answer[len(cells) :]
        white = [cell for cell, v in zip(cells, whites, strict=True) if values[v]]
        black = [cell for cell, v in zip(cells, blacks, strict=True) if values[v]]
        return Armies(frozenset(white), frozenset(black[: len(white)]))

    def encode(self, board: Board, model: BoolModel, answer: Armies) -> dict[Var, bool]:
        """Both armies cell by cell; the white army alone in ``white-only``, whose black
        cells follow from it (the answer keeps only some of them)."""
        cells = list(board.open_cells())
        whites, blacks = model.answer[: len(cells)], model.answer[len(cells) :]
        values = {v: cell in answer.white for cell, v in zip(cells, whites, strict=True)}
        if not FORMULATIONS[model.name.removeprefix(f"{self.name}-")].black_forced:
            values.update({v: cell in answer.black for cell, v in zip(cells, blacks, strict=True)})
        return values

    def check(self, board: Board, answer: Armies) -> str | None:
        if len(answer.white) != len(answer.black):
            return f"{len(answer.white)} white queens against {len(answer.black)} black"
        for cell in answer.white | answer.black:
            if not board.is_open(*cell):
                return f"queen {cell[0]}:{cell[1]} is on a blocked or missing cell"
        both = answer.white & answer.black
        if both:
            cell = min(both)
            return f"cell {cell[0]}:{cell[1]} holds a white and a black queen"
        n = board.n
        for family in board.families:
            white_lines = {family.key(n, *cell) for cell in answer.white}
            for cell in sorted(answer.black):
                if family.key(n, *cell) in white_lines:
                    return f"black queen {cell[0]}:{cell[1]} is attacked along a {family.name}"
        for r, c in sorted(answer.white):
            for dr, dc in board.variant.leaps:
                for other in ((r + dr, c + dc), (r - dr, c - dc)):
                    if other in answer.black:
                        return f"white {r}:{c} and black {other[0]}:{other[1]} attack by a leap"
        return None

    def value(self, answer: Armies) -> int:
        return len(answer.white)

    def to_json(self, answer: Armies) -> dict[str, list[list[int]]]:
        return {
            "white": [list(cell) for cell in sorted(answer.white)],
            "black": [list(cell) for cell in sorted(answer.black)],
        }

    def from_json(self, data: Any) -> Armies:
        if not isinstance(data, dict) or set(data) != {"white", "black"}:
            raise UsageError('a peaceable answer is {"white": [cells], "black": [cells]}')
        return Armies(
            frozenset(cells_from_json(data["white"], "the white army")),
            frozenset(cells_from_json(data["black"], "the black army")),
        )

    def text(self, board: Board, data: dict[str, list[list[int]]]) -> str:
        """W a white queen, B a black one, x a blocked cell, . any other."""
        marks = {(r, c): "W" for r, c in data["white"]}
        marks.update({(r, c): "B" for r, c in data["black"]})
        return grid(board, marks)
