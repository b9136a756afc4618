"""The CP-SAT model proto in protobuf text form, as ``models.cpsat.build`` makes it.

The Boolean formulation, the placement kind's model: a variable ``q_3_5`` per open cell,
one constraint per board group, given queens fixed. Any
OR-Tools (C++, Python, Java, ...) reads it into a ``CpModelProto`` and solves it;
protobuf text format takes ``#`` comments.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.spec import Instance, ModelInstance, commented, rules, title


def write(instance: Instance, out: TextIO) -> None:
    from queenslab.models.cpsat import build

    problem = instance.problem
    built = build(problem, "boolean", weights=instance.weights)
    notes = [
        *title(problem),
        "q_R_C = 1 when a queen stands on row R, column C (0-based)",
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
