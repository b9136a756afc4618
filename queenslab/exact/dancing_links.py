"""Exact cover by Knuth's Algorithm X on dancing links (Knuth 2000, "Dancing links").

Given rows that each cover some of ``items`` items, find sets of rows that cover every
item exactly once. The matrix is a torus of doubly linked lists, one circular list per
item (its rows) and one per row (its items); covering an item unlinks it and every row
that meets it, and uncovering relinks them in the reverse order, so backtracking restores
the matrix without copying it. The item to cover next is one of fewest rows left (Knuth's
heuristic S), which fails early where an item can no longer be covered. The search
recurses once per row chosen (n deep for the queens' covers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from queenslab.core.errors import LimitReached
from queenslab.core.run import never

#: Rows tried between two looks at ``should_stop``.
_CHECK_EVERY = 1024


def exact_covers(
    rows: Sequence[Sequence[int]], items: int, should_stop: Callable[[], bool] = never
) -> Iterator[list[int]]:
    """Every set of ``rows`` (as their indices, in the order chosen) covering each item
    ``0 .. items - 1`` exactly once; LimitReached when ``should_stop`` says stop."""
    # Node 0 is the root, nodes 1..items the item headers, then one node per 1 of a row.
    left = [*range(-1, items), 0][: items + 1]
    left[0] = items
    right = [*range(1, items + 1), 0]
    up = list(range(items + 1))
    down = list(range(items + 1))
    item = list(range(items + 1))  # the header of a node's item
    row_of = [-1] * (items + 1)
    size = [0] * (items + 1)
    for index, cells in enumerate(rows):
        first = len(item)
        for k, cell in enumerate(cells):
            node, header = first + k, cell + 1
            left.append(first + (k - 1) % len(cells))
            right.append(first + (k + 1) % len(cells))
            up.append(up[header])
            down.append(header)
            down[up[header]] = node
            up[header] = node
            item.append(header)
            row_of.append(index)
            size[header] += 1

    def cover(header: int) -> None:
        right[left[header]], left[right[header]] = right[header], left[header]
        i = down[header]
        while i != header:
            j = right[i]
            while j != i:
                down[up[j]], up[down[j]] = down[j], up[j]
                size[item[j]] -= 1
                j = right[j]
            i = down[i]

    def uncover(header: int) -> None:
        i = up[header]
        while i != header:
            j = left[i]
            while j != i:
                size[item[j]] += 1
                down[up[j]] = up[down[j]] = j
                j = left[j]
            i = up[i]
        right[left[header]] = left[right[header]] = header

    chosen: list[int] = []
    tried = [0]

    def search() -> Iterator[list[int]]:
        if right[0] == 0:
            yield [row_of[node] for node in chosen]
            return
        header, fewest = 0, None
        h = right[0]
        while h != 0:
            if fewest is None or size[h] < fewest:
                header, fewest = h, size[h]
            h = right[h]
        cover(header)
        node = down[header]
        while node != header:
            tried[0] += 1
            if tried[0] % _CHECK_EVERY == 0 and should_stop():
                raise LimitReached
            chosen.append(node)
            j = right[node]
            while j != node:
                cover(item[j])
                j = right[j]
            yield from search()
            j = left[node]
            while j != node:
                uncover(item[j])
                j = left[j]
            chosen.pop()
            node = down[node]
        uncover(header)

    yield from search()
