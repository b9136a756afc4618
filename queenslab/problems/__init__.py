"""Problem kinds: the questions queenslab asks of a board, by name.

Three sources, looked up when a call is made (never frozen at import): the package's own
kinds (``BUILTIN``), those other packages declare in the ``queenslab.kinds`` entry-point
group, and classes registered at run time with ``register_kind``. A new built-in kind is
one module (a ``ProblemKind`` subclass) and one line in ``BUILTIN``; a user's kind is a
subclass and ``register_kind`` (docs/modelling.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
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

BUILTIN: dict[str, type[ProblemKind]] = {
    kind.name: kind for kind in (NQueens, Domination, IndependentDomination, Peaceable, Coloring)
}
_registered: dict[str, type[ProblemKind]] = {}


@cache
def _plugins() -> dict[str, str]:
    """Kinds declared by installed packages: name -> "module:Class" (not imported)."""
    return plugins.declared(ENTRY_POINT_GROUP)


def register_kind(cls: type[ProblemKind]) -> type[ProblemKind]:
    """Make ``cls`` a kind of this process under ``cls.name``: ``--problem NAME`` and
    ``problem="NAME"`` find it, and so do the model backends, whenever it is registered.

    Returns the class, so it also works as a class decorator.
    """
    if not (isinstance(cls, type) and issubclass(cls, ProblemKind)):
        raise UsageError(f"{cls!r} must be a subclass of queenslab.ProblemKind")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise UsageError(f"{cls.__name__} must set its name (name = '...')")
    if name in BUILTIN:
        raise UsageError(f"problem name {name!r} is taken by a built-in kind")
    _registered[name] = cls
    return cls


def kind_names() -> list[str]:
    """Every kind's name: built-in, then installed plug-ins, then registered ones."""
    return list(dict.fromkeys([*BUILTIN, *_plugins(), *_registered]))


def kind_class(name: str) -> type[ProblemKind]:
    """The kind called ``name``; a one-line UsageError naming the choices otherwise."""
    found = BUILTIN.get(name) or _registered.get(name)
    if found is not None:
        return found
    target = _plugins().get(name)
    if target is None:
        raise UsageError(f"unknown problem {name!r}; choose from: {', '.join(kind_names())}")
    cls = plugins.load(f"problem {name}", target, ProblemKind)
    if cls.name != name:
        raise UsageError(f"problem {name!r} ({target}) calls itself {cls.name!r}")
    return cls


def kind(name: str | ProblemKind, weights: Any = None, givens: Sequence[Cell] = ()) -> ProblemKind:
    """The question: the kind called ``name`` with ``weights`` and ``givens`` (each refused
    in one line by a kind that takes none), or ``name`` itself when it is a kind already."""
    if isinstance(name, ProblemKind):
        if weights is not None or givens:
            raise UsageError("pass weights and givens to the kind itself")
        return name
    return kind_class(name)(weights, givens)
