"""The search tree of a row-by-row trace: its nodes and when each appears, ends or fails.

Each ``place`` step is a node one level below the node it extends (node k is the k-th
place, node 0 the empty board); ``remove`` closes it, ``solution`` marks it a solution,
``restart`` abandons the path and returns to the root. A node closed without children
that is no solution is a failure: a dead end (every column of the next row refused) or a
wipe-out (inference emptied a domain). The player lays the tree out itself, because
folding a subtree moves the others; these columns tell it what to draw at each step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def nodes(steps: Sequence[dict[str, Any]]) -> dict[str, list[int]]:
    """Per node: ``parent``, ``born`` (its place step), ``end`` (its remove step, 0 while
    open at the end), ``solved`` (the step it became a solution, 0 if never) and ``failed``
    (the step its failure shows: the wipe-out, or the remove of a dead end; 0 if never)."""
    parent, born, end, solved, failed = [-1], [0], [0], [0], [0]
    has_child = [False]
    path = [0]

    def close(node: int, at: int) -> None:
        end[node] = at
        if not (has_child[node] or solved[node] or failed[node]):
            failed[node] = at

    for step in steps:
        kind = step["kind"]
        if kind == "place":
            has_child[path[-1]] = True
            path.append(len(parent))
            parent.append(path[-2])
            for column, value in ((born, step["step"]), (end, 0), (solved, 0), (failed, 0)):
                column.append(value)
            has_child.append(False)
        elif kind == "remove":
            close(path.pop(), step["step"])
        elif kind == "restart":  # Las Vegas abandons the whole path at once
            while len(path) > 1:
                close(path.pop(), step["step"])
        elif kind == "wipeout":
            failed[path[-1]] = step["step"]
        elif kind == "solution":
            solved[path[-1]] = step["step"]
    return {"parent": parent, "born": born, "end": end, "solved": solved, "failed": failed}
