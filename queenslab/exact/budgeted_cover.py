"""Exact cover under budgets, on bit sets, compiled, with randomised restarts.

Each option covers some items (every item exactly once, as in ``dancing_cells``) and
spends from some budgets: a cover may spend at most ``budget[b]`` from budget b. A budget
states a count over the options chosen that no single item sees. The case it was built
for: a colouring of the board with n colours is a cover of the cells by n solutions, and a
diagonal of L cells, its cells all in different classes, is missed by exactly n - L of
them. An option spends on each line its classes miss, the line's budget is n - L, and
a node is dead once some line has lost more classes than it may lose. Dancing cells,
which only count the options left to each item, miss that (pigeonhole) failure and
search below it. On the half turn's fold of Q15 the budgets found a 15-colouring in five
runs of five (median 38 CPU s), dancing cells with only the lines of n and n - 1 cells in
one of five runs of 300 CPU s (``benchmarks/coloring_cover.py``).

The live options are one array, a region of it per depth (the sparse sets of Briggs and
Torczon 1993, as in Knuth's dancing cells): a node counts its live options per item,
branches on an uncovered item with the fewest (minimum remaining values) and moves that
item's options to the end of its region, where they are the branches; a branch keeps, in
front of the region, the options disjoint from the cover and within every budget (a few
word operations each: an option's items are a bit set, and its spending a bit set per
amount), and backtracking only resets the region's length.

``Search`` runs for a budget of nodes and of work (options looked at) at a time, so the
caller looks at its stop condition in between, and restarts on a shuffled order for the
tries of ``restarts.Tries``.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.exact import dancing_cells

#: Options looked at between two returns to the caller.
WORK = 1 << 24
#: The unit of Luby's sequence for its restarts (``restarts``). A node counts its live
#: options and a restart counts them all, so tries are longer than dancing cells' (whose
#: node costs the options it removes): with 2^12 nodes, two of five seeds found no
#: 15-colouring of Q15 in 300 CPU s; with 2^18 six of six found one in 3 to 67.
UNIT = 1 << 18
#: What a call of the search returns.
_FOUND, _DONE, _SPENT = 0, 1, 2
#: The scalar registers: depth, whether to enter the node at ``depth`` (1) or try its
#: next branch (0), nodes left, work left, work done.
_DEPTH, _ENTER, _NODES, _WORK_LEFT, _WORK = range(5)
#: Columns of ``level``: the live options on entry, the branches (at the region's end),
#: the next branch, the option chosen.
_L_LIVE, _L_BRANCHES, _L_NEXT, _L_CHOICE = range(4)


@njit(cache=True)
def _fits(option, covered, masks, over, tight):
    """Whether ``option`` is disjoint from ``covered`` and within every budget: ``tight[k]``
    holds the budgets with less than k + 1 left, ``over[option, k]`` those it spends more
    than k on."""
    for w in range(covered.shape[0]):
        if masks[option, w] & covered[w]:
            return False
    clash = np.uint64(0)
    for k in range(tight.shape[0]):
        clash |= over[option, k] & tight[k]
    return clash == 0


@njit(cache=True)
def _tighten(spent, budget, tight):
    """``tight`` from what is left of each budget."""
    tight[:] = 0
    for b in range(spent.shape[0]):
        left = budget[b] - spent[b]
        for k in range(tight.shape[0]):
            if left < k + 1:
                tight[k] |= np.uint64(1) << np.uint64(b)


@njit(cache=True)
def _search(masks, items_of, spend, over, budget, live, covered, spent, tight, count,
            level, reg, items):  # fmt: skip
    """Run on from ``reg`` for its nodes and work; see the module docstring. A cover found
    is ``level[:depth, _L_CHOICE]``."""
    depth, enter = reg[_DEPTH], reg[_ENTER]
    while True:
        if enter:
            if reg[_NODES] <= 0 or reg[_WORK_LEFT] <= 0:
                reg[_DEPTH], reg[_ENTER] = depth, enter
                return _SPENT
            reg[_NODES] -= 1
            n_live = level[depth, _L_LIVE]
            count[:] = 0
            for i in range(n_live):
                option = live[i]
                for j in range(items_of.shape[1]):
                    count[items_of[option, j]] += 1
            reg[_WORK] += n_live
            reg[_WORK_LEFT] -= n_live
            best, fewest = -1, n_live + 1
            for item in range(items):
                free = not (covered[item >> 6] >> np.uint64(item & 63)) & np.uint64(1)
                if free and count[item] < fewest:
                    best, fewest = item, count[item]
            if best < 0:  # a cover; on from it, this node has no branch
                level[depth, _L_BRANCHES] = level[depth, _L_NEXT] = 0
                reg[_DEPTH], reg[_ENTER] = depth, 0
                return _FOUND
            word, bit = best >> 6, np.uint64(1) << np.uint64(best & 63)
            end = n_live
            i = 0
            while i < end:  # the item's options to the end of the region
                if masks[live[i], word] & bit:
                    end -= 1
                    live[i], live[end] = live[end], live[i]
                else:
                    i += 1
            level[depth, _L_BRANCHES] = n_live - end
            level[depth, _L_NEXT] = 0
            enter = 0
        n_live = level[depth, _L_LIVE]
        branches = level[depth, _L_BRANCHES]
        if level[depth, _L_NEXT] == branches:
            if depth == 0:
                reg[_DEPTH], reg[_ENTER] = depth, enter
                return _DONE
            depth -= 1
            option = level[depth, _L_CHOICE]
            for w in range(covered.shape[0]):
                covered[w] ^= masks[option, w]
            for b in range(spent.shape[0]):
                spent[b] -= spend[option, b]
            continue
        option = live[n_live - branches + level[depth, _L_NEXT]]
        level[depth, _L_NEXT] += 1
        level[depth, _L_CHOICE] = option
        for w in range(covered.shape[0]):
            covered[w] |= masks[option, w]
        for b in range(spent.shape[0]):
            spent[b] += spend[option, b]
        _tighten(spent, budget, tight)
        end = n_live - branches
        kept = 0
        for i in range(end):
            other = live[i]
            if _fits(other, covered, masks, over, tight):
                live[i], live[kept] = live[kept], other
                kept += 1
        reg[_WORK] += end
        reg[_WORK_LEFT] -= end
        depth += 1
        level[depth, _L_LIVE] = kept
        enter = 1


class Search:
    """One search over options given as compressed rows of items (``dancing_cells``'s
    ``Options``) with ``spend`` (options x budgets, at most 64 budgets) and ``budget``;
    options that overspend alone are never live. ``restart`` and ``run`` drive it for
    ``restarts.Tries``."""

    def __init__(
        self, options: dancing_cells.Options, items: int, spend: np.ndarray, budget: np.ndarray
    ) -> None:
        starts, item_of = dancing_cells.flat(options, items)
        m = len(starts) - 1
        spend = np.asarray(spend, dtype=np.int64)
        budget = np.asarray(budget, dtype=np.int64)
        if spend.shape != (m, len(budget)) or len(budget) > 64:
            raise ValueError(
                f"spend needs a row per option and one column per budget (at most 64), "
                f"got {spend.shape} for {m} options and {len(budget)} budgets"
            )
        lengths = np.diff(starts)
        width = int(lengths.max(initial=0))
        self.items_of = np.full((m, max(width, 1)), items, dtype=np.int32)  # item: padding
        self.items_of[np.arange(width) < lengths[:, None]] = item_of
        words = max(1, (items + 63) // 64)
        self.masks = np.zeros((m, words), dtype=np.uint64)
        owner = np.repeat(np.arange(m), lengths)
        np.bitwise_or.at(
            self.masks,
            (owner, item_of // 64),
            np.left_shift(np.uint64(1), (item_of % 64).astype(np.uint64)),
        )
        most = int(spend.max(initial=0))
        powers = np.left_shift(np.uint64(1), np.arange(len(budget), dtype=np.uint64))
        self.over = np.array(
            [((spend > k) * powers).sum(axis=1, dtype=np.uint64) for k in range(most)],
            dtype=np.uint64,
        ).T.reshape(m, most)
        self.spend, self.budget, self.items = spend, budget, items
        self.feasible = np.flatnonzero((spend <= budget).all(axis=1) & (lengths > 0))
        self.covered = np.zeros(words, dtype=np.uint64)
        self.spent = np.zeros(len(budget), dtype=np.int64)
        self.tight = np.zeros(most, dtype=np.uint64)
        self.count = np.zeros(items + 1, dtype=np.int64)
        self.level = np.zeros((items + 1, 4), dtype=np.int64)
        self.volume = len(item_of)
        self.unit = UNIT
        self.restart(None)

    def restart(self, seed: int | None) -> None:
        """Back to the root; the options in a shuffled order (seed) or as given (None)."""
        self.live = self.feasible.copy()
        if seed is not None:
            np.random.default_rng(seed).shuffle(self.live)
        self.covered[:] = 0
        self.spent[:] = 0
        self.level[0, _L_LIVE] = len(self.live)
        self.reg = np.array([0, 1, 0, 0, 0], dtype=np.int64)
        self.nodes = 0

    @property
    def work(self) -> int:
        """The options looked at since the last restart."""
        return int(self.reg[_WORK])

    def run(self, nodes: int) -> list[int] | None:
        """A cover within ``nodes`` nodes (and ``WORK`` options looked at); None when
        either ran out first. StopIteration when the search has been through every
        branch since its last cover (or restart)."""
        reg = self.reg
        reg[_NODES], reg[_WORK_LEFT] = nodes, WORK
        status = _search(self.masks, self.items_of, self.spend, self.over, self.budget,
                         self.live, self.covered, self.spent, self.tight, self.count,
                         self.level, reg, self.items)  # fmt: skip
        self.nodes += nodes - int(reg[_NODES])
        if status == _DONE:
            raise StopIteration
        if status == _SPENT:
            return None
        return self.level[: int(reg[_DEPTH]), _L_CHOICE].tolist()
