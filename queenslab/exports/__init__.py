"""Every model export in one table: the format's name, file suffix, what it can express.

Each format is one module. A format that states a 0-1 model writes any kind's model,
placement's included (``write_model``), never a board rule of its own; the two that state
none write placement from the board (``write_board``: MiniZinc's textbook integer model,
the queens graph). A new format is a module and one line in ``FORMATS``. ``queens export``
and ``queens cnf`` are built from this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import TextIO

from queenslab.core.backend import Task
from queenslab.core.errors import UsageError
from queenslab.exports import col, cpsat, dimacs, lp, mps, mzn, opb, wcnf
from queenslab.exports.spec import Instance, ModelInstance

SOLVE, COUNT, OPTIMIZE = Task.SOLVE, Task.COUNT, Task.OPTIMIZE
#: Every format writes n² variables (and pairwise CNF n³ clauses): beyond this, refused.
MAX_N = 1000


@dataclass(frozen=True)
class Export:
    name: str
    suffix: str
    tasks: frozenset[Task]  # placement's: solve, count (every solution), optimize (--weights)
    help: str
    #: Writes a problem kind's 0-1 model, placement's too, where the format states one.
    write_model: Callable[[ModelInstance, TextIO], None] | None
    #: Writes placement from the board itself, where the format states no 0-1 model of it.
    write_board: Callable[[Instance, TextIO], None] | None = None


FORMATS: dict[str, Export] = {
    e.name: e
    for e in (
        Export("dimacs", ".cnf", frozenset({SOLVE, COUNT}),
               "CNF for SAT solvers and projected model counters", dimacs.write_model),
        Export("wcnf", ".wcnf", frozenset({OPTIMIZE}),
               "weighted MaxSAT, MaxSAT Evaluation 2022 format", wcnf.write_model),
        Export("opb", ".opb", frozenset({SOLVE, COUNT, OPTIMIZE}),
               "pseudo-Boolean, PB competition format", opb.write_model),
        Export("lp", ".lp", frozenset({SOLVE, OPTIMIZE}),
               "MILP, CPLEX LP format with readable names", lp.write_model),
        Export("mps", ".mps", frozenset({SOLVE, OPTIMIZE}),
               "MILP, free MPS with readable names", mps.write_model),
        Export("cpsat", ".pbtxt", frozenset({SOLVE, COUNT, OPTIMIZE}),
               "OR-Tools CP-SAT model proto, text form", cpsat.write_model),
        Export("mzn", ".mzn", frozenset({SOLVE, COUNT, OPTIMIZE}),
               "MiniZinc model with its data", None, mzn.write),
        Export("col", ".col", frozenset({SOLVE}),
               "the queens graph of the board, DIMACS graph format", col.write, col.write),
    )
}  # fmt: skip


def choose(name: str | None, output: str | None) -> Export:
    """The format named, else the one whose suffix ``output`` has."""
    if name is not None:
        return FORMATS[name]
    suffix = PurePath(output).suffix.lower() if output else ""
    for export in FORMATS.values():
        if suffix == export.suffix:
            return export
    raise UsageError(
        "give --format (" + ", ".join(FORMATS) + ")"
        + (f": the suffix of {output} names none" if output else "")
    )  # fmt: skip


def board_writer(instance: Instance, name: str) -> Callable[[Instance, TextIO], None] | None:
    """How format ``name`` writes placement asked as it is (no model, no symmetry): from the
    board, or None where it writes the kind's model (``model_writer``); a one-line
    UsageError where the format cannot express the task."""
    export = FORMATS.get(name)
    if export is None:
        raise UsageError(f"unknown export format {name!r}; choose from: {', '.join(FORMATS)}")
    task = instance.task
    if task not in export.tasks:
        able = ", ".join(e.name for e in FORMATS.values() if task in e.tasks)
        hint = " (it needs weights: --weights FILE)" if task is SOLVE else ""
        raise UsageError(f"format {name} cannot express {task}{hint}; formats that can: {able}")
    if instance.problem.n > MAX_N:
        raise UsageError(f"export writes n² variables: n must be at most {MAX_N}")
    return export.write_board


def model_writer(name: str) -> Callable[[ModelInstance, TextIO], None]:
    """How format ``name`` writes a problem kind's model; a one-line UsageError if it
    cannot (asked before an output file is opened)."""
    export = FORMATS.get(name)
    if export is None or export.write_model is None:
        able = ", ".join(e.name for e in FORMATS.values() if e.write_model is not None)
        raise UsageError(
            f"format {name} cannot express a problem's model; formats that can: {able}"
        )
    return export.write_model


__all__ = [
    "FORMATS",
    "Export",
    "Instance",
    "ModelInstance",
    "board_writer",
    "choose",
    "model_writer",
]
