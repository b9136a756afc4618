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
    """

    def __init__(self, problem: Problem, cols: list[int]) -> None:
        board = problem.board
        n = problem.n
        self.ids = [[board.line_ids(r, c) for c in range(n)] for r in range(n)]
        self.count = [0] * board.line_id_count()
        self.blocked = set(problem.blocked)
        self.cols = cols
        self.pairs = 0
        for r, c in enumerate(cols):
            if c >= 0:
                self._add(r, c)

    def _add(self, r: int, c: int) -> None:
        self.pairs += (r, c) in self.blocked
        for i in self.ids[r][c]:
            self.pairs += self.count[i]
            self.count[i] += 1

    def _remove(self, r: int, c: int) -> None:
        self.pairs -= (r, c) in self.blocked
        for i in self.ids[r][c]:
            self.count[i] -= 1
            self.pairs -= self.count[i]

    def attacked(self, r: int) -> bool:
        """Row r's queen shares a line with another queen or stands on a blocked cell."""
        c = self.cols[r]
        return (r, c) in self.blocked or any(self.count[i] > 1 for i in self.ids[r][c])

    def conflicts_at(self, r: int, c: int) -> int:
        """The attacking pairs row r's queen would be part of on column c."""
        own = self.ids[r][self.cols[r]] if self.cols[r] >= 0 else ()
        return ((r, c) in self.blocked) + sum(self.count[i] - (i in own) for i in self.ids[r][c])

    def move(self, r: int, c: int) -> None:
        """Row r's queen to column c (placed there if the row had none)."""
        if self.cols[r] >= 0:
            self._remove(r, self.cols[r])
        self._add(r, c)
        self.cols[r] = c

    def swap(self, a: int, b: int) -> None:
        """Exchange the columns of rows a and b (a permutation stays one)."""
        ca, cb = self.cols[a], self.cols[b]
        self._remove(a, ca)
        self._remove(b, cb)
        self._add(a, cb)
        self._add(b, ca)
        self.cols[a], self.cols[b] = cb, ca
