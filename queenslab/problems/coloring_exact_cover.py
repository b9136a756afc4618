"""Colouring as exact cover (Vasquez 2004): n colours exactly when the board splits into n
disjoint n-queens solutions.

Sound on a board without blocked cells, of any variant: each row is a line of n cells, so
no colouring takes fewer than n colours, and in an n-colouring every class takes one cell
of each row, n queens no two of which attack: a solution of the variant. Conversely n
disjoint solutions cover the n² cells, one colour each.

The solutions come from the reference enumerator (``exact.backtracking``); the search for
n disjoint ones tries the colourings a symmetry group keeps first (Vasquez and Habet
2004, ``coloring_symmetric``: standard boards), then every cover, by dancing cells with
restarts (``exact.dancing_cells``). The model built depends on the outcome, and both are
models of the whole colouring question, so every backend's status words stay exact:

- a cover exists: one variable per solution (its cells are a colour class), each cell
  covered exactly once; every answer takes n colours, the clique bound, so the first
  answer is proven optimal, and counting counts the colourings (as classes, like the
  other models);
- none exists (proven by the exhausted search): the ``precedence`` model with the bound
  it proved, at least n + 1 colours.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from queenslab.boards import DEFAULT_VARIANT
from queenslab.core.problem import Problem
from queenslab.exact import backtracking
from queenslab.modelling import (
    Board,
    BoolModel,
    Cell,
    Lit,
    ModelBuilder,
    UsageError,
    Var,
    exactly_one,
    total,
)

PREFIX = "s"


def solutions(board: Board) -> list[tuple[int, ...]]:
    """The n-queens solutions of the board's variant, as columns row by row."""
    if board.blocked:
        raise UsageError(
            "the exact-cover model needs a board without blocked cells (a row with a "
            "blocked cell no longer forces n colours, nor full solutions as classes)"
        )
    return list(backtracking.search(Problem(board.n, variant=board.variant.name)))


def cells(cols: tuple[int, ...]) -> list[Cell]:
    return list(enumerate(cols))


def cover(board: Board, found: list[tuple[int, ...]]) -> list[int] | None:
    """The indices of n solutions in ``found`` that cover the board, each cell once; None
    when there are none (a proof). Pólya's translates first: when the n placements
    c = a r + b (mod n), b = 0 .. n - 1, are solutions for some a, they are a cover (on the
    square for n prime to 6, Pólya 1918); then a cover a symmetry group keeps, on the
    standard board; else the search over every cover, whose None is the proof."""
    n = board.n
    index = {cols: i for i, cols in enumerate(found)}
    for a in range(n):
        shifts = [tuple((a * r + b) % n for r in range(n)) for b in range(n)]
        if all(cols in index for cols in shifts):
            return [index[cols] for cols in shifts]
    # here: Numba would slow every command's start
    from queenslab.exact import dancing_cells
    from queenslab.problems import coloring_symmetric

    if board.variant.name == DEFAULT_VARIANT and n <= coloring_symmetric.MAX_N:
        folded = coloring_symmetric.search(n)
        if folded is not None:
            return [index[cols] for cols in folded]
    rows = [[r * n + c for r, c in cells(cols)] for cols in found]
    return dancing_cells.first_cover(rows, n * n)[0]


def build_cover(
    m: ModelBuilder, board: Board, found: list[tuple[int, ...]], chosen_cover: list[int]
) -> None:
    """One variable per solution, named by its columns; each cell covered exactly once;
    ``chosen_cover`` (indices into ``found``) is the answer the building found. Every cover
    takes n solutions (the clique bound: a row's n cells attack each other), so the model
    states it: a solver that reads stated bounds (sat's descent) stops at the first cover,
    which is optimal, instead of refuting n - 1 colours by search; and with the cover
    found, a backend starts from it and stops at once."""
    chosen = m.family(PREFIX, found, answer=True)
    covering: dict[Cell, list[Lit]] = {cell: [] for cell in board.open_cells()}
    for cols, var in chosen.items():
        for cell in cells(cols):
            covering[cell].append(var)
    for variables in covering.values():
        m.add(exactly_one(variables))
    m.add(total(chosen.values()) >= board.n)
    m.minimise(total(chosen.values()))
    m.found(chosen[found[i]] for i in chosen_cover)


def classes(model: BoolModel, values: Sequence[bool]) -> dict[Cell, int]:
    """Cell -> colour of a cover model's answer: the chosen solutions, one colour each."""
    colour: dict[Cell, int] = {}
    chosen = [model.names[v] for v in model.answer if values[v]]
    for k, name in enumerate(chosen):
        colour.update({cell: k for cell in cells(_columns(name))})
    return colour


def encode(model: BoolModel, classes: Collection[frozenset[Cell]]) -> dict[Var, bool]:
    """A cover model's variables for a colouring: a solution is chosen when it is a class."""
    wanted = set(classes)
    return {v: frozenset(cells(_columns(model.names[v]))) in wanted for v in model.answer}


def _columns(name: str) -> tuple[int, ...]:
    """The columns a solution's variable is named by (``build_cover``)."""
    return tuple(int(c) for c in name.split("_")[1:])
