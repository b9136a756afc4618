"""The line-colouring search for peaceable armies, on one board: what its compiled
kernel (``armies_kernel``) reads, how a pair of row and column colourings is searched,
and how an answer is read back.

In a peaceable placement no line holds queens of both colours, so each line can be given
one colour (an empty line either); conversely, once every line has a colour, the cells
whose four lines are all white may all hold white queens and those whose lines are all
black may all hold black ones, and no queen attacks the other colour. So the largest
armies are the best colouring of the lines: the most cells of the rarer colour (the
view Smith, Petrie and Gent 2004 take of their line variables, taken here to its end:
the cells are not chosen at all).

The search colours the rows and columns outright (2^(2n) pairs, one per orbit of the
board's symmetries and the colour swap); for each pair the diagonals decide, exactly, in
the kernel. Boards whose attacks are all lines qualify (the standard board and the
torus, blocked cells too); super-queens' leaps are not lines. How the pairs are shared
out, checkpointed and turned into a decision or an optimum is ``exact.armies``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from queenslab.boards import Board, Cell
from queenslab.boards.graph import LineId, lines_through
from queenslab.core.errors import UsageError

#: The most row and column lines together: a pair of colourings is one int64 key (and a
#: part's enumerated side, at most n lines, fits one int64 mask).
MAX_OUTER_LINES = 60
STOPPED = -2  # ``Plan.search``'s answer when a stop came first (``armies_kernel.STOPPED``)
#: Per part, the (white count, enumerated subset) an answer is read back from.
Picks = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Plan:
    """A board's lines as ``armies_kernel`` reads them (its docstring has the arrays), and
    which line each index stands for, to read an answer back."""

    board: Board
    open_cells: tuple[Cell, ...]
    open_rows: np.ndarray
    cells: np.ndarray
    part_start: np.ndarray
    part_u: np.ndarray
    part_v: np.ndarray
    images: np.ndarray
    #: per part, the lines of its enumerated side and of its other side
    sides: tuple[tuple[tuple[LineId, ...], tuple[LineId, ...]], ...]

    @classmethod
    def of(cls, board: Board) -> Plan:
        if board.variant.leaps:
            raise UsageError(
                f"the {board.variant.name} board attacks by leaps, which are not lines: "
                "the armies search colours lines"
            )
        n = board.n
        if 2 * n > MAX_OUTER_LINES:
            raise UsageError(f"the armies search takes n <= {MAX_OUTER_LINES // 2}, not {n}")
        open_cells = tuple(board.open_cells())
        open_rows = np.zeros(n, np.int64)
        for r, c in open_cells:
            open_rows[r] |= 1 << c
        # the smaller parts first: a part searched later is held to the exact frontiers
        # of those before it, so the largest enumeration is cut the most
        parts = sorted(
            _parts(board, open_cells), key=lambda members: len(_sides(board, members)[0])
        )
        sides: list[tuple[tuple[LineId, ...], tuple[LineId, ...]]] = []
        rows: list[tuple[int, ...]] = []
        starts = [0]
        for members in parts:
            u_lines, v_lines = _sides(board, members)
            u_index = {line: i for i, line in enumerate(u_lines)}
            v_index = {line: i for i, line in enumerate(v_lines)}
            crossings: dict[tuple[int, int], int] = {}
            for cell in members:
                through = lines_through(board, cell)
                u = next(u_index[line] for line in through[2:] if line in u_index)
                v = next(v_index[line] for line in through[2:] if line in v_index)
                layer = crossings[u, v] = crossings.get((u, v), -1) + 1
                rows.append((cell[0], cell[1], len(sides), u, v, layer))
            sides.append((u_lines, v_lines))
            starts.append(len(rows))
        return cls(
            board=board,
            open_cells=open_cells,
            open_rows=open_rows,
            cells=np.array(rows, np.int64).reshape(len(rows), 6),
            part_start=np.array(starts, np.int64),
            part_u=np.array([len(u) for u, _ in sides], np.int64),
            part_v=np.array([len(v) for _, v in sides], np.int64),
            images=_images(board),
            sides=tuple(sides),
        )

    @property
    def n(self) -> int:
        return self.board.n

    def jobs(self) -> range:
        """The row colourings to search: the colour swap keeps those without the last row."""
        return range(1 << max(0, self.n - 1))

    def order(self) -> Iterator[int]:
        """Every job once, the largest ``row_bound`` first (by white rows, each class in
        increasing order): as the classes are refuted, the bound of what is left falls."""
        n = max(0, self.n - 1)
        for whites in sorted(range(n + 1), key=lambda a: (-self.row_bound((1 << a) - 1), a)):
            if whites == 0:
                yield 0
                continue
            rows = (1 << whites) - 1
            while rows < 1 << n:
                yield rows
                low = rows & -rows  # the next number with as many bits (Gosper's hack)
                ripple = rows + low
                rows = ripple | (((rows ^ ripple) >> 2) // low)

    def upper_bound(self) -> int:
        """No colouring beats a white rectangle of a rows and b columns and the black one
        of the others: max over a, b of min(ab, (n - a)(n - b))."""
        return max(self.row_bound((1 << a) - 1) for a in range(self.n + 1))

    def row_bound(self, rows: int) -> int:
        """What no colouring with these rows beats: max over b of min(ab, (n - a)(n - b)),
        a the white rows."""
        n, a = self.n, rows.bit_count()
        return max(min(a * b, (n - a) * (n - b)) for b in range(n + 1))

    def fingerprint(self) -> str:
        """What a checkpoint's rows are true of: the board's cells and symmetries."""
        text = repr((self.board.variant.name, self.n, self.open_cells, self.images.tobytes()))
        return hashlib.sha256(text.encode()).hexdigest()

    def search(
        self, rows: int, target: int, stop: np.ndarray, counts: np.ndarray
    ) -> tuple[int, Picks]:
        """The first column colouring that, with ``rows``, reaches ``target``, and what its
        answer is read back from (``answer``); (-1, ()) when none does, (``STOPPED``, ())
        when ``stop[0]`` was set first. ``counts`` gains the pairs, knapsacks and nodes
        searched (``armies_kernel.search_pairs``)."""
        from queenslab.exact.armies_kernel import search_pairs

        front = np.empty((len(self.sides), target + 1), np.int64)
        chosen = np.empty_like(front)
        cols = int(search_pairs(
            rows, target, self.n, self.open_rows, self.cells, self.part_start, self.part_u,
            self.part_v, self.images, counts, stop, front, chosen,
        ))  # fmt: skip
        return (cols, ()) if cols < 0 else (cols, self.picks(front, chosen))

    def picks(self, front: np.ndarray, chosen: np.ndarray) -> Picks:
        """Per part, the point of ``front`` (its enumerated subset in ``chosen``, as
        ``armies_kernel.reaches`` leaves them) that together give the most cells of the
        rarer colour."""
        points = [
            [(w, b, subset) for w, (b, subset) in enumerate(zip(blacks, subsets, strict=True))
             if b >= 0]
            for blacks, subsets in zip(front.tolist(), chosen.tolist(), strict=True)
        ]  # fmt: skip
        return tuple(_best_split(points))

    def answer(self, rows: int, cols: int, picks: Picks) -> dict[str, list[list[int]]]:
        """The equal armies of this row and column colouring and ``picks`` (``search``),
        as the peaceable kind writes an answer in JSON: {"white": cells, "black": cells}."""
        from queenslab.exact.armies_kernel import candidates

        white_lines: set[LineId] = {(0, r) for r in range(self.n) if rows >> r & 1}
        white_lines |= {(1, c) for c in range(self.n) if cols >> c & 1}
        for p, (white, subset) in enumerate(picks):
            u_lines, v_lines = self.sides[p]
            start, end = int(self.part_start[p]), int(self.part_start[p + 1])
            shape = (1 + int(self.cells[start:end, 5].max()), len(v_lines))
            wmask, bmask = np.empty(shape, np.int64), np.empty(shape, np.int64)
            candidates(rows, cols, self.cells, start, end, wmask, bmask)
            white_lines |= {line for i, line in enumerate(u_lines) if subset >> i & 1}
            for v in _knapsack(subset, white, wmask, bmask, len(u_lines)):
                white_lines.add(v_lines[v])
        return _armies(self, white_lines)


def _parts(board: Board, open_cells: tuple[Cell, ...]) -> list[list[Cell]]:
    """The open cells grouped by connected part of the graph whose vertices are the
    diagonal lines and whose edges are the open cells (each joins its two diagonals)."""
    parent: dict[LineId, LineId] = {}

    def root(line: LineId) -> LineId:
        parent.setdefault(line, line)
        while parent[line] != line:
            parent[line] = parent[parent[line]]
            line = parent[line]
        return line

    for cell in open_cells:
        up, down = lines_through(board, cell)[2:]
        parent[root(up)] = root(down)
    groups: dict[LineId, list[Cell]] = {}
    for cell in open_cells:
        groups.setdefault(root(lines_through(board, cell)[2]), []).append(cell)
    return list(groups.values())


def _sides(board: Board, members: list[Cell]) -> tuple[tuple[LineId, ...], tuple[LineId, ...]]:
    """A part's two sides, the smaller first (it is enumerated), each the longest lines
    first: the depth-first search decides the lines that weigh most at its top."""
    ups = Counter(lines_through(board, cell)[2] for cell in members)
    downs = Counter(lines_through(board, cell)[3] for cell in members)
    up, down = (tuple(sorted(side, key=lambda line: (-side[line], line))) for side in (ups, downs))
    return (up, down) if len(up) <= len(down) else (down, up)


def _images(board: Board) -> np.ndarray:
    """``images[g, j, byte]``: where the bits of byte j of a key go under symmetry g (the
    board's symmetries, identity first). Bit c of a key is column c, bit n + r row r."""
    n = board.n
    width = 2 * n
    where = np.zeros((len(board.symmetries()), width), np.int64)
    for g, symmetry in enumerate(board.symmetries()):
        for bit in range(width):
            # two cells of the line: their images share a row, or a column
            line = [(0, bit), (1, bit)] if bit < n else [(bit - n, 0), (bit - n, 1)]
            (r1, c1), (r2, _) = (symmetry.cell(n, r, c) for r, c in line)
            where[g, bit] = n + r1 if r1 == r2 else c1
    images = np.zeros((len(where), (width + 7) // 8, 256), np.int64)
    for g in range(len(where)):
        for j in range(images.shape[1]):
            for byte in range(256):
                moved = 0
                for k in range(8):
                    if byte >> k & 1 and 8 * j + k < width:
                        moved |= 1 << int(where[g, 8 * j + k])
                images[g, j, byte] = moved
    return images


def _best_split(parts: list[list[tuple[int, int, int]]]) -> list[tuple[int, int]]:
    """Per part, the (white count, subset) of the frontier points that together give the
    most cells of the rarer colour."""
    best: dict[int, tuple[int, list[tuple[int, int]]]] = {0: (0, [])}
    for reachable in parts:
        grown: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        for white, (black, picks) in best.items():
            for w, b, subset in reachable:
                total = white + w
                if total not in grown or grown[total][0] < black + b:
                    grown[total] = (black + b, [*picks, (w, subset)])
        best = grown
    _, (_, picks) = max(best.items(), key=lambda item: min(item[0], item[1][0]))
    return picks


def _knapsack(
    subset: int, white: int, wmask: np.ndarray, bmask: np.ndarray, u_count: int
) -> list[int]:
    """The other side's lines to colour white so that, with ``subset`` white on the
    enumerated side, the part has at least ``white`` white cells and the most black."""
    others = ((1 << u_count) - 1) & ~subset
    gains = [
        (sum((int(w) & subset).bit_count() for w in whites),
         sum((int(b) & others).bit_count() for b in blacks))
        for whites, blacks in zip(wmask.T, bmask.T, strict=True)
    ]  # fmt: skip
    table: list[dict[int, tuple[int, list[int]]]] = [{0: (0, [])}]
    for v, (gain_w, gain_b) in enumerate(gains):
        row: dict[int, tuple[int, list[int]]] = {}
        for w, (b, whites) in table[-1].items():
            for key, value in (((w, (b + gain_b, whites))), (w + gain_w, (b, [*whites, v]))):
                if key not in row or row[key][0] < value[0]:
                    row[key] = value
        table.append(row)
    return max(((b, whites) for w, (b, whites) in table[-1].items() if w >= white))[1]


def _armies(plan: Plan, white_lines: set[LineId]) -> dict[str, list[list[int]]]:
    """The equal armies of a colouring: the open cells with four lines of one colour, the
    larger army cut down to the smaller."""
    white, black = [], []
    for r, c in plan.open_cells:
        colours = {line in white_lines for line in lines_through(plan.board, (r, c))}
        if colours == {True}:
            white.append((r, c))
        elif colours == {False}:
            black.append((r, c))
    size = min(len(white), len(black))
    return {"white": [list(cell) for cell in white[:size]],
            "black": [list(cell) for cell in black[:size]]}  # fmt: skip
