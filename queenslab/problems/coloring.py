"""Colouring the queens graph: the fewest colours so that no two queens of one colour attack
each other (the chromatic number, OEIS A088202; the DIMACS instances queen5_5 ... queen16_16).

Only open cells are coloured: a blocked cell holds no queen, so it needs no colour, while
two open cells on a line through a blocked cell still attack (blocked cells do not shield).

The number of colours offered is the count of a greedy DSatur colouring (Brélaz 1979), and
every model also states the clique bound: a line's cells attack one another, so no fewer
colours than the longest line holds cells. Three formulations:

- ``precedence`` (the default): x[cell][k] (the cell takes colour k) and y[k] (colour k
  is used): each cell exactly one colour, each line and leap pair at most one cell per
  colour and only a used one; minimise the used colours, with value precedence (colour
  k + 1 first appears after colour k, cell by cell), which breaks the colour symmetry
  completely.
- ``assignment``: the same with the weaker textbook breaking, used colours in order
  (y[k] >= y[k+1]); the colours in use stay interchangeable, so it optimises but does not
  count: its solutions are labelled colourings, k! for each partition into k classes.
- ``representatives``: the asymmetric representatives formulation (Campêlo, Campos and
  Corrêa 2008): each colour class is represented by its first cell; r[u][v] says u
  represents v, with the edge inequalities lifted to the lines (cliques) of the board.
- ``exact-cover`` (Vasquez 2004), on a board without blocked cells: n colours exactly when
  the board splits into n disjoint n-queens solutions, searched for among those a
  symmetry group keeps (Vasquez and Habet 2004), then among all by dancing cells;
  a model of the cover when one exists, else ``precedence`` with the proven bound n + 1
  (``problems.coloring_exact_cover``).

Lex-leader symmetry breaking adds the board's symmetries to the first two. The vector is
read cell by cell, colours last to first, which makes value precedence the lex-leader
constraint of the colour renamings: both kinds of constraint keep the lex-least member of
every class, so together they stay sound (not complete: a board symmetry composed with a
renaming gets no constraint of its own, so a class may keep several colourings). The
representatives formulation takes none: a board symmetry does not map its variables onto
variables (the image of a class's first cell need not be first).
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
    LinExpr,
    Lit,
    ModelBuilder,
    ProblemKind,
    UsageError,
    Var,
    any_of,
    cell_images,
    cells_from_json,
    exactly_one,
    grid,
    neighbours,
    total,
)
from queenslab.problems import coloring_exact_cover as exact_cover


@dataclass(frozen=True)
class ColourClasses:
    """A colouring as its classes, ordered by their first cell (so equal colourings compare
    equal whatever their colour names)."""

    classes: tuple[frozenset[Cell], ...]

    @classmethod
    def of(cls, colour: Mapping[Cell, int]) -> ColourClasses:
        groups: dict[int, set[Cell]] = {}
        for cell, k in colour.items():
            groups.setdefault(k, set()).add(cell)
        return cls(tuple(sorted((frozenset(g) for g in groups.values()), key=min)))

    def colours(self) -> dict[Cell, int]:
        """Cell -> colour number (0 for the class of the first cell, and so on)."""
        return {cell: k for k, group in enumerate(self.classes) for cell in group}


def dsatur(board: Board) -> dict[Cell, int]:
    """A greedy colouring (Brélaz's DSatur): colour next the cell whose neighbours already
    show the most colours (then the one of most neighbours, then the first), with the
    lowest colour free there. Deterministic; an upper bound for the models."""
    near = neighbours(board)
    colour: dict[Cell, int] = {}
    seen: dict[Cell, set[int]] = {cell: set() for cell in near}
    order = {cell: i for i, cell in enumerate(near)}
    while len(colour) < len(near):
        cell = max(
            (c for c in near if c not in colour),
            key=lambda c: (len(seen[c]), len(near[c]), -order[c]),
        )
        k = next(k for k in range(len(near) + 1) if k not in seen[cell])
        colour[cell] = k
        for other in near[cell]:
            seen[other].add(k)
    return colour


def clique_bound(board: Board) -> int:
    """The most open cells on one line or leap pair: they need that many colours."""
    return max((len(group.cells) for group in board.groups()), default=1)


def _assignment(m: ModelBuilder, board: Board, cells: list[Cell], precedence: bool) -> Family[int]:
    """The assignment model; its ``used`` variables, one per colour offered."""
    colours = range(max(dsatur(board).values(), default=-1) + 1)
    x = m.family("x", ((cell, k) for cell in cells for k in colours), answer=True)
    used = m.family("used", colours)
    for cell in cells:
        m.add(exactly_one(x[cell, k] for k in colours))
    for group in board.groups():
        if group.cells:
            for k, y in used.items():
                m.add(total(x[cell, k] for cell in group.cells) - y <= 0)
    for k, y in used.items():
        m.add(y >> any_of(x[cell, k] for cell in cells))  # used only if some cell is
    if m.assume("colours-in-order", "the colours used are the first ones", kind="symmetry"):
        m.add(*(used[k - 1] | ~y for k, y in used.items() if k))
    _clique_bound(m, board, total(used.values()))
    m.minimise(total(used.values()))
    if precedence and m.assume("value-precedence", VALUE_PRECEDENCE, "Law and Lee 2004",
                               kind="symmetry"):  # fmt: skip
        _value_precedence(m, cells, x, len(colours))
    return used


#: Value precedence as the fact it states: every colouring has a renaming that meets it.
VALUE_PRECEDENCE = "colour k + 1 first appears on a cell after colour k's first"


def _clique_bound(m: ModelBuilder, board: Board, colours: LinExpr) -> None:
    """At least as many ``colours`` as the longest line has cells, an implied constraint."""
    lowest = clique_bound(board)
    fact = f"at least {lowest} colours (the cells of a line attack one another)"
    if m.assume("clique-bound", fact, kind="implied"):
        m.add(colours >= lowest)


def _value_precedence(
    m: ModelBuilder, cells: list[Cell], x: Family[tuple[Cell, int]], colours: int
) -> None:
    """Colour k > 0 only on a cell after one of colour k - 1: ``seen[k]`` per cell says the
    colour appeared up to there, defined both ways so it adds no solutions."""
    before: list[Lit] | None = None
    for cell in cells:
        for k in range(1, colours):
            m.add(x[cell, k] >> any_of(() if before is None else (before[k - 1],)))
        seen = list(m.family(f"seen_{cell[0]}_{cell[1]}", range(colours - 1)).values())
        for k, s in enumerate(seen):
            earlier = () if before is None else (before[k],)
            m.add(s >> any_of(x[cell, k], earlier))
            m.add(s | ~x[cell, k])
            if before is not None:
                m.add(s | ~before[k])
        before = seen


def representative_pairs(board: Board, cells: list[Cell]) -> list[tuple[Cell, Cell]]:
    """(u, v) with u no later than v and not attacking it: u may represent v's class."""
    near = neighbours(board)
    return [(u, v) for i, u in enumerate(cells) for v in cells[i:] if v not in near[u]]


def _representatives(m: ModelBuilder, board: Board, cells: list[Cell]) -> None:
    r = m.family("r", representative_pairs(board, cells), answer=True)
    by_cell: dict[Cell, list[Lit]] = {cell: [] for cell in cells}
    for (_, v), var in r.items():
        by_cell[v].append(var)
    for v in cells:
        m.add(exactly_one(by_cell[v]))
    groups = [group.cells for group in board.groups() if group.cells]
    for u in cells:
        for group in groups:  # a line is a clique: one represented cell at most, if u leads
            terms = [r[u, v] for v in group if v != u and (u, v) in r]
            if terms:
                m.add(total(terms) - r[u, u] <= 0)
    leaders = total(r[u, u] for u in cells)
    _clique_bound(m, board, leaders)
    m.minimise(leaders)


#: The exact-cover model's reformulation, as the fact it states.
EXACT_COVER = "n colours are n disjoint n-queens solutions covering the board, and fewer never do"

#: Models that take no lex-leader constraints, and why.
NO_LEX_LEADER = {
    "representatives": "the representatives model takes no lex-leader constraints "
    "(a board symmetry does not map its variables onto variables)",
    "exact-cover": "the exact-cover model takes no lex-leader constraints",
}


class Coloring(ProblemKind[ColourClasses]):
    name = "coloring"
    question = "fewest colours so that no two queens of one colour attack each other"
    sense = "min"
    variants = ALL_VARIANTS
    models: ClassVar[Mapping[str, str]] = {
        "precedence": "x[cell][colour] and used[colour], with value precedence on colours",
        "assignment": "x[cell][colour] and used[colour], used colours in order",
        "representatives": "Campêlo, Campos and Corrêa 2008: each class's first cell leads it",
        "exact-cover": "Vasquez 2004: n disjoint n-queens solutions, by dancing cells",
    }
    uncounted: ClassVar[Mapping[str, str]] = {
        "assignment": "labelled colourings (each partition once per order of its colours)"
    }
    value_sequences: ClassVar[Mapping[str, str]] = {"standard": "A088202"}
    #: about 18 n³ terms: n = 60 takes 3.9 million, 320 MB
    largest_model_n: ClassVar[int] = 100

    def build(
        self,
        board: Board,
        model: str,
        symmetry: str = "none",
        axioms: str = "all",
        should_stop: Callable[[], bool] | None = None,
    ) -> BoolModel:
        if symmetry == "lex-leader" and model in NO_LEX_LEADER:
            raise UsageError(NO_LEX_LEADER[model])
        return super().build(board, model, symmetry, axioms, should_stop)

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        cells = list(board.open_cells())
        if model == "representatives":
            _representatives(m, board, cells)
        elif model == "exact-cover" and m.assume("exact-cover", EXACT_COVER, "Vasquez 2004",
                                                 kind="theorem"):  # fmt: skip
            found = exact_cover.solutions(board)
            chosen = exact_cover.cover(board, found)
            if chosen is not None:
                exact_cover.build_cover(m, board, found, chosen)
            else:
                m.bool_model.name = f"{self.name}-precedence"  # with the bound the search proved
                used = _assignment(m, board, cells, precedence=True)
                fact = f"at least {board.n + 1} colours: no {board.n} disjoint solutions cover it"
                if m.assume("no-cover", fact, "this run's exact-cover search", kind="search"):
                    m.add(total(used.values()) >= board.n + 1)
        else:
            if model == "exact-cover":  # its reformulation left out (axioms="none")
                m.bool_model.name = f"{self.name}-precedence"
            _assignment(m, board, cells, precedence=model != "assignment")

    def break_symmetry(self, m: ModelBuilder, board: Board, model: str) -> None:
        """The board's symmetries on the vector read cell by cell, colours last to first."""
        bm = m.bool_model
        cells = list(board.open_cells())
        colours = len(bm.answer) // max(len(cells), 1)
        per_cell = [bm.answer[i * colours : (i + 1) * colours][::-1] for i in range(len(cells))]
        xs = [v for vs in per_cell for v in vs]
        for image in board.symmetries()[1:]:
            order = cell_images(board, cells, image)
            bm.lex_leq(xs, [v for i in order for v in per_cell[i]])

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> ColourClasses:
        cells = list(board.open_cells())
        if model.name.endswith("-exact-cover"):
            return ColourClasses.of(exact_cover.classes(model, values))
        if model.name.endswith("-representatives"):
            pairs = representative_pairs(board, cells)
            leader = {v: u for (u, v), var in zip(pairs, model.answer, strict=True) if values[var]}
            return ColourClasses.of({v: cells.index(u) for v, u in leader.items()})
        colours = len(model.answer) // max(len(cells), 1)
        return ColourClasses.of(
            {
                cell: next(k for k in range(colours) if values[model.answer[i * colours + k]])
                for i, cell in enumerate(cells)
            }
        )

    def encode(self, board: Board, model: BoolModel, answer: ColourClasses) -> dict[Var, bool]:
        """The answer variables of each formulation; none for a colouring with more colours
        than the model offers (its DSatur count), which a cutoff still uses."""
        cells = list(board.open_cells())
        if model.name.endswith("-exact-cover"):
            return exact_cover.encode(model, answer.classes)
        if model.name.endswith("-representatives"):
            leader = {cell: min(group) for group in answer.classes for cell in group}
            pairs = representative_pairs(board, cells)
            return {var: leader[v] == u for (u, v), var in zip(pairs, model.answer, strict=True)}
        colours = len(model.answer) // max(len(cells), 1)
        if len(answer.classes) > colours:
            return {}
        colour = answer.colours()
        return {
            model.answer[i * colours + k]: colour[cell] == k
            for i, cell in enumerate(cells)
            for k in range(colours)
        }

    def check(self, board: Board, answer: ColourClasses) -> str | None:
        coloured = [cell for group in answer.classes for cell in group]
        if len(coloured) != len(set(coloured)):
            return "a cell has two colours"
        for cell in coloured:
            if not board.is_open(*cell):
                return f"cell {cell[0]}:{cell[1]} is blocked or off the board, yet coloured"
        missing = set(board.open_cells()) - set(coloured)
        if missing:
            cell = min(missing)
            return f"cell {cell[0]}:{cell[1]} has no colour"
        n = board.n
        for k, group in enumerate(answer.classes):
            for family in board.families:
                lines: dict[int, Cell] = {}
                for cell in sorted(group):
                    other = lines.setdefault(family.key(n, *cell), cell)
                    if other != cell:
                        return (
                            f"cells {other[0]}:{other[1]} and {cell[0]}:{cell[1]} share colour "
                            f"{k} and a {family.name}"
                        )
            for r, c in sorted(group):
                for dr, dc in board.variant.leaps:
                    if (r + dr, c + dc) in group:
                        return f"cells {r}:{c} and {r + dr}:{c + dc} share colour {k} and a leap"
        return None

    def value(self, answer: ColourClasses) -> int:
        return len(answer.classes)

    def to_json(self, answer: ColourClasses) -> list[list[list[int]]]:
        return [[list(cell) for cell in sorted(group)] for group in answer.classes]

    def from_json(self, data: Any) -> ColourClasses:
        if not isinstance(data, list):
            raise UsageError("a coloring answer is a list of colour classes, each a list of cells")
        return ColourClasses(
            tuple(frozenset(cells_from_json(group, "a colour class")) for group in data)
        )

    def text(self, board: Board, data: list[list[list[int]]]) -> str:
        """Each open cell's colour as one character (0-9, then a-z, A-Z), x a blocked cell."""
        digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        marks = {
            (r, c): digits[colour] if colour < len(digits) else "#"
            for colour, cells in enumerate(data)
            for r, c in cells
        }
        return grid(board, marks)
