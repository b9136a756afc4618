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
    A blocked cell is a line of its own holding one phantom queen, so a queen there makes
    one more pair, and no move pays for a test of the blocked cells.
    """

    def __init__(self, problem: Problem, cols: list[int]) -> None:
        import numpy as np  # here: the command line's parser imports this module

        board = problem.board
        n = problem.n
        # every cell's lines at once: a loop of line_ids took most of a short search
        self.ids = np.stack(board.line_ids(*np.indices((n, n))), axis=-1).tolist()
        self.empty = [0] * board.line_id_count()
        for r, c in problem.blocked:
            self.ids[r][c].append(len(self.empty))
            self.empty.append(1)
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
        count, pairs = self.count, self.pairs
        for i in self.ids[r][c]:
            pairs += count[i]
            count[i] += 1
        self.pairs = pairs

    def _remove(self, r: int, c: int) -> None:
        count, pairs = self.count, self.pairs
        for i in self.ids[r][c]:
            count[i] -= 1
            pairs -= count[i]
        self.pairs = pairs

    def attacked(self, r: int) -> bool:
        """Row r's queen shares a line with another queen or stands on a blocked cell."""
        return any(self.count[i] > 1 for i in self.ids[r][self.cols[r]])

    def conflicts_at(self, r: int, c: int) -> int:
        """The attacking pairs row r's queen would be part of on column c."""
        own = self.ids[r][self.cols[r]] if self.cols[r] >= 0 else ()
        return sum(self.count[i] - (i in own) for i in self.ids[r][c])

    def move(self, r: int, c: int) -> None:
        """Row r's queen to column c (placed there if the row had none)."""
        if self.cols[r] >= 0:
            self._remove(r, self.cols[r])
        self._add(r, c)
        self.cols[r] = c

    def swap(self, a: int, b: int) -> None:
        """Exchange the columns of rows a and b (a permutation stays one).

        Written out, not as two moves: the hill climber's every step is one or two swaps.
        """
        cols, count, ids = self.cols, self.count, self.ids
        ca, cb = cols[a], cols[b]
        pairs = self.pairs
        for i in ids[a][ca]:
            count[i] -= 1
            pairs -= count[i]
        for i in ids[b][cb]:
            count[i] -= 1
            pairs -= count[i]
        for i in ids[a][cb]:
            pairs += count[i]
            count[i] += 1
        for i in ids[b][ca]:
            pairs += count[i]
            count[i] += 1
        self.pairs = pairs
        cols[a], cols[b] = cb, ca
