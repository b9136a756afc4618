"""Problem kinds: the questions queenslab asks of a board, by name.

Three sources, looked up when a call is made (never frozen at import): the package's own
kinds (``BUILTIN``), those other packages declare in the ``queenslab.kinds`` entry-point
group, and classes registered at run time with ``register_kind``. A new built-in kind is
one module (a ``ProblemKind`` subclass) and one line in ``BUILTIN``; a user's kind is a
subclass and ``register_kind`` (docs/modelling.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from queenslab.boards import Cell
from queenslab.core import plugins
from queenslab.core.errors import UsageError
from queenslab.core.kind import ProblemKind
from queenslab.problems.coloring import Coloring
from queenslab.problems.domination import Domination
from queenslab.problems.independent_domination import IndependentDomination
from queenslab.problems.peaceable import Peaceable
from queenslab.problems.placement import NQueens

#: The kind every command answers unless told otherwise.
DEFAULT_KIND = NQueens.name
ENTRY_POINT_GROUP = "queenslab.kinds"

BUILTIN: dict[str, type[ProblemKind[Any]]] = {
    kind.name: kind for kind in (NQueens, Domination, IndependentDomination, Peaceable, Coloring)
}
#: Every kind by name: ``BUILTIN``, the entry-point group, ``register_kind``.
KIND_REGISTRY = plugins.Registry("problem", ProblemKind, ENTRY_POINT_GROUP, lambda: BUILTIN)
#: Make a kind known under its name: ``--problem NAME`` and ``problem="NAME"`` find it,
#: and so do the model backends, whenever it is registered (a class decorator too).
register_kind = KIND_REGISTRY.register
#: Every kind's name: built-in, then installed plug-ins, then registered ones.
kind_names = KIND_REGISTRY.names
#: The kind called ``name``; a one-line UsageError naming the choices otherwise.
kind_class = KIND_REGISTRY.get


def kind(
    name: str | ProblemKind[Any], weights: Any = None, givens: Sequence[Cell] = ()
) -> ProblemKind[Any]:
    """The question: the kind called ``name`` with ``weights`` and ``givens`` (each refused
    in one line by a kind that takes none), or ``name`` itself when it is a kind already."""
    if isinstance(name, ProblemKind):
        if weights is not None or givens:
            raise UsageError("pass weights and givens to the kind itself")
        return name
    return kind_class(name)(weights, givens)
