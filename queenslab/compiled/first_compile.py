"""Say that kernels compile, once, and how long it took: a first run pauses for up to a
minute, and without a word it looked hung (piped, nothing at all was printed).

Numba tells this module when it compiles a kernel of this package (``jit``: ``compiling``
as the outermost compile starts, ``compiled`` with its seconds as it ends). The command
line chooses what is said and where (``announce_with``, ``spent``): this layer, beneath
everything, imports nothing and knows no terminal.
"""

from __future__ import annotations

from collections.abc import Callable

_announce: Callable[[], None] | None = None
_spent = 0.0


def announce_with(callback: Callable[[], None]) -> None:
    """Call ``callback`` before the next kernel compiles (once); ``spent`` counts from here."""
    global _announce, _spent
    _announce, _spent = callback, 0.0


def compiling() -> None:
    """A kernel is about to compile: the callback runs, the first time only."""
    global _announce
    callback, _announce = _announce, None
    if callback is not None:
        callback()


def compiled(seconds: float) -> None:
    """A kernel (with those it calls) took ``seconds`` to compile."""
    global _spent
    _spent += seconds


def spent() -> float:
    """Seconds spent compiling the package's kernels since ``announce_with``."""
    return _spent
