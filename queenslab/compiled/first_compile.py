"""Say that kernels compile, once: a first run pauses for seconds without a sign of life.

Numba compiles a kernel of this package when its cache holds no machine code for it
(``jit`` tells this module then). The command line chooses what is said and where
(``announce_with``): this layer, beneath everything, imports nothing and knows no terminal.
"""

from __future__ import annotations

from collections.abc import Callable

_announce: Callable[[], None] | None = None


def announce_with(callback: Callable[[], None]) -> None:
    """Call ``callback`` before the next kernel compiles (once per process)."""
    global _announce
    _announce = callback


def compiling() -> None:
    """A kernel is about to compile: the callback runs, the first time only."""
    global _announce
    callback, _announce = _announce, None
    if callback is not None:
        callback()
