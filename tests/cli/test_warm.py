"""One compile cache for every command and every copy of the package; ``queens warm``
compiles every kernel into it (issue 48: a first hour compiled four times, and the
installed command compiled again what the tests had compiled)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from queenslab.runtime.progress import COMPILING
from tests.conftest import ROOT, on_terminal, queens_command

#: Run from a copy of the package (as an installed one is), this command line names the
#: package it imported on stderr first.
FROM_COPY = (
    "import sys, queenslab; print(queenslab.__file__, file=sys.stderr)\n"
    "from queenslab.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)


def _queens(argv: list[str], cache: Path, package: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        argv, capture_output=True, text=True, timeout=900, cwd=package,
        env={**os.environ, "PYTHONPATH": str(package), "NUMBA_CACHE_DIR": str(cache)},
    )  # fmt: skip


def test_a_first_run_says_that_it_compiles_and_a_copy_of_the_package_loads_it(tmp_path):
    """The first run of a command paused for seconds to compile, without a word; and Numba
    kept a kernel's cache under its source's path: the checkout and the installed copy of
    the same sources compiled the same kernels twice. One test, so one compilation."""
    cache = tmp_path / "cache"
    command = ["solve", "8", "-b", "las-vegas", "--seed", "1"]
    code, compiling = on_terminal(*command, NUMBA_CACHE_DIR=str(cache))
    assert code == 0 and compiling.startswith(f"{COMPILING}\r\n"), compiling
    assert "queens: kernels compiled in " in compiling, compiling
    code, again = on_terminal(*command, NUMBA_CACHE_DIR=str(cache))
    assert code == 0 and "compiling" not in again, again
    first = _queens([*queens_command(), *command], cache)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    copy = tmp_path / "installed"
    shutil.copytree(
        ROOT / "queenslab", copy / "queenslab", ignore=shutil.ignore_patterns("__pycache__")
    )
    second = _queens([sys.executable, "-c", FROM_COPY, *command], cache, copy)
    imported, *said = second.stderr.splitlines()
    assert second.returncode == 0 and second.stdout == first.stdout
    assert Path(imported).is_relative_to(copy) and said == [], second.stderr


#: Lists, in a process caching under NUMBA_CACHE_DIR, every compiled kernel of the package
#: (inlined ones aside: they compile inside their callers) that has nothing in the cache.
UNCACHED = """
import importlib, pkgutil, queenslab
from pathlib import Path
from numba.core.caching import FunctionCache
from numba.core.dispatcher import Dispatcher

for found in pkgutil.walk_packages(queenslab.__path__, "queenslab."):
    if found.name.endswith("__main__"):
        continue
    try:
        module = importlib.import_module(found.name)
    except ImportError:  # a backend's optional package
        continue
    for name, value in vars(module).items():
        if (isinstance(value, Dispatcher) and value.py_func.__module__ == found.name
                and isinstance(value._cache, FunctionCache)
                and value.targetoptions.get("inline") != "always"
                and not Path(value._cache._cache_file._index_path).exists()):
            print(f"{found.name}.{name}")
"""


@pytest.mark.slow
def test_after_warm_no_command_compiles_and_every_kernel_is_cached(tmp_path):
    cache = tmp_path / "cache"
    warm = _queens([*queens_command(), "warm"], cache)
    assert warm.returncode == 0 and warm.stdout == f"kernels compiled into {cache}\n", warm
    for command in (
        ["count", "12", "--unique"],
        ["crosscheck", "--n", "1-8"],
        ["solve", "30", "--given", "0:0", "-b", "min-conflicts"],
    ):
        run = _queens([*queens_command(), *command], cache)
        assert run.returncode == 0 and COMPILING not in run.stderr, (command, run.stderr)
    uncached = _queens([sys.executable, "-c", UNCACHED], cache)
    assert uncached.returncode == 0 and uncached.stdout == "", uncached
