"""Problem kinds: the questions queenslab asks of a board, by name.

A new kind is one module (a ``ProblemKind`` subclass) and one line in ``KINDS``.
"""

from __future__ import annotations

from typing import Any

from queenslab.core.errors import UsageError
from queenslab.core.kind import ProblemKind
from queenslab.problems.coloring import Coloring
from queenslab.problems.domination import Domination
from queenslab.problems.independent_domination import IndependentDomination
from queenslab.problems.peaceable import Peaceable
from queenslab.problems.placement import Placement

#: The kind every command answers unless told otherwise.
DEFAULT_KIND = Placement.name

KINDS: dict[str, type[ProblemKind]] = {
    kind.name: kind
    for kind in (
        Placement,
        Domination,
        IndependentDomination,
        Peaceable,
        Coloring,
    )
}


def kind(name: str, weights: Any = None) -> ProblemKind:
    """The kind called ``name`` (with ``weights`` if it takes them); a one-line UsageError
    naming the choices otherwise."""
    try:
        cls = KINDS[name]
    except KeyError:
        raise UsageError(f"unknown problem {name!r}; choose from: {', '.join(KINDS)}") from None
    return cls(weights)
