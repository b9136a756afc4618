"""Saved machine code of the counting kernels: loaded without Numba, never trusted blindly."""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from queenslab.compiled import native
from queenslab.exact import constellations
from queenslab.lab import reference
from tests.conftest import ROOT

#: The tests of saved code itself: skipped where the switch turns it off (CI runs the
#: counting tests both ways).
saved_code = pytest.mark.skipif(
    not native.enabled(), reason="QUEENSLAB_NATIVE=0: saved machine code is switched off"
)

#: A kernel module for the tests: one callback that raises when asked to, one that allocates.
KERNELS = """
import numpy as np

from queenslab.compiled.jit import cfunc, types


@cfunc(types.int64(types.int64), nogil=True)
def doubled(x):
    if x < 0:
        raise ValueError("negative")
    return 2 * x


@cfunc(types.int64(types.int64), nogil=True)
def allocated(x):
    return np.zeros(x, dtype=np.int64).shape[0]
"""


@pytest.fixture
def kernels(tmp_path, monkeypatch, request):
    """A fresh kernel module (its own name, so no callback of another test is reused)."""
    name = f"kernels_{request.node.name.replace('[', '_').replace(']', '_').replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(KERNELS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    return name, tmp_path / "queenslab-native"


def _callback(module: str, name: str) -> native.Callback:
    return native.Callback(module, name, ctypes.c_int64, (ctypes.c_int64,))


@saved_code
def test_a_count_runs_the_saved_machine_code_without_importing_numba():
    """After one process has saved the kernels, the next counts without Numba's import and
    dispatch (about 0.35 s of every process before)."""
    code = (
        "import sys, numpy as np\n"
        "from queenslab.exact import constellations\n"
        "rows = constellations.plan(11).count(np.zeros(1, dtype=np.uint8))\n"
        "print(rows[:, 0].sum(), 'numba' in sys.modules)\n"
    )
    for _ in range(2):  # the first run may have to compile and save
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
        )
    assert run.stdout.split() == [str(reference.total(11)), "False"]


def test_the_switch_gives_plain_numba_and_saves_nothing(tmp_path):
    """QUEENSLAB_NATIVE=0 fences the start-up tricks: Numba's own callbacks, no saved code."""
    code = (
        "import sys, numpy as np\n"
        "from queenslab.exact import constellations\n"
        "rows = constellations.plan(11).count(np.zeros(1, dtype=np.uint8))\n"
        "print(rows[:, 0].sum(), 'numba' in sys.modules)\n"
    )
    env = {"QUEENSLAB_NATIVE": "0", "NUMBA_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert run.stdout.split() == [str(reference.total(11)), "True"], run.stderr
    assert not list(tmp_path.rglob(f"*{native.SUFFIX}"))


def test_the_cache_key_covers_every_module_a_kernel_reaches(tmp_path, monkeypatch):
    """Modules imported by the kernel's module, inside functions too, found by reading."""
    package = tmp_path / "kernelpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text("from kernelpkg import deep\n")
    (package / "deep.py").write_text("VALUE = 1\n")
    (package / "main.py").write_text("def f():\n    from kernelpkg.helper import x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = native.reached("kernelpkg.main")
    assert found == {"kernelpkg", "kernelpkg.main", "kernelpkg.helper", "kernelpkg.deep"}
    assert "queenslab.exact.constellation_kernel" in native.reached("queenslab.exact.callbacks")


def test_the_kernels_give_the_same_rows_native_and_through_numba():
    from queenslab.boards.symmetry import coefficient_table
    from queenslab.exact import constellation_kernel

    plan = constellations.plan(12)
    stop = np.zeros(1, dtype=np.uint8)
    through_numba = constellation_kernel.count_batch(
        12, plan.border, plan.weight, plan.stabilizer, coefficient_table(), False, stop
    )
    assert (plan.count(stop) == through_numba).all()


@saved_code
def test_a_callback_is_saved_once_and_loaded_from_its_file(kernels):
    module, cache = kernels
    assert _callback(module, "doubled")(21) == 42
    saved = list(cache.glob(f"{module}.doubled-*{native.SUFFIX}"))
    assert len(saved) == 1
    assert [p for p in cache.iterdir() if p.name.startswith(".")] == []  # no partial file
    native._loaded.clear()
    before = saved[0].stat().st_mtime_ns
    assert _callback(module, "doubled")(5) == 10
    assert saved[0].stat().st_mtime_ns == before


@saved_code
def test_damaged_machine_code_is_rebuilt_never_run(kernels):
    module, cache = kernels
    _callback(module, "doubled")(1)
    (saved,) = cache.glob(f"{module}.doubled-*{native.SUFFIX}")
    data = bytearray(saved.read_bytes())
    data[-100] ^= 0xFF  # one flipped byte in the object code
    saved.write_bytes(bytes(data))
    native._loaded.clear()
    assert _callback(module, "doubled")(4) == 8
    assert saved.read_bytes() != bytes(data)  # replaced by a good copy


@saved_code
def test_a_callback_calling_numbas_runtime_is_not_saved_but_still_runs(kernels):
    """Allocating an array needs Numba's runtime, which only a process that imported Numba
    has: such code runs as Numba compiled it and is never saved."""
    module, cache = kernels
    assert _callback(module, "allocated")(7) == 7
    assert list(cache.glob(f"{module}.allocated-*")) == []


@saved_code
def test_an_unwritable_cache_leaves_numbas_callback_and_no_file(kernels, monkeypatch, tmp_path):
    module, _ = kernels
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "cache"))
    assert _callback(module, "doubled")(3) == 6
    left = [p for p in tmp_path.rglob("*") if p.name.startswith(".") or native.SUFFIX in p.name]
    assert left == []


@saved_code
def test_an_error_path_in_saved_code_aborts_with_a_message(kernels):
    """The helpers Numba's wrapper calls on an error are defined in the saved code as a
    trap: a clear message and abort, not a jump to an address nobody resolved."""
    module, _ = kernels
    _callback(module, "doubled")(1)  # saved
    code = textwrap.dedent(f"""
        import ctypes, sys
        sys.path.insert(0, {str(_.parent)!r})
        from queenslab.compiled import native
        doubled = native.Callback({module!r}, "doubled", ctypes.c_int64, (ctypes.c_int64,))
        print(doubled(2), "numba" in sys.modules, flush=True)
        doubled(-1)
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.stdout.split() == ["4", "False"]
    assert run.returncode == -signal.SIGABRT
    assert "took an error path that cannot happen" in run.stderr
