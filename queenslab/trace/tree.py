"""The search tree of a row-by-row trace, laid out for drawing beside the board.

Each ``place`` step is a node one level below the node it extends; ``remove`` marks the
node abandoned, ``solution`` marks it a solution, ``restart`` returns to the root. Leaves
take x = 0, 1, 2, ... in the order they appear, and a parent sits midway between its first
and last child: the tree grows left to right as the search moves on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def layout(steps: Sequence[dict[str, Any]]) -> dict[str, list[Any]]:
    """Node columns for the player: x, depth, parent, and the step each node appears at.

    ``node_of_step[i]`` is the node a step creates or changes (-1 for none): the player
    draws it at that step (a place), greys it (a remove) or marks it (a solution).
    """
    parent, depth, born = [-1], [0], [0]
    children: list[list[int]] = [[]]
    node_of_step = []
    path = [0]
    for step in steps:
        kind, node = step["kind"], -1
        if kind == "place":
            node = len(parent)
            parent.append(path[-1])
            depth.append(step["row"] + 1)
            born.append(step["step"])
            children.append([])
            children[path[-1]].append(node)
            path.append(node)
        elif kind == "remove":
            node = path.pop()
        elif kind == "solution":
            node = path[-1]
        elif kind == "restart":
            path = [0]
        node_of_step.append(node)
    x = [0.0] * len(parent)
    leaves = 0
    for node in range(len(parent)):  # preorder: leaves left to right as they appear
        if not children[node]:
            x[node] = leaves
            leaves += 1
    for node in reversed(range(len(parent))):  # children are numbered after their parent
        kids = children[node]
        if kids:
            x[node] = (x[kids[0]] + x[kids[-1]]) / 2
    return {
        "x": x,
        "depth": depth,
        "parent": parent,
        "born": born,
        "node_of_step": node_of_step,
        "leaves": [max(leaves, 1)],
    }
