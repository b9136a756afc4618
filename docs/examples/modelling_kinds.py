"""Three board problems stated with queenslab's modelling API: the examples of
docs/modelling.md, which includes each class verbatim (tests/unit/test_modelling_guide.py
checks that, and runs them on every model backend against brute force).

Each kind states its models with the expression API and checks answers with geometry of
its own (``sees``, ``walk``), so that a wrong model cannot vouch for itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations, product
from typing import Any, ClassVar

from queenslab.modelling import (
    Board,
    BoolModel,
    Cell,
    ModelBuilder,
    ProblemKind,
    any_of,
    at_most_one,
    grid,
    total,
)

QUEEN_STEPS = [(dr, dc) for dr, dc in product((-1, 0, 1), repeat=2) if (dr, dc) != (0, 0)]
KNIGHT_STEPS = [(dr, dc) for dr, dc in product((-2, -1, 1, 2), repeat=2) if abs(dr) != abs(dc)]


def walk(board: Board, cell: Cell, step: tuple[int, int]) -> Iterator[Cell]:
    """The cells from ``cell`` (excluded) along ``step`` up to the edge of the board."""
    r, c = cell[0] + step[0], cell[1] + step[1]
    while 0 <= r < board.n and 0 <= c < board.n:
        yield r, c
        r, c = r + step[0], c + step[1]


def sees(board: Board, a: Cell, b: Cell) -> bool:
    """A queen on ``a`` attacks ``b`` on the standard board (nothing in between counted)."""
    return any(b in walk(board, a, step) for step in QUEEN_STEPS)


class TotalDomination(ProblemKind[frozenset[Cell]]):
    """The fewest queens attacking every cell, the occupied ones too: a queen does not
    attack its own cell, so each queen needs another queen attacking it."""

    name = "total-domination"
    question = "fewest queens attacking every cell, occupied or not"
    sense = "min"
    takes_blocked = False
    models: ClassVar[Mapping[str, str]] = {
        "clauses": "a clause per cell: one of the cells attacking it holds a queen",
        "linear": "a linear row per cell: the cells attacking it hold at least one queen",
    }

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        queen = m.cells("q", board)
        for cell in queen:
            attackers = [
                queen[other] for other in queen if other != cell and board.attacks(other, cell)
            ]
            if model == "clauses":
                m.add(any_of(attackers), why=f"no cell attacks {cell}")
            else:
                m.add(total(attackers) >= 1)
        m.minimise(total(queen.values()))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for r, c in product(range(board.n), repeat=2):
            if not any(sees(board, queen, (r, c)) for queen in answer):
                return f"cell {(r, c)} is not attacked"
        return None


class QueensAndKnights(ProblemKind[Any]):
    """As many queens as possible and as many knights, no piece attacking another (the
    ITA Software puzzle; on 8 x 8 the answer is 5 of each)."""

    name = "queens-and-knights"
    question = "most queens, with as many knights, no piece attacking another"
    sense = "max"
    takes_blocked = False

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        queen, knight = m.cells("q", board), m.cells("n", board)
        for cell in queen:
            m.add(~queen[cell] | ~knight[cell])  # one piece a cell
        for a, b in combinations(queen, 2):
            dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
            if board.attacks(a, b):  # a queen on one attacks any piece on the other
                m.add(~queen[a] | ~queen[b], ~queen[a] | ~knight[b], ~knight[a] | ~queen[b])
            elif {dr, dc} == {1, 2}:  # a knight on one attacks any piece on the other
                m.add(~knight[a] | ~knight[b], ~queen[a] | ~knight[b], ~knight[a] | ~queen[b])
        m.add(total(queen.values()) == total(knight.values()))
        m.maximise(total(queen.values()))

    def break_symmetry(self, m: ModelBuilder, board: Board, model: str) -> None:
        """Lex-leader over both families at once: a symmetry moves queens and knights."""
        cells = list(board.open_cells())
        where = {cell: i for i, cell in enumerate(cells)}
        queens, knights = (list(family.values()) for family in m.cell_families)
        for image in board.symmetries():
            moved = [where[image.cell(board.n, r, c)] for r, c in cells]
            m.lex_leq(queens + knights, [queens[i] for i in moved] + [knights[i] for i in moved])

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> Any:
        cells = list(board.open_cells())
        count = len(cells)
        queens = frozenset(c for c, v in zip(cells, model.answer[:count], strict=True) if values[v])
        knights = frozenset(
            c for c, v in zip(cells, model.answer[count:], strict=True) if values[v]
        )
        return queens, knights

    def value(self, answer: Any) -> int:
        return len(answer[0])

    def to_json(self, answer: Any) -> Any:
        queens, knights = answer
        return {"queens": sorted(map(list, queens)), "knights": sorted(map(list, knights))}

    def text(self, board: Board, data: Any) -> str:
        marks = {(r, c): "Q" for r, c in data["queens"]} | {(r, c): "N" for r, c in data["knights"]}
        return grid(board, marks)

    def check(self, board: Board, answer: Any) -> str | None:
        queens, knights = answer
        if len(queens) != len(knights) or queens & knights:
            return (
                f"{len(queens)} queens and {len(knights)} knights, {len(queens & knights)} shared"
            )
        pieces = queens | knights
        for queen in queens:
            if any(sees(board, queen, piece) for piece in pieces - {queen}):
                return f"the queen on {queen} attacks a piece"
        for r, c in knights:
            if any((r + dr, c + dc) in pieces for dr, dc in KNIGHT_STEPS):
                return f"the knight on {(r, c)} attacks a piece"
        return None


class ShieldedQueens(ProblemKind[frozenset[Cell]]):
    """The most queens attacking no other when the board's blocked cells are holes that
    shield: they hold no queen and stop the lines through them (the pawns of the n + k
    queens problem). Queenslab's own blocked cells stop nothing."""

    name = "shielded-queens"
    question = "most queens attacking no other, holes blocking the lines through them"
    sense = "max"
    models: ClassVar[Mapping[str, str]] = {
        "pairs": "a clause per pair of cells that see each other past no hole",
        "runs": "at most one queen per run of open cells between holes and edges",
    }

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        queen = m.cells("q", board)
        for run in runs(board):
            if model == "pairs":
                m.add(*(~queen[a] | ~queen[b] for a, b in combinations(run, 2)))
            else:
                m.add(at_most_one(queen[cell] for cell in run))
        m.maximise(total(queen.values()))

    def check(self, board: Board, answer: frozenset[Cell]) -> str | None:
        for queen in answer:
            if not board.is_open(*queen):
                return f"the queen on {queen} sits on a hole"
            for step in QUEEN_STEPS:
                for cell in walk(board, queen, step):
                    if not board.is_open(*cell):
                        break  # a hole shields what lies behind it
                    if cell in answer:
                        return f"the queens on {queen} and {cell} attack each other"
        return None


def runs(board: Board) -> Iterator[list[Cell]]:
    """Every row, column and diagonal cut at the holes into runs of open cells."""
    n = board.n
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r, c in board.open_cells():
            if 0 <= r - dr < n and 0 <= c - dc < n and board.is_open(r - dr, c - dc):
                continue  # not the first cell of its run
            run = []
            while 0 <= r < n and 0 <= c < n and board.is_open(r, c):
                run.append((r, c))
                r, c = r + dr, c + dc
            yield run


KINDS = (TotalDomination, QueensAndKnights, ShieldedQueens)
