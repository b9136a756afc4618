"""Randomised restarts of a search for one cover, with Luby's budgets.

The time to a first cover varies by orders of magnitude with the order of the branches,
a heavy tail that restarts cut (Gomes, Selman and Kautz 1998): each try shuffles the
branches by a seed and has a node budget from Luby's sequence (Luby, Sinclair and
Zuckerman 1993). A try that ends within its budget searched everything, so its None is a
proof. The searches (``dancing_cells``, ``budgeted_cover``) share one protocol:
``restart(seed)``, ``run(nodes)`` (a cover, None when the budget ran out, StopIteration
when no branch is left), ``nodes``, ``work``, ``volume`` (the options' items, all told)
and ``unit``, the unit of Luby's sequence that suits it: a search whose node costs more
than another's, and whose restart costs a whole pass over its options, wants longer
tries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from queenslab.core.errors import LimitReached
from queenslab.core.run import never

#: Nodes between two looks at the stop condition.
BUDGET = 1 << 15


class Restartable(Protocol):
    """A search for covers that restarts on a shuffled order (module docstring)."""

    nodes: int
    volume: int
    unit: int

    @property
    def work(self) -> int: ...

    def restart(self, seed: int | None) -> None: ...

    def run(self, nodes: int) -> list[int] | None: ...


def luby(k: int) -> int:
    """Term k (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, ...: the restart budgets
    within a log factor of the best fixed one for any run-time distribution."""
    size = 1
    while size < k + 1:
        size = 2 * size + 1
    while size > 1:
        if k == size:
            return (size + 1) // 2
        size //= 2
        if k > size:
            k -= size
    return 1


class Tries:
    """The restarted search for one cover, a try at a time, so that a caller can share
    its time between several searches (``coloring_symmetric`` runs one per group);
    ``work`` counts what the search reports as its work, a measure of the time spent that
    does not depend on the machine, and ``volume`` is the search's.

    Try k (from 1) shuffles with seed ``(seed, k)`` and has ``luby(k) * unit`` nodes (the
    search's own unit unless given): the same seed gives the same tries."""

    def __init__(self, search: Restartable, seed: int = 0, unit: int | None = None) -> None:
        self._search, self._seed = search, seed
        self._unit = search.unit if unit is None else unit
        self.tries = self.nodes = self.work = 0
        self.volume = search.volume

    def next_try(self, should_stop: Callable[[], bool] = never) -> tuple[bool, list[int] | None]:
        """(settled, cover): a cover found, (True, None) when there is none (the try ran
        out of branches within its budget: a proof), (False, None) when its budget ran
        out first. LimitReached when ``should_stop`` says stop."""
        self.tries += 1
        search = self._search
        search.restart(self._seed * 1_000_003 + self.tries)
        budget = luby(self.tries) * self._unit
        try:
            while search.nodes < budget:
                if should_stop():
                    raise LimitReached
                try:
                    cover = search.run(min(BUDGET, budget - search.nodes))
                except StopIteration:
                    return True, None
                if cover is not None:
                    return True, cover
            return False, None
        finally:
            self.nodes += search.nodes
            self.work += search.work


def first_cover(
    search: Restartable,
    seed: int = 0,
    should_stop: Callable[[], bool] = never,
    unit: int | None = None,
) -> tuple[list[int] | None, int]:
    """One cover, or None when there is none (a proof), by ``Tries`` until one settles;
    and the nodes spent. LimitReached when ``should_stop`` says stop."""
    tries = Tries(search, seed, unit)
    while True:
        settled, cover = tries.next_try(should_stop)
        if settled:
            return cover, tries.nodes
