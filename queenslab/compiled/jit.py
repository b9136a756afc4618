"""Import numba with one compile cache for this package, wherever its sources lie.

Numba keeps a kernel's cache beside its source file (or under a folder named by the
source's path): every copy of the package, the checkout the tests import and the
installed ``queens``, compiled the same kernels again. This package's kernels are cached
under ``native.cache_root()`` instead (``NUMBA_CACHE_DIR`` when set, else the user's
cache, writable on a read-only install too), in a folder named by the module and a digest
of its source, so identical sources share one cache and two versions keep one each.
Kernel modules import numba's names from here, never from numba directly.

Loading one of this package's kernels from the cache skips numba's context refresh (unless
``QUEENSLAB_NATIVE=0``, which leaves numba as it is), which
imports and registers every lowering numba has (about 0.2 s of a process that counts
n = 16 in 1 s): machine code read from the cache needs none of them, only the runtime
that allocates arrays. Numba refreshes on its own when it does compile or look up a
lowering.
"""

from __future__ import annotations

import functools
import hashlib
import time
from pathlib import Path
from typing import Any

from numba import carray, cfunc, njit, types
from numba.core import caching, cgutils, event
from numba.core.runtime import rtsys
from numba.extending import intrinsic

from queenslab.compiled import first_compile
from queenslab.compiled.native import cache_root, enabled

__all__ = ["carray", "cfunc", "cgutils", "intrinsic", "njit", "types"]


_numba_load_overload = caching.Cache.load_overload
#: The modules whose kernels are this package's (all of queenslab, not this wing alone).
_PACKAGE = __name__.partition(".")[0] + "."


@functools.cache
def _digest(source: str) -> str:
    """The source file's content, digested: the same for every copy of it."""
    return hashlib.sha256(Path(source).read_bytes()).hexdigest()[:24]


class _SharedLocator(caching._CacheLocator):
    """Where numba caches this package's kernels: ``cache_root()/<module>-<digest>``."""

    def __init__(self, function: Any, source: str) -> None:
        self._lineno = function.__code__.co_firstlineno
        self._stamp = _digest(source)
        self._path = str(cache_root() / f"{function.__module__}-{self._stamp}")

    def get_cache_path(self) -> str:
        return self._path

    def get_source_stamp(self) -> str:
        """The content, not the file's time: a copy of the same source is as fresh."""
        return self._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, function: Any, source: str) -> _SharedLocator | None:
        """This package's functions only; None (numba's own places) where the cache root
        cannot be written."""
        if not getattr(function, "__module__", "").startswith(_PACKAGE):
            return None
        try:
            locator = cls(function, source)
            locator.ensure_cache_path()  # type: ignore[no-untyped-call]
        except OSError:
            return None
        return locator


# numba before 0.68 names the class _CacheImpl
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # type: ignore[attr-defined]
_CACHE_IMPL._locator_classes.insert(0, _SharedLocator)


def _load_overload(self: caching.Cache, sig: Any, target_context: Any) -> Any:
    """``Cache.load_overload`` without the refresh for this package's kernels only.

    Other code in the process (a user's own kernels) keeps numba's behaviour untouched.
    """
    if not getattr(self._py_func, "__module__", "").startswith(_PACKAGE):
        return _numba_load_overload(self, sig, target_context)  # type: ignore[no-untyped-call]  # numba's
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
    caching.Cache.load_overload = _load_overload  # type: ignore[method-assign]  # numba's, replaced
