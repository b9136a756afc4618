"""Where a slide frame puts things, for the animated SVG and the GIF alike.

The board has its row and column numbers around it (the numbers every caption cites); a
row-by-row search has its tree beside the board, laid out as the player lays it out
(leaves left to right in the order the search met them, one level per row placed) and
coloured as the player colours it, up to ``TREE_MAX_NODES`` nodes); the caption runs
below both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from queenslab.io.pictures import STYLE
from queenslab.trace import method
from queenslab.trace.tracer import Tracer
from queenslab.trace.tree import nodes

#: Side of the board in pixels, the caption's font size, the tree panel's width.
SIDE = 480
FONT = 16
TREE_WIDTH = 480
#: Largest tree drawn beside the board (the whole n = 8 tree is 2,057 nodes); a bigger one
#: would be sub-pixel nodes and megabytes of SVG, so its slides show the board alone.
TREE_MAX_NODES = 3000
#: Space between the board and the tree, and the slide's least width (captions are long).
GAP = 24
MIN_WIDTH = 640
#: A tree node's label is at least this many pixels (a caption is FONT) or not drawn; a
#: node is at most LABEL_FONT / 1.2 pixels tall from its centre.
MIN_LABEL = 11
LABEL_FONT = 17
#: Width of a digit in ems (sans-serif digits are about 0.55 em wide).
DIGIT = 0.6


@dataclass(frozen=True)
class TreeView:
    """The search tree of a trace, placed in its panel: per node its centre and label."""

    parent: list[int]
    born: list[int]
    end: list[int]
    solved: list[int]
    failed: list[int]
    first_solution: list[float]  # the first step a solution shows in the node's subtree
    centres: list[tuple[float, float]]
    labels: list[str]  # the node's column, where the nodes are big enough to carry it
    rx: float  # a node's half width and half height: an oval where siblings crowd and
    ry: float  # the levels leave room for a label; a dot (rx = ry) where they do not
    font: int  # the labels' size, 0 for none

    @classmethod
    def of(
        cls, steps: Sequence[dict[str, Any]], box: tuple[float, float, float, float]
    ) -> TreeView:
        """The tree of ``steps`` fitted into ``box`` (left, top, width, height)."""
        tree = nodes(steps)
        parent = tree["parent"]
        count = len(parent)
        children: list[list[int]] = [[] for _ in range(count)]
        depth = [0] * count
        for v in range(1, count):  # a node's index is its place step's rank: parents first
            children[parent[v]].append(v)
            depth[v] = depth[parent[v]] + 1
        x = [0.0] * count
        leaves = 0
        for v in range(count):  # leaves in the order the search met them
            if not children[v]:
                x[v], leaves = leaves, leaves + 1
        for v in reversed(range(count)):
            if children[v]:
                x[v] = (x[children[v][0]] + x[children[v][-1]]) / 2
        left, top, width, height = box
        levels = max(max(depth), 1)
        # a level is taller than a leaf is wide: a node is as tall as its level allows and
        # only as wide as its neighbours leave, which still holds a column number
        columns = [""] + [str(s["col"]) for s in steps if s["kind"] == "place"]
        ry = max(1.5, min(LABEL_FONT / 1.2, height / (levels + 1) * 0.3))
        rx = max(1.5, min(ry, width / max(leaves, 2) * 0.45))
        font = math.floor(min(ry * 1.2, 1.5 * rx / (DIGIT * max(map(len, columns)))))
        ry = min(ry, font * 0.85) if font >= MIN_LABEL else rx
        font = font if font >= MIN_LABEL else 0
        pad_x, pad_y = rx + 4, ry + 4  # room for the ring around the current node
        across = (width - 2 * pad_x) / max(leaves - 1, 1)
        down = (height - 2 * pad_y) / levels
        centres = [
            (left + pad_x + x[v] * across, top + pad_y + depth[v] * down) for v in range(count)
        ]
        labels = columns if font else [""] * count
        first = [float(s) if s else math.inf for s in tree["solved"]]
        for v in reversed(range(1, count)):
            first[parent[v]] = min(first[parent[v]], first[v])
        return cls(
            parent, tree["born"], tree["end"], tree["solved"], tree["failed"], first, centres,
            labels, rx, ry, font,
        )  # fmt: skip

    def colour(self, v: int, step: int) -> str:
        """Green: a solution, or explored with a solution below; red: failed; grey: explored
        (the player's colours)."""
        closed = 0 < self.end[v] <= step
        if self.first_solution[v] <= step and (self.solved[v] or closed):
            return STYLE.solution
        if 0 < self.failed[v] <= step:
            return STYLE.attacked
        return STYLE.explored if closed else STYLE.path

    def current(self, step: int) -> int:
        """The deepest node open at ``step``: the one the board shows."""
        node = 0
        for v in range(1, len(self.parent)):
            if self.born[v] > step:
                break
            if not self.end[v] or self.end[v] > step:
                node = v
        return node


@dataclass(frozen=True)
class Layout:
    """The geometry of one slide: board, numbers, tree panel and caption."""

    n: int
    cell: int
    margin: int  # the strip above and left of the board that holds the numbers
    number_font: int
    tree: TreeView | None
    width: int
    height: int

    @classmethod
    def of(cls, tracer: Tracer) -> Layout:
        n = tracer.n
        cell = max(2, SIDE // n)
        number_font = max(9, min(FONT, round(cell * 0.45)))
        margin = round(number_font * 1.6)
        side = n * cell
        tree = None
        places = sum(step["kind"] == "place" for step in tracer.steps)
        if method(tracer.method)[0].tree and places < TREE_MAX_NODES:
            box = (margin + side + GAP, margin, TREE_WIDTH, side)
            tree = TreeView.of(tracer.steps, box)
        width = margin + side + (GAP + TREE_WIDTH if tree else 0)
        return cls(
            n, cell, margin, number_font, tree, max(width, MIN_WIDTH), margin + side + 2 * FONT + 8
        )

    @property
    def side(self) -> int:
        return self.n * self.cell

    @property
    def caption_baseline(self) -> int:
        return self.margin + self.side + FONT + 6

    def numbers(self) -> list[tuple[float, float, str]]:
        """Centres and texts of the column numbers (top) and row numbers (left); on big
        boards every k-th, so that they never overlap."""
        every = math.ceil(self.number_font * 1.6 / self.cell)
        middle = self.margin / 2
        marks = []
        for i in range(0, self.n, every):
            centre = self.margin + (i + 0.5) * self.cell
            marks += [(centre, middle, str(i)), (middle, centre, str(i))]
        return marks
