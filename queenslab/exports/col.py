"""The queens graph of the board in DIMACS graph format (``.col``), for graph solvers.

The format of the DIMACS colouring challenge (queen5_5 ... queen16_16 are such files):
``p edge V E``, then one ``e u v`` line per edge. Vertices are the open cells, numbered
from 1 row by row over the open cells only (blocked cells have no vertex); two vertices
are joined when a queen on one attacks the other under the board's rules (its lines, wrapped
on a torus, through blocked cells, and its leaps: ``boards.graph.neighbours``). The graph
is the same whatever the problem: colouring, domination and peaceable armies all ask about
it, so the problem's model, objective and symmetry breaking are not written.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.spec import Instance, ModelInstance, commented, title


def write(instance: Instance | ModelInstance, out: TextIO) -> None:
    from queenslab.boards.graph import neighbours

    board = instance.problem.board
    near = neighbours(board)
    number = {cell: i for i, cell in enumerate(near, 1)}
    edges = sorted(
        (number[cell], number[other]) for cell in near for other in near[cell] if cell < other
    )
    first = ", ".join(f"{i} = {r}:{c}" for (r, c), i in list(number.items())[:3])
    notes = [
        *title(instance.problem, ", the queens graph"),
        f"vertices: the open cells, numbered from 1 row by row ({first}, ...)",
        "edges: the two cells attack each other (lines through blocked cells too, and leaps)",
        *(["given queens are not part of the graph"] if instance.problem.givens else []),
    ]
    out.write(commented(notes, "c"))
    out.write(f"p edge {len(number)} {len(edges)}\n")
    out.writelines(f"e {u} {v}\n" for u, v in edges)
