"""Exact cover by dancing cells: Knuth's sparse-set form of Algorithm X, compiled, with
randomised restarts.

Knuth replaced the linked lists of dancing links by sparse sets (Knuth, *The Art of
Computer Programming* 4B, 2022, section 7.2.2.1, "dancing cells"; Briggs and Torczon
1993 for the sets): each item keeps the options still possible in the front of its own
array, ``size[item]`` of them, and removing an option from an item swaps it with the
item's last live one and shrinks the size. Undoing a removal is growing the size again,
so backtracking replays a trail of items in reverse and touches nothing else. The
uncovered items are a sparse set too.

Items from ``primary`` on are secondary (Knuth's XCC without colours): covered at most
once, never branched on, so an option that takes one rules out every other option with
it. A counting constraint "at most one chosen option has property P" is one such item.

Choosing an option covers its items; every other option of a covered item leaves the
other items it is in. At each node the item to cover is one with the fewest options left
(minimum remaining values; Knuth's heuristic S), whose count is read, not recounted as
``exact.exact_cover`` does, so a node costs the options it removes, not the rows alive.

``first_cover`` restarts the search (``restarts``) with its ties and branch orders
shuffled by a seeded generator (xorshift, so a seed gives the same tries everywhere); a
try that ends within its budget searched everything, so None is a proof. ``covers``
enumerates every cover in a fixed order.

The search is a loop over an explicit stack that runs for a budget of nodes, returns and
is called again, so the caller looks at its stop condition between budgets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.core.errors import LimitReached
from queenslab.core.run import never
from queenslab.exact import restarts

#: The unit of Luby's sequence for its restarts (``restarts``): try k has ``luby(k) *
#: UNIT`` nodes.
UNIT = 1 << 12
#: What a call of the search returns.
_FOUND, _DONE, _SPENT = 0, 1, 2
#: The scalar registers: depth, uncovered items, trail length, whether to enter the node
#: at ``depth`` (1) or try its next branch (0), nodes left, whether to shuffle (1), the
#: generator's state, and the work done: the options removed from items, which is most
#: of a node's time (a node's cost varies a thousandfold with its depth and the cover).
_DEPTH, _ACTIVE, _TRAIL, _ENTER, _LEFT, _SHUFFLE, _RNG, _WORK = range(8)
#: Columns of ``level``: trail length and uncovered items on entry, the branch range and
#: the next branch, the option chosen.
_L_TRAIL, _L_ACTIVE, _L_START, _L_END, _L_NEXT, _L_CHOICE = range(6)


@njit(cache=True)
def _random(reg):
    """The next number of the xorshift64 generator kept in ``reg[_RNG]``."""
    x = reg[_RNG]
    x ^= x << 13
    x ^= (x >> 7) & 0x01FFFFFFFFFFFFFF
    x ^= x << 17
    reg[_RNG] = x
    return x & 0x7FFFFFFFFFFFFFFF


@njit(cache=True)
def _remove(node, item_of, cells, base, size, where, trail, top):
    """Take ``node``'s option out of its item's live set; the item goes on the trail."""
    item = item_of[node]
    last = base[item] + size[item] - 1
    other = cells[last]
    here = where[node]
    cells[here], where[other] = other, here
    cells[last], where[node] = node, last
    size[item] -= 1
    trail[top] = item
    return top + 1


@njit(cache=True)
def _search(starts, item_of, option_of, cells, base, size, where, active, spot, trail,
            branch, level, reg, primary):  # fmt: skip
    """Run the search on from ``reg`` for ``reg[_LEFT]`` nodes; see the module docstring.
    A found cover is ``level[:depth, _L_CHOICE]``. Items below ``primary`` are the ones
    to cover (``active``); the others are secondary."""
    depth, nact, top, enter = reg[_DEPTH], reg[_ACTIVE], reg[_TRAIL], reg[_ENTER]
    shuffle = reg[_SHUFFLE]
    while True:
        if enter:
            enter = 0
            level[depth, _L_TRAIL], level[depth, _L_ACTIVE] = top, nact
            start = level[depth - 1, _L_END] if depth else 0
            level[depth, _L_START] = level[depth, _L_END] = level[depth, _L_NEXT] = start
            if nact == 0:
                reg[_DEPTH], reg[_ACTIVE], reg[_TRAIL], reg[_ENTER] = depth, nact, top, enter
                return _FOUND
            best, fewest, ties = -1, 1 << 62, 0
            for k in range(nact):
                item = active[k]
                if size[item] < fewest:
                    best, fewest, ties = item, size[item], 1
                elif size[item] == fewest and shuffle:
                    ties += 1
                    if _random(reg) % ties == 0:
                        best = item
            end = start
            for k in range(base[best], base[best] + fewest):
                branch[end] = option_of[cells[k]]
                end += 1
            if shuffle:
                for k in range(end - 1, start, -1):
                    j = start + _random(reg) % (k - start + 1)
                    branch[k], branch[j] = branch[j], branch[k]
            level[depth, _L_END] = end
        if level[depth, _L_NEXT] == level[depth, _L_END]:  # no branch left: back up
            if depth == 0:
                reg[_DEPTH], reg[_ACTIVE], reg[_TRAIL], reg[_ENTER] = depth, nact, top, enter
                return _DONE
            depth -= 1
            mark = level[depth, _L_TRAIL]
            while top > mark:
                top -= 1
                size[trail[top]] += 1
            nact = level[depth, _L_ACTIVE]
            continue
        if reg[_LEFT] == 0:
            reg[_DEPTH], reg[_ACTIVE], reg[_TRAIL], reg[_ENTER] = depth, nact, top, enter
            return _SPENT
        reg[_LEFT] -= 1
        chosen = branch[level[depth, _L_NEXT]]
        level[depth, _L_NEXT] += 1
        level[depth, _L_CHOICE] = chosen
        mark = top
        for node in range(starts[chosen], starts[chosen + 1]):
            item = item_of[node]
            if item < primary:
                last = active[nact - 1]
                here = spot[item]
                active[here], spot[last] = last, here
                active[nact - 1], spot[item] = item, nact - 1
                nact -= 1
            for k in range(base[item], base[item] + size[item]):
                option = option_of[cells[k]]
                if option == chosen:
                    continue
                for other in range(starts[option], starts[option + 1]):
                    if item_of[other] != item:
                        top = _remove(other, item_of, cells, base, size, where, trail, top)
        reg[_WORK] += top - mark
        depth += 1
        enter = 1


#: Options as item lists, or as (starts, items): option o's items are
#: ``items[starts[o]:starts[o + 1]]`` (compressed rows, for millions of options).
Options = Sequence[Sequence[int]] | tuple[np.ndarray, np.ndarray]


def flat(options: Options, items: int) -> tuple[np.ndarray, np.ndarray]:
    """``options`` as compressed rows: starts as int64, items as int32 (an item, an
    option and a node are indices below 2³¹, which halves the arrays of millions).
    ValueError when an option names an item outside ``0 .. items - 1``."""
    if isinstance(options, tuple) and len(options) == 2 and isinstance(options[0], np.ndarray):
        starts, item_of = options[0].astype(np.int64), np.asarray(options[1], dtype=np.int32)
    else:
        starts = np.zeros(len(options) + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(option) for option in options])
        item_of = np.fromiter((i for o in options for i in o), np.int32, int(starts[-1]))
    if len(item_of) and not 0 <= item_of.min() <= item_of.max() < items:
        raise ValueError("an option's item is out of range")
    return starts, item_of


class Search:
    """The search's arrays over ``options``: run it a budget of nodes at a time
    (``restarts.Restartable``)."""

    def __init__(self, options: Options, items: int, primary: int | None = None) -> None:
        self.primary = items if primary is None else primary
        if not 0 <= self.primary <= items:
            raise ValueError(f"the primary items are 0 .. {items}, got {primary}")
        self.starts, self.item_of = flat(options, items)
        nodes = self.volume = len(self.item_of)
        self.unit = UNIT
        self.option_of = np.repeat(
            np.arange(len(self.starts) - 1, dtype=np.int32), np.diff(self.starts)
        )
        self.cells = np.argsort(self.item_of, kind="stable").astype(np.int32)
        self.where = np.empty(nodes, dtype=np.int32)
        self.where[self.cells] = np.arange(nodes, dtype=np.int32)
        self.full = np.bincount(self.item_of, minlength=items).astype(np.int64)
        self.base = np.zeros(items, dtype=np.int64)
        self.base[1:] = np.cumsum(self.full)[:-1]
        self.trail = np.zeros(max(nodes, 1), dtype=np.int32)
        self.branch = np.zeros(max(len(self.starts) - 1, 1), dtype=np.int64)
        self.level = np.zeros((items + 1, 6), dtype=np.int64)
        self.restart(None)

    def restart(self, seed: int | None) -> None:
        """Back to the root, every option live (in any order within its items); ``seed``
        None: no shuffling, else the generator's seed."""
        items = len(self.full)
        self.size = self.full.copy()
        self.active = np.arange(self.primary, dtype=np.int64)
        self.spot = np.arange(items, dtype=np.int64)
        state = 0 if seed is None else (seed * 0x9E3779B97F4A7C15 + 1) % (1 << 63) or 1
        self.reg = np.array([0, self.primary, 0, 1, 0, seed is not None, state, 0], dtype=np.int64)
        self.nodes = 0

    @property
    def work(self) -> int:
        """The options removed from items since the last restart."""
        return int(self.reg[_WORK])

    def run(self, nodes: int) -> list[int] | None:
        """The next cover within ``nodes`` nodes; None when the budget ran out first.
        StopIteration when every cover has been found."""
        reg, level = self.reg, self.level
        reg[_LEFT] = nodes
        status = _search(self.starts, self.item_of, self.option_of, self.cells, self.base,
                         self.size, self.where, self.active, self.spot, self.trail,
                         self.branch, level, reg, self.primary)  # fmt: skip
        self.nodes += nodes - int(reg[_LEFT])
        if status == _DONE:
            raise StopIteration
        if status == _SPENT:
            return None
        depth = int(reg[_DEPTH])
        reg[_ENTER] = 0  # on from the cover: its level has no branch left
        return level[:depth, _L_CHOICE].tolist()


def covers(
    options: Options,
    items: int,
    should_stop: Callable[[], bool] = never,
    primary: int | None = None,
) -> Iterator[list[int]]:
    """Every set of ``options`` (as their indices, in the order chosen) covering each item
    ``0 .. primary - 1`` exactly once and the others up to ``items - 1`` at most once
    (``primary`` None: every item exactly once), in a fixed order; LimitReached when
    ``should_stop`` says stop. An option without primary items is never chosen."""
    search = Search(options, items, primary)
    while True:
        if should_stop():
            raise LimitReached
        try:
            cover = search.run(restarts.BUDGET)
        except StopIteration:
            return
        if cover is not None:
            yield cover


def first_cover(
    options: Options,
    items: int,
    seed: int = 0,
    should_stop: Callable[[], bool] = never,
    unit: int | None = None,
    primary: int | None = None,
) -> tuple[list[int] | None, int]:
    """One exact cover (the indices of its options; the items from ``primary`` on at most
    once), or None when there is none (a proof), by restarted tries
    (``restarts.first_cover``); and the nodes spent. LimitReached when ``should_stop``
    says stop."""
    return restarts.first_cover(Search(options, items, primary), seed, should_stop, unit)
