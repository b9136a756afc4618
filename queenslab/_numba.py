"""Import numba with a writable compile cache, so ``cache=True`` works on read-only installs.

Numba writes its cache beside the source files; when that directory is not writable (a
system-wide install), point ``NUMBA_CACHE_DIR`` at the user's cache before numba loads.
Kernel modules import numba's names from here, never from numba directly.
"""

from __future__ import annotations

import os
from pathlib import Path

if "NUMBA_CACHE_DIR" not in os.environ and not os.access(Path(__file__).parent, os.W_OK):
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["NUMBA_CACHE_DIR"] = str(base / "queenslab" / "numba")

from numba import njit, types  # imported after the environment is set
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["cgutils", "intrinsic", "njit", "types"]
