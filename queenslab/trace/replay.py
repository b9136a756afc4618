"""A trace replayed as boards, and as the frames of an animation (SVG and GIF alike).

``replay`` gives the board after each step; after a search that walked its whole tree
(``exhausted``) the last solution comes back on the board, so an ``--all`` animation ends
on an answer rather than an empty board. ``frames`` adds what a slide shows besides the
queens: the cell a test refused and the queen that attacks it, the domains of forward
checking and MAC with the values the last placement removed, the row a wipe-out or dead
end emptied, the rows a move changed, the queens under attack, the caption, and how long
each frame stays (a solution longer, the last one longest). ``chosen`` picks the frames of
a budget: the key steps (ends, solutions, failures) first, then evenly spread others.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from queenslab.boards import Board
from queenslab.io.pictures import STYLE
from queenslab.trace.captions import caption
from queenslab.trace.tracer import Tracer
from queenslab.trace.tree import nodes

#: Frames in an animation unless asked otherwise (``chosen`` says which are kept).
MAX_FRAMES = 200
#: Frames per second unless asked otherwise.
DEFAULT_FPS = 4.0
#: Seconds a solution stays on screen, and the last frame before the loop starts again.
SOLUTION_SECONDS = 1.5
FINAL_SECONDS = 4.0


def replay(n: int, steps: Sequence[dict[str, Any]]) -> Iterator[list[int]]:
    """The board (column per row, -1 for none) after each step."""
    cols, last_solution = [-1] * n, None
    for step in steps:
        kind = step["kind"]
        if kind in ("place", "move"):
            cols[step["row"]] = step["col"]
        elif kind == "remove":
            cols[step["row"]] = -1
        elif kind == "swap":
            for row, col in zip(step["rows"], step["cols"], strict=True):
                cols[row] = col
        elif kind in ("restart", "solution"):
            cols = list(step["cols"])
            if kind == "solution":
                last_solution = list(cols)
        elif kind == "end" and step["status"] == "exhausted" and last_solution is not None:
            cols = list(last_solution)
        yield list(cols)


def inference(
    steps: Sequence[dict[str, Any]], start: Sequence[int]
) -> Iterator[tuple[Sequence[int] | None, Sequence[int]]]:
    """Per step, the domains that hold (forward checking, MAC; None without inference) and
    the ones they came from: the parent node's, or ``start`` (the open cells) at the root."""
    stack: list[Sequence[int] | None] = [None]
    for step in steps:
        kind = step["kind"]
        if kind == "place":
            stack.append(step.get("domains", stack[-1]))
        elif kind == "remove" and len(stack) > 1:
            stack.pop()
        elif kind == "prune":
            stack = [step["domains"]]
        elif kind == "restart":
            stack = [None]
        parent = stack[-2] if len(stack) > 1 else None
        yield stack[-1], start if parent is None else parent


#: Steps whose frame crosses out the values the last placement's inference removed.
CROSSING = frozenset({"place", "prune", "wipeout"})


@dataclass(frozen=True)
class Frame:
    """One picture of an animation."""

    step: int  # the step shown, numbered from 1 as the trace numbers them
    cols: list[int]
    caption: str
    seconds: float
    rejected: tuple[int, int] | None = None  # a cell a test refused ...
    attacker: int | None = None  # ... and the row of the queen that attacks it
    moved: tuple[int, ...] = ()  # rows a local search move changed
    attacked: frozenset[int] = frozenset()  # rows whose queen is attacked
    solution: bool = False
    domains: tuple[int, ...] = ()  # per open row, the columns still possible (FC, MAC)
    crossed: tuple[int, ...] = ()  # per open row, the columns this placement's inference removed
    emptied: int | None = None  # the row left without a column (a wipe-out or a dead end)

    def colour(self, row: int, given: bool) -> str:
        """A queen's colour: green in a solution, red under attack, then given or plain."""
        if self.solution:
            return STYLE.solution
        if row in self.attacked:
            return STYLE.attacked
        return STYLE.given if given else STYLE.queen


@dataclass(frozen=True)
class KeySteps:
    """The steps a slide must not skip (indices into the trace's steps)."""

    ends: list[int]  # the first and the last step
    solutions: list[int]
    failures: list[int]  # each wipe-out, and each dead end's last step before its take-back

    @classmethod
    def of(cls, steps: Sequence[dict[str, Any]]) -> KeySteps:
        failures = {
            at - 1 if steps[at - 1]["kind"] == "wipeout" else max(at - 2, 0)
            for at in nodes(steps)["failed"]
            if at
        }  # a dead end fails at its remove: the step before still shows its queen
        return cls(
            sorted({0, len(steps) - 1}),
            [i for i, step in enumerate(steps) if step["kind"] == "solution"],
            sorted(failures),
        )


def chosen(keys: KeySteps, steps: int, budget: int, key_only: bool) -> list[int]:
    """At most ``budget`` of the indices of ``steps`` steps: the ends, then the solutions,
    then the failures, then (unless ``key_only``) the other steps, each group spread evenly
    once it no longer fits whole."""
    groups = [keys.ends, keys.solutions, keys.failures]
    if not key_only:
        groups.append(list(range(steps)))
    picked: set[int] = set()
    for group in groups:
        fresh = [i for i in group if i not in picked]
        room = budget - len(picked)
        picked.update(spread(fresh, room))
        if room < len(fresh):
            break
    return sorted(picked)


def spread(items: list[int], count: int) -> list[int]:
    """``count`` of ``items``, evenly spaced, the last one always among them."""
    if count >= len(items):
        return items
    if count <= 1:
        return items[-1:] if count == 1 else []
    return [items[round(k * (len(items) - 1) / (count - 1))] for k in range(count)]


def frames(
    tracer: Tracer, board: Board, fps: float = DEFAULT_FPS, budget: int = MAX_FRAMES,
    key_only: bool = False,
) -> list[Frame]:  # fmt: skip
    """The frames ``chosen`` shows; a solution stays longer, the last frame longest."""
    steps = tracer.steps
    keys = KeySteps.of(steps)
    keep = set(chosen(keys, len(steps), budget, key_only))
    dead_ends = set(keys.failures)
    states = zip(
        steps, replay(tracer.n, steps), inference(steps, board.allowed_masks()), strict=True
    )
    found: list[Frame] = []
    for index, (step, cols, (domains, before)) in enumerate(states):
        if index in keep:
            last, solution = index == len(steps) - 1, step["kind"] == "solution"
            seconds = FINAL_SECONDS if last else SOLUTION_SECONDS if solution else 1 / fps
            frame = _frame(step, cols, board, seconds)
            if domains is not None:
                frame = _with_domains(frame, step, domains, before)
            if index in dead_ends and step["kind"] == "reject":
                words = f"{frame.caption}: row {step['row']} has no column left, a dead end"
                frame = replace(frame, caption=words, emptied=step["row"])
            found.append(frame)
    return found


def _with_domains(
    frame: Frame, step: dict[str, Any], domains: Sequence[int], before: Sequence[int]
) -> Frame:
    """The open rows' domains on ``frame``, crossing what this placement's inference removed."""
    open_rows = [c < 0 for c in frame.cols]
    crossing = step["kind"] in CROSSING
    shown = tuple(d if o else 0 for d, o in zip(domains, open_rows, strict=True))
    crossed = tuple(
        b & ~d if o and crossing else 0 for b, d, o in zip(before, shown, open_rows, strict=True)
    )
    emptied = step["row"] if step["kind"] == "wipeout" else None
    return replace(frame, domains=shown, crossed=crossed, emptied=emptied)


def _frame(step: dict[str, Any], cols: list[int], board: Board, seconds: float) -> Frame:
    kind = step["kind"]
    rejected = (step["row"], step["col"]) if kind == "reject" else None
    moved = tuple(step["rows"]) if kind == "swap" else (step["row"],) if kind == "move" else ()
    attacked: frozenset[int] = frozenset()
    if -1 not in cols:
        attacked = frozenset(row for pair in board.check(cols).attacking for row in pair)
    solution = -1 not in cols and not attacked and board.is_valid(cols)
    return Frame(
        step["step"], cols, caption(step), seconds, rejected, step.get("by"), moved, attacked,
        solution,
    )  # fmt: skip
