"""The board layer: what a board is (cells, attack lines, leaps, symmetries), written once.

Every other module asks a ``Board`` instead of writing a board rule of its own. A new
variant is one module declaring a ``Variant`` subclass and one line in ``VARIANTS``.
"""

from __future__ import annotations

from collections.abc import Iterable

from queenslab.boards.base import Board, Cell, Line, LineFamily, Variant, Verdict
from queenslab.boards.standard import Standard
from queenslab.boards.superqueens import SuperQueens
from queenslab.boards.toroidal import Toroidal

VARIANTS: dict[str, type[Variant]] = {v.name: v for v in (Standard, Toroidal, SuperQueens)}
DEFAULT_VARIANT = Standard.name


class UnknownVariant(ValueError):
    """No variant has this name (the problem layer turns it into a usage error)."""


def variant(name: str) -> type[Variant]:
    """The variant called ``name``; UnknownVariant, naming the choices, otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariant(
            f"unknown variant {name!r}; choose from: {', '.join(VARIANTS)}"
        ) from None


def board(n: int, variant_name: str = DEFAULT_VARIANT, blocked: Iterable[Cell] = ()) -> Board:
    return Board(n, variant(variant_name), blocked)


__all__ = [
    "DEFAULT_VARIANT",
    "VARIANTS",
    "Board",
    "Cell",
    "Line",
    "LineFamily",
    "UnknownVariant",
    "Variant",
    "Verdict",
    "board",
    "variant",
]
