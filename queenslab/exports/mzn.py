"""A readable MiniZinc model with its data, in one file.

The model is the textbook one: ``q[r]`` is the column of the queen in row r, so rows hold
one queen by construction, and every other line family of the board is an
``alldifferent`` over the rows' line keys. Those keys are written from the board's
declared line families (``a*r + b*q[r]``, taken modulo n on a board whose diagonals
wrap) and its declared leaps, so the model says in MiniZinc's terms exactly what the
board layer says; blocked cells, given queens and weights are data.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.boards import Cell, LineFamily
from queenslab.exports.spec import Instance, commented, rules, title


def key(family: LineFamily) -> str:
    """The line of this family through (r, q[r]), as a MiniZinc expression."""
    terms = [(w, name) for w, name in ((family.row_weight, "r"), (family.col_weight, "q[r]")) if w]
    if family.wraps and any(w < 0 for w, _ in terms):
        terms.append((1, "n"))  # MiniZinc's mod keeps the sign: stay non-negative
    text = " ".join(
        f"{'-' if w < 0 else '+'} {'' if abs(w) == 1 else f'{abs(w)} * '}{name}"
        for w, name in terms
    ).removeprefix("+ ")
    text = "-" + text[2:] if text.startswith("- ") else text
    return f"({text}) mod n" if family.wraps else text


def _pairs(name: str, cells: tuple[Cell, ...]) -> str:
    """A k x 2 array of (row, column) pairs."""
    if not cells:
        return f"array[int, 1..2] of int: {name} = array2d(1..0, 1..2, []);\n"
    rows = " | ".join(f"{r}, {c}" for r, c in cells)
    return f"array[int, 1..2] of int: {name} = [| {rows} |];\n"


def write(instance: Instance, out: TextIO) -> None:
    problem = instance.problem
    n = problem.n
    board = problem.board
    out.write(
        commented(
            [
                *title(problem),
                "q[r] is the column of the queen in row r (rows and columns 0-based)",
                rules(problem),
            ],
            "%",
        )
    )
    out.write('include "alldifferent.mzn";\n\n% data\n')
    out.write(f"int: n = {n};\n")
    out.write(_pairs("blocked", problem.blocked))
    out.write(_pairs("given", problem.givens))
    if instance.weights is not None:
        values = ",\n".join("  " + ", ".join(str(int(w)) for w in row) for row in instance.weights)
        out.write(
            f"array[0..n-1, 0..n-1] of int: weight = array2d(0..n-1, 0..n-1, [\n{values}\n]);\n"
        )
    out.write(
        "\n% model\nset of int: ROWS = 0..n-1;\n"
        "array[ROWS] of var 0..n-1: q;  % one queen per row by construction\n"
    )
    for family in board.families[1:]:
        out.write(f"% no two queens on one {family.name} line\n")
        out.write(f'constraint alldifferent([{key(family)} | r in ROWS]) :: "{family.name}";\n')
    if board.variant.leaps:
        out.write("% no queen a leap away from another: (rows down, columns across)\n")
    for dr, dc in board.variant.leaps:
        out.write(
            f"constraint forall(r in ROWS where r + {dr} < n)(q[r + {dr}] - q[r] != {dc})"
            f' :: "leap_{dr}_{dc}";\n'
        )
    out.write(
        "constraint forall(i in index_set_1of2(blocked))(q[blocked[i, 1]] != blocked[i, 2]);\n"
        "constraint forall(i in index_set_1of2(given))(q[given[i, 1]] = given[i, 2]);\n\n"
    )
    if instance.weights is None:
        out.write("solve satisfy;\n")
    else:
        out.write("solve maximize sum(r in ROWS)(weight[r, q[r]]);\n")
    out.write('output ["q = \\(q)\\n"];\n')
