"""Import numba with a writable compile cache, so ``cache=True`` works on read-only installs.

Numba writes its cache beside the source files; when that directory is not writable (a
system-wide install), point ``NUMBA_CACHE_DIR`` at the user's cache before numba loads.
Kernel modules import numba's names from here, never from numba directly.

Loading one of this package's kernels from the cache skips numba's context refresh (unless
``QUEENSLAB_NATIVE=0``, which leaves numba as it is), which
imports and registers every lowering numba has (about 0.2 s of a process that counts
n = 16 in 1 s): machine code read from the cache needs none of them, only the runtime
that allocates arrays. Numba refreshes on its own when it does compile or look up a
lowering.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from queenslab.compiled import first_compile
from queenslab.compiled.native import enabled, numba_user_cache

if "NUMBA_CACHE_DIR" not in os.environ and not os.access(Path(__file__).parent, os.W_OK):
    os.environ["NUMBA_CACHE_DIR"] = str(numba_user_cache())

from numba import carray, cfunc, njit, types  # imported after the environment is set
from numba.core import caching, cgutils, event
from numba.core.runtime import rtsys
from numba.extending import intrinsic

__all__ = ["carray", "cfunc", "cgutils", "intrinsic", "njit", "types"]


_numba_load_overload = caching.Cache.load_overload
#: The modules whose kernels are this package's (all of queenslab, not this wing alone).
_PACKAGE = __name__.partition(".")[0] + "."


def _load_overload(self: caching.Cache, sig: Any, target_context: Any) -> Any:
    """``Cache.load_overload`` without the refresh for this package's kernels only.

    Other code in the process (a user's own kernels) keeps numba's behaviour untouched.
    """
    if not getattr(self._py_func, "__module__", "").startswith(_PACKAGE):
        return _numba_load_overload(self, sig, target_context)
    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


class _CompileClock(event.Listener):
    """Tells ``first_compile`` when a kernel of this package starts compiling and how long
    it took: the outermost compile only (a kernel compiles those it calls inside its own);
    numba holds its compiler lock meanwhile, so one compile runs at a time."""

    def __init__(self) -> None:
        self._depth = 0
        self._start: float | None = None  # None: the compile under way is not ours

    def on_start(self, event: event.Event) -> None:
        self._depth += 1
        if self._depth == 1:
            function = getattr(event.data["dispatcher"], "py_func", None)
            ours = getattr(function, "__module__", "").startswith(_PACKAGE)
            self._start = time.perf_counter() if ours else None
            if ours:
                first_compile.compiling()

    def on_end(self, event: event.Event) -> None:
        self._depth -= 1
        if self._depth == 0 and self._start is not None:
            first_compile.compiled(time.perf_counter() - self._start)


event.register("numba:compile", _CompileClock())


# Only with the start-up tricks switched on (QUEENSLAB_NATIVE), and on the numba versions
# whose cache works this way.
if enabled() and hasattr(caching.Cache, "_load_overload"):
    caching.Cache.load_overload = _load_overload
