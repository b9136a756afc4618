"""The 0-1 linear view of a problem kind's model, shared by the OPB, LP and MPS writers.

One row per clause and per linear constraint of the model, in its order, named as the
kind named it (the placement kind: ``row_3``, ``col_5``, ``diag_up_7``, ``leap_0_1_2_2``)
or by its place (``clause_12``, ``linear_3``).
"""

from __future__ import annotations

from dataclasses import dataclass

from queenslab.core.model import BoolModel
from queenslab.exports.spec import identifier


def wrapped(words: list[str], indent: str, per_line: int = 8) -> str:
    """Words joined by spaces, ``per_line`` to a line: LP readers limit line length."""
    return "\n".join(
        indent + " ".join(words[i : i + per_line]) for i in range(0, len(words), per_line)
    )


@dataclass(frozen=True)
class ModelRow:
    """``sum(coefficient * variable) sense rhs`` of a problem kind's 0-1 model."""

    name: str
    terms: tuple[tuple[int, int], ...]
    sense: str  # "=", "<=" or ">="
    rhs: int


class _Names:
    """Row names as every LP and MPS reader takes them, each once: a name met again gets
    ``_2``, ``_3``, ... (a kind may name two rows alike)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, name: str) -> str:
        base = identifier(name)
        unique, k = base, 1
        while unique in self.used:
            k += 1
            unique = f"{base}_{k}"
        self.used.add(unique)
        return unique


def model_rows(model: BoolModel) -> list[ModelRow]:
    """Every clause and linear constraint of ``model`` as a linear row: a clause named by
    its place (``clause_12``), a linear constraint by its own name or else by its place
    (``linear_3``); a range as two rows, ``_lo`` and ``_hi``.

    A clause is ``sum(x of its positive literals) - sum(x of its negative ones) >= 1 - m``
    with m its negative literals. A row without terms keeps its name as ``0 x >= 1``: as
    infeasible as it is, in every reader.
    """
    unique = _Names()
    rows = []
    for i, clause in enumerate(model.clauses):
        terms = tuple((1 if lit > 0 else -1, abs(lit) - 1) for lit in clause)
        negative = sum(a < 0 for a, _ in terms)
        rows.append(ModelRow(unique(f"clause_{i}"), terms or ((0, 0),), ">=", 1 - negative))
    for i, constraint in enumerate(model.linear):
        terms = constraint.terms or ((0, 0),)
        name = constraint.name or f"linear_{i}"
        lower, upper = constraint.lower, constraint.upper
        if lower is not None and lower == upper:
            rows.append(ModelRow(unique(name), terms, "=", lower))
            continue
        both = lower is not None and upper is not None
        if lower is not None:
            rows.append(ModelRow(unique(name + ("_lo" if both else "")), terms, ">=", lower))
        if upper is not None:
            rows.append(ModelRow(unique(name + ("_hi" if both else "")), terms, "<=", upper))
    return rows
