"""Problem kinds: the questions queenslab asks of a board, by name.

A new kind is one module (a ``ProblemKind`` subclass) and one line in ``KINDS``.
"""

from __future__ import annotations

from queenslab.core.errors import UsageError
from queenslab.problems.base import ProblemKind
from queenslab.problems.coloring import Coloring
from queenslab.problems.domination import Domination
from queenslab.problems.peaceable import Peaceable

KINDS: dict[str, type[ProblemKind]] = {
    kind.name: kind for kind in (Domination, Peaceable, Coloring)
}


def kind(name: str) -> ProblemKind:
    """The kind called ``name``; a one-line UsageError naming the choices otherwise."""
    try:
        return KINDS[name]()
    except KeyError:
        raise UsageError(f"unknown problem {name!r}; choose from: {', '.join(KINDS)}") from None
