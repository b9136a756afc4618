"""The CP-SAT model proto in protobuf text form, as ``models.cpsat.build`` makes it.

The Boolean formulation: a variable ``x_r3_c5`` per cell, one constraint per board group
named after it (``row_3``, ``diag_up_7``, ...), blocked cells and given queens fixed. Any
OR-Tools (C++, Python, Java, ...) reads it into a ``CpModelProto`` and solves it;
protobuf text format takes ``#`` comments.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.spec import Instance, ModelInstance, commented, rules, title


def write(instance: Instance, out: TextIO) -> None:
    from queenslab.models.cpsat import build

    problem = instance.problem
    built = build(problem, "boolean")
    assert built.board is not None
    if instance.weights is not None:
        built.model.maximize(sum(w * built.board[r][c] for w, (r, c) in instance.weighted_cells()))
    notes = [
        *title(problem),
        "x_rR_cC = 1 when a queen stands on row R, column C (0-based)",
        rules(problem),
    ]
    if instance.weights is not None:
        notes.append("objective: maximise the total weight of the queens")
    out.write(commented(notes, "#"))
    out.write(str(built.model.proto))


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A kind's model as ``models.zero_one.cpsat.translate`` makes it."""
    from queenslab.models.zero_one.cpsat import translate

    out.write(commented(instance.header(), "#"))
    out.write(str(translate(instance.model).proto))
