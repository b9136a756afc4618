"""The baseline of ``coloring_cover.py``: the exact-cover search queenslab used for
colourings before dancing cells (``queenslab.exact.dancing_cells``), kept as it was.

Exact cover: Knuth's Algorithm X (Knuth 2000, "Dancing links") as a compiled search.

Given rows that each cover some of ``items`` items, find sets of rows that cover every
item exactly once. At each node the item to cover next is one with the fewest rows still
possible (Knuth's heuristic S), which fails at once where an item can no longer be
covered; the search branches on those rows. Instead of Knuth's linked lists, the rows
still possible are a sparse set (Briggs and Torczon 1993): an array whose first ``size``
entries are the live rows. Choosing a row moves every live row that meets it past the
end (one AND of bit sets per row), and backtracking restores ``size`` alone: the rows
removed lie just past it, in any order. Each row is an item list and a bit set, so n = 12
(14,200 queens solutions, 144 cells) fits in a few megabytes.

The search is a loop over an explicit stack, resumable: it runs for a budget of nodes,
returns, and is called again, so the caller yields each cover as it is found and looks
at its stop condition between budgets.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.core.errors import LimitReached
from queenslab.core.run import never

#: Nodes between two looks at the stop condition (milliseconds at n = 12).
BUDGET = 1 << 14
#: Nodes of the first try of ``first_cover``, which settles n <= 11 alone.
FIRST_TRY = 1 << 16
#: What a call of the search returns.
_FOUND, _DONE, _SPENT = 0, 1, 2
#: The search's scalar registers: depth, live rows, nodes left, and whether to enter the
#: node at ``depth`` (1) or to try its next branch (0).
_DEPTH, _SIZE, _LEFT, _ENTER = 0, 1, 2, 3


@njit(cache=True)
def _search(bits, starts, row_items, items, live, covered, counts, branch, level, reg):
    """Run the search on from ``reg`` for ``reg[_LEFT]`` nodes; see the module docstring.

    ``level[d]`` holds depth d's live size on entry, its branch range and next branch,
    and the row chosen there (columns 0-4). A found cover is ``level[:depth, 4]``.
    """
    words = bits.shape[1]
    depth, size, left, enter = reg[_DEPTH], reg[_SIZE], reg[_LEFT], reg[_ENTER]
    status = _DONE
    while True:
        if enter:
            enter = 0
            level[depth, 0] = size
            counts[:] = 0
            for k in range(size):
                row = live[k]
                for j in range(starts[row], starts[row + 1]):
                    counts[row_items[j]] += 1
            best, fewest = -1, 1 << 62
            for item in range(items):
                free = not (covered[item >> 6] >> np.uint64(item & 63)) & np.uint64(1)
                if free and counts[item] < fewest:
                    best, fewest = item, counts[item]
            if best < 0:
                status = _FOUND
                break
            start = level[depth - 1, 2] if depth else 0
            end = start
            for k in range(size):
                row = live[k]
                word, bit = best >> 6, np.uint64(best & 63)
                if (bits[row, word] >> bit) & np.uint64(1):
                    branch[end] = row
                    end += 1
            level[depth, 1], level[depth, 2], level[depth, 3] = start, end, start
        if level[depth, 3] == level[depth, 2]:  # no branch left: back to the level above
            if depth == 0:
                status = _DONE
                break
            depth -= 1
            chosen = level[depth, 4]
            for w in range(words):
                covered[w] ^= bits[chosen, w]
            size = level[depth, 0]
            continue
        if left == 0:
            status = _SPENT
            break
        left -= 1
        chosen = branch[level[depth, 3]]
        level[depth, 3] += 1
        level[depth, 4] = chosen
        for w in range(words):
            covered[w] |= bits[chosen, w]
        k = size - 1
        while k >= 0:  # downwards: the row swapped into k was seen and stays
            row = live[k]
            for w in range(words):
                if bits[row, w] & bits[chosen, w]:
                    size -= 1
                    live[k], live[size] = live[size], row
                    break
            k -= 1
        depth += 1
        enter = 1
    reg[_DEPTH], reg[_SIZE], reg[_LEFT], reg[_ENTER] = depth, size, left, enter
    return status


class _Search:
    """The search's arrays over ``rows``: run it a budget of nodes at a time."""

    def __init__(self, rows: Sequence[Sequence[int]], items: int) -> None:
        words = max(1, (items + 63) // 64)
        self.items = items
        self.bits = np.zeros((len(rows), words), dtype=np.uint64)
        self.starts = np.zeros(len(rows) + 1, dtype=np.int64)
        for index, cells in enumerate(rows):
            self.starts[index + 1] = self.starts[index] + len(cells)
            for cell in cells:
                self.bits[index, cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
        total = int(self.starts[-1])
        self.row_items = np.fromiter((cell for cells in rows for cell in cells), np.int64, total)
        self.live = np.arange(len(rows), dtype=np.int64)
        self.covered = np.zeros(words, dtype=np.uint64)
        self.counts = np.zeros(max(items, 1), dtype=np.int64)
        self.branch = np.zeros(max(len(rows), 1), dtype=np.int64)
        self.level = np.zeros((items + 1, 5), dtype=np.int64)
        self.reg = np.array([0, len(rows), 0, 1], dtype=np.int64)
        self.nodes = 0

    def run(self, nodes: int) -> list[int] | None:
        """The next cover within ``nodes`` nodes; None when the budget ran out first.
        StopIteration when every cover has been found."""
        reg, level = self.reg, self.level
        reg[_LEFT] = nodes
        status = _search(self.bits, self.starts, self.row_items, self.items, self.live,
                         self.covered, self.counts, self.branch, level, reg)  # fmt: skip
        self.nodes += nodes - int(reg[_LEFT])
        if status == _DONE:
            raise StopIteration
        if status == _SPENT:
            return None
        depth = int(reg[_DEPTH])
        reg[_ENTER] = 0  # on from the cover: its last level has no branch left
        level[depth, 2] = level[depth, 3] = 0
        return level[:depth, 4].tolist()


def exact_covers(
    rows: Sequence[Sequence[int]], items: int, should_stop: Callable[[], bool] = never
) -> Iterator[list[int]]:
    """Every set of ``rows`` (as their indices, in the order chosen) covering each item
    ``0 .. items - 1`` exactly once; LimitReached when ``should_stop`` says stop. A row
    without items is never chosen."""
    search = _Search(rows, items)
    while True:
        if should_stop():
            raise LimitReached
        try:
            cover = search.run(BUDGET)
        except StopIteration:
            return
        if cover is not None:
            yield cover


def first_cover(
    rows: Sequence[Sequence[int]], items: int, should_stop: Callable[[], bool] = never
) -> list[int] | None:
    """One exact cover of ``rows`` (their indices), or None when there is none (a proof).

    The time to a first cover varies by orders of magnitude with the order of the rows
    and items (n = 12: 4 s to beyond 400 s), a heavy tail that restarts cut (Gomes, Selman
    and Kautz 1998). Try k shuffles rows and items (seed k) and runs for twice the nodes
    of try k - 1; a try that ends within its budget has searched everything, so None is a
    proof, and the doubling keeps the total within twice the last try.
    """
    budget, seed = FIRST_TRY, 0
    while True:
        rng = random.Random(seed)
        rename = list(range(items))
        order = list(range(len(rows)))
        if seed:
            rng.shuffle(rename)
            rng.shuffle(order)
        search = _Search([[rename[item] for item in rows[i]] for i in order], items)
        while search.nodes < budget:
            if should_stop():
                raise LimitReached
            try:
                cover = search.run(min(BUDGET, budget - search.nodes))
            except StopIteration:
                return None
            if cover is not None:
                return [order[i] for i in cover]
        budget, seed = budget * 2, seed + 1
