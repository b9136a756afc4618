"""The CP-SAT model proto in protobuf text form, as the cpsat backend builds it.

A kind's model translated as every kind's (``models.zero_one.cpsat.translate``); for
placement a variable ``q_3_5`` per open cell, one constraint per board group, given
queens fixed. Any OR-Tools (C++, Python, Java, ...) reads it into a ``CpModelProto`` and
solves it; protobuf text format takes ``#`` comments.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.spec import ModelInstance, commented


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A kind's model as ``models.zero_one.cpsat.translate`` makes it."""
    from queenslab.models.zero_one.cpsat import translate

    out.write(commented(instance.header(), "#"))
    out.write(str(translate(instance.model).proto))
