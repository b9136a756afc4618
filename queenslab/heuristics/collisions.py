"""Queens-per-line counters for local search written in Python: the attacking pairs of a
placement (one queen per row), kept up to date as queens move.

Lines come from the board layer's ``line_ids`` (columns and diagonals, wrapped on a
torus), so the rules are the board's own; a queen on a blocked cell counts as one more
attacking pair, as the fast backends count it as a collision. Leaps (super-queens) are
not counted: the local searches refuse that variant.
"""

from __future__ import annotations

from queenslab.core.problem import Problem


class Collisions:
    """A placement with queens-per-line counters and its number of attacking pairs.

    A row whose column is -1 has no queen yet (a greedy start fills the rows one by one).
    Lines are looked up in one flat table per family of lines, the line of cell (r, c) at
    ``r * n + c``: n^2 small tuples took longer to build than a short search ran. With
    blocked cells, every cell is also a line of its own, holding one phantom queen when
    the cell is blocked: a queen there makes one more pair, and no move tests for it.
    """

    def __init__(self, problem: Problem, cols: list[int]) -> None:
        import numpy as np  # here: the command line's parser imports this module

        n = self.n = problem.n
        board = problem.board
        lines = board.line_ids(*np.indices((n, n)))
        self.tables = [k.ravel().tolist() for k in lines]
        # A swap leaves each column's count as it was: it skips the lines of one column.
        self.slanted = [
            table
            for table, k in zip(self.tables, lines, strict=True)
            if n < 2 or (k != k[:1]).any()
        ]
        self.empty = [0] * board.line_id_count()
        if problem.blocked:
            first = len(self.empty)
            own = list(range(first, first + n * n))
            self.tables.append(own)
            self.slanted.append(own)
            self.empty += [0] * (n * n)
            for r, c in problem.blocked:
                self.empty[own[r * n + c]] = 1
        self.reset(cols)

    def reset(self, cols: list[int]) -> None:
        """Start again from ``cols`` (the lines are the board's: kept across restarts)."""
        self.count = list(self.empty)
        self.cols = cols
        self.pairs = 0
        for r, c in enumerate(cols):
            if c >= 0:
                self._add(r, c)

    def _add(self, r: int, c: int) -> None:
        count, pairs, cell = self.count, self.pairs, r * self.n + c
        for table in self.tables:
            i = table[cell]
            pairs += count[i]
            count[i] += 1
        self.pairs = pairs

    def _remove(self, r: int, c: int) -> None:
        count, pairs, cell = self.count, self.pairs, r * self.n + c
        for table in self.tables:
            i = table[cell]
            count[i] -= 1
            pairs -= count[i]
        self.pairs = pairs

    def attacked(self, r: int) -> bool:
        """Row r's queen shares a line with another queen or stands on a blocked cell."""
        cell = r * self.n + self.cols[r]
        return any(self.count[table[cell]] > 1 for table in self.tables)

    def conflicts_at(self, r: int, c: int) -> int:
        """The attacking pairs row r's queen would be part of on column c."""
        cell, own = r * self.n + c, r * self.n + self.cols[r]
        if self.cols[r] < 0:
            return sum(self.count[table[cell]] for table in self.tables)
        return sum(self.count[t[cell]] - (t[cell] == t[own]) for t in self.tables)

    def move(self, r: int, c: int) -> None:
        """Row r's queen to column c (placed there if the row had none)."""
        if self.cols[r] >= 0:
            self._remove(r, self.cols[r])
        self._add(r, c)
        self.cols[r] = c

    def swap(self, a: int, b: int) -> None:
        """Exchange the columns of rows a and b (a permutation stays one).

        Written out, not as two moves, and over the slanted lines only: the hill climber's
        every step is one or two swaps.
        """
        cols, count = self.cols, self.count
        ca, cb = cols[a], cols[b]
        a_from, b_from = a * self.n + ca, b * self.n + cb
        a_to, b_to = a_from + cb - ca, b_from + ca - cb
        pairs = self.pairs
        for table in self.slanted:
            i, j, k, m = table[a_from], table[b_from], table[a_to], table[b_to]
            count[i] -= 1
            pairs -= count[i]
            count[j] -= 1
            pairs -= count[j]
            pairs += count[k]
            count[k] += 1
            pairs += count[m]
            count[m] += 1
        self.pairs = pairs
        cols[a], cols[b] = cb, ca
