"""The problem kinds by brute force, sharing no code with queenslab (tests/oracle.py's
pairwise ``attack`` is the only rule of the board here): optima and their numbers for
boards of up to 25 cells, and a checker of answers as the API returns them (JSON data).

The rules: a queen stands on an open cell and reaches its own cell and every cell it
attacks, through blocked cells too; domination reaches every cell of the board;
peaceable armies are equal and never attack across colours; a colouring colours the open
cells, and only them.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from tests.oracle import attack

Cell = tuple[int, int]
#: Sizes small enough for every brute force below.
MAX_N = 5
#: The kinds written out below (the built-in ones but placement, which tests/oracle.py
#: checks); the harness tests any other kind by its own brute force (kind_brute_force.py).
KINDS = ("domination", "independent-domination", "peaceable", "coloring")


def _cells(n: int) -> list[Cell]:
    return [(r, c) for r in range(n) for c in range(n)]


def _open(n: int, blocked) -> list[Cell]:
    return [cell for cell in _cells(n) if cell not in set(blocked)]


def _reaches(n: int, variant: str, q: Cell, cell: Cell) -> bool:
    return q == cell or attack(n, variant, q, cell)


@cache
def optimum(kind: str, n: int, variant: str = "standard", blocked=()) -> tuple[int | None, int]:
    """(the optimum, the number of optimal answers); (None, 0) when there is no answer.

    Answers are what every model must count: sets of queens; (white army, black army)
    pairs; colourings as partitions into unlabelled classes (never labelled colourings).
    """
    assert n <= MAX_N, "brute force only"
    blocked = tuple(sorted(blocked))
    if kind in ("domination", "independent-domination"):
        return _domination(n, variant, blocked, kind == "independent-domination")
    if kind == "peaceable":
        return _peaceable(n, variant, blocked)
    if kind == "coloring":
        return _coloring(n, variant, blocked)
    raise ValueError(kind)


def _independent(n: int, variant: str, queens) -> bool:
    return not any(attack(n, variant, a, b) for a, b in combinations(queens, 2))


def _domination(n: int, variant: str, blocked, independent: bool) -> tuple[int | None, int]:
    every, spots = _cells(n), _open(n, blocked)
    for k in range(len(spots) + 1):
        found = sum(
            1
            for queens in combinations(spots, k)
            if all(any(_reaches(n, variant, q, cell) for q in queens) for cell in every)
            and (not independent or _independent(n, variant, queens))
        )
        if found:
            return k, found
    return None, 0


def _peaceable(n: int, variant: str, blocked) -> tuple[int, int]:
    """The largest m with m white queens leaving m cells no white queen reaches; a
    smaller white army leaves at least as many, so m grows until no m-subset does."""
    spots = _open(n, blocked)

    def free(white) -> list[Cell]:
        return [cell for cell in spots if not any(_reaches(n, variant, q, cell) for q in white)]

    def pairs(m: int) -> int:
        return sum(_choose(len(free(white)), m) for white in combinations(spots, m))

    m = 0
    while m < len(spots) and pairs(m + 1):
        m += 1
    return m, pairs(m)


def _choose(a: int, b: int) -> int:
    from math import comb

    return comb(a, b) if a >= b else 0


def _coloring(n: int, variant: str, blocked) -> tuple[int, int]:
    """The fewest colours, and the partitions of the open cells into that many classes."""
    spots = _open(n, blocked)
    for k in range(len(spots) + 1):
        found = _partitions(n, variant, spots, k)
        if found:
            return k, found
    return 0, 1  # no open cell: the empty colouring


def _partitions(n: int, variant: str, spots: list[Cell], k: int) -> int:
    """Proper colourings with colours 0..k-1, each colour first used after the one
    before it (one per partition), every colour used."""
    colour: list[int] = []

    def extend(i: int, used: int) -> int:
        if i == len(spots):
            return int(used == k)
        if k - used > len(spots) - i:
            return 0
        total = 0
        for c in range(min(used + 1, k)):
            if all(colour[j] != c or not attack(n, variant, spots[j], spots[i]) for j in range(i)):
                colour.append(c)
                total += extend(i + 1, max(used, c + 1))
                colour.pop()
        return total

    return extend(0, 0) if spots else 0


def fault(kind: str, n: int, variant: str, blocked, answer) -> str | None:
    """What is wrong with an answer in the API's JSON form, or None."""
    spots = set(_open(n, blocked))
    if kind in ("domination", "independent-domination"):
        queens = [tuple(q) for q in answer]
        if not set(queens) <= spots:
            return "a queen off the open cells"
        if kind == "independent-domination" and not _independent(n, variant, queens):
            return "two queens attack"
        if not all(any(_reaches(n, variant, q, cell) for q in queens) for cell in _cells(n)):
            return "a cell is not dominated"
        return None
    if kind == "peaceable":
        white = [tuple(q) for q in answer["white"]]
        black = [tuple(q) for q in answer["black"]]
        if len(white) != len(black) or set(white) & set(black):
            return "armies unequal or sharing a cell"
        if not set(white) | set(black) <= spots:
            return "a queen off the open cells"
        if any(attack(n, variant, w, b) for w in white for b in black):
            return "a white queen attacks a black one"
        return None
    if kind == "coloring":
        classes = [[tuple(c) for c in group] for group in answer]
        flat = [cell for group in classes for cell in group]
        if sorted(flat) != sorted(spots):
            return "the classes are not the open cells, each once"
        if any(attack(n, variant, a, b) for group in classes for a, b in combinations(group, 2)):
            return "two cells of one colour attack"
        return None
    raise ValueError(kind)


def value(kind: str, answer) -> int:
    if kind == "peaceable":
        return len(answer["white"])
    return len(answer)
