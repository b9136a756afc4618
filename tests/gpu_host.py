"""The GPU kernel without a GPU: its CPU build (gcc, ctypes), and NVRTC's compile of it.

CI has no GPU; the CPU build runs the kernel's own search (every thread of a launch in
turn), so the tests check what each GPU thread computes, and it stands in for the device
in the tests of batching, checkpoints and Dask (``HostBuild`` is a ``gpu_plan.Device``).
NVRTC (the library CuPy compiles the kernel with, from the nvidia-cuda-nvrtc-cu12 wheel)
needs no GPU either, so the tests also check that the CUDA side of the source compiles,
and, where ptxas is installed (the nvidia-cuda-nvcc-cu12 wheel), what it costs a thread;
where nvdisasm is too (the nvidia-cuda-nvdisasm wheel), the machine code of a node.
"""

from __future__ import annotations

import ctypes
import importlib.util
import re
import shutil
import subprocess
from collections import deque
from functools import cache
from pathlib import Path

import numpy as np

from queenslab.exact.gpu_plan import States

SOURCE = Path(__file__).resolve().parents[1] / "queenslab" / "exact" / "gpu_kernel.cu"
#: Threads of the emulated launch: several, so the claiming loop hands states around.
THREADS = 64


def build(folder: Path) -> Path:
    """Compile the kernel source into a shared library in ``folder``."""
    library = folder / "gpu_kernel_host.so"
    subprocess.run(
        ["gcc", "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
         "-x", "c", str(SOURCE), "-o", str(library)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return library


def gcc_missing() -> bool:
    return shutil.which("gcc") is None


@cache
def _load(path: str) -> ctypes.CDLL:
    library = ctypes.CDLL(path)
    pointer, u32, u64 = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint64
    library.run_grid.argtypes = [u32, u32, ctypes.c_int, u64, *[pointer] * 7]
    library.run_grid.restype = ctypes.c_int
    return library


class HostBuild:
    """A ``Device`` running the kernel on the CPU; picklable (it holds the library's path),
    so Dask workers load it too."""

    def __init__(self, library: Path) -> None:
        self.library = str(library)

    def count(self, states: States, stop: np.ndarray) -> tuple[int, int, int] | None:
        if stop[0]:
            return None
        sums, claim = np.zeros(3, dtype=np.uint64), np.zeros(1, dtype=np.uint64)
        arrays = [np.ascontiguousarray(a) for a in
                  (states.rows, states.down, states.d1, states.d2, states.weight)]  # fmt: skip
        failed = _load(self.library).run_grid(
            THREADS, states.levels(), states.n, len(states), *(a.ctypes.data for a in arrays),
            claim.ctypes.data, sums.ctypes.data,
        )  # fmt: skip
        assert failed == 0, "the host build could not allocate its stack"
        total, solutions, nodes = (int(x) for x in sums)
        return total, solutions, nodes


def nvrtc_library() -> Path | None:
    """libnvrtc from the nvidia-cuda-nvrtc-cu12 wheel, or None where it is not installed."""
    try:
        spec = importlib.util.find_spec("nvidia.cuda_nvrtc")
    except ModuleNotFoundError:
        return None
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = [p for f in folders for p in sorted(Path(f, "lib").glob("libnvrtc.so.*"))]
    return found[0] if found else None


def ptxas_program() -> Path | None:
    """ptxas from the nvidia-cuda-nvcc-cu12 wheel, or None where it is not installed."""
    try:
        spec = importlib.util.find_spec("nvidia.cuda_nvcc")
    except ModuleNotFoundError:
        return None
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = [Path(f, "bin", "ptxas") for f in folders if Path(f, "bin", "ptxas").is_file()]
    return found[0] if found else None


def nvdisasm_program() -> Path | None:
    """nvdisasm from NVIDIA's wheel (nvidia/cu13/bin) or a CUDA toolkit, or None."""
    try:
        spec = importlib.util.find_spec("nvidia")
    except ModuleNotFoundError:
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = sorted(p for f in folders for p in Path(f).glob("cu*/bin/nvdisasm") if p.is_file())
    on_path = shutil.which("nvdisasm")
    return found[-1] if found else Path(on_path) if on_path else None


def ptxas_report(ptx: bytes, architecture: str, folder: Path) -> str:
    """What ``ptxas -v`` says of ``ptx`` for ``architecture`` (sm_90): registers, spills."""
    program = ptxas_program()
    assert program is not None, "ptxas is missing"
    source = folder / "kernel.ptx"
    source.write_bytes(ptx)
    done = subprocess.run(
        [str(program), "-v", f"-arch={architecture}", str(source), "-o", str(folder / "k.cubin")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout + done.stderr


def nvrtc_compile(library: Path, architecture: str) -> tuple[int, str, bytes]:
    """NVRTC's status, log and PTX for the kernel source, as CuPy compiles it."""
    nvrtc = ctypes.CDLL(str(library))
    program, size = ctypes.c_void_p(), ctypes.c_size_t()
    status = nvrtc.nvrtcCreateProgram(
        ctypes.byref(program), SOURCE.read_bytes(), SOURCE.name.encode(), 0, None, None
    )
    assert status == 0, f"nvrtcCreateProgram: {status}"
    options = (ctypes.c_char_p * 1)(f"--gpu-architecture={architecture}".encode())
    status = nvrtc.nvrtcCompileProgram(program, 1, options)
    nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(program, log)
    ptx = b""
    if status == 0:
        nvrtc.nvrtcGetPTXSize(program, ctypes.byref(size))
        buffer = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetPTX(program, buffer)
        ptx = buffer.value
    nvrtc.nvrtcDestroyProgram(ctypes.byref(program))
    return status, log.value.decode(errors="replace"), ptx


def machine_code(ptx: bytes, architecture: str, folder: Path) -> str:
    """The kernel's machine code (SASS) as nvdisasm lists it, assembled by ptxas."""
    ptxas_report(ptx, architecture, folder)
    program = nvdisasm_program()
    assert program is not None, "nvdisasm is missing"
    done = subprocess.run(
        [str(program), "-c", str(folder / "k.cubin")], check=True, capture_output=True, text=True
    )
    return done.stdout


def search_loop(listing: str) -> list[str]:
    """The instructions of one turn of the search loop: the shortest cycle of the control
    flow through the load of a frame (the first 128-bit shared load), as a thread runs it
    when it claims nothing."""
    code: list[str] = []
    labels: dict[str, int] = {}
    for line in listing.splitlines():
        if label := re.match(r"\s*(\.L_x_\d+):", line):
            labels[label.group(1)] = len(code)
        elif op := re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*$", line):
            code.append(op.group(1))

    def after(i: int) -> list[int]:
        target = re.search(r"\bBRA\S*\s+(?:\w+,\s*)?`\((\.L_x_\d+)\)", code[i])
        jumps = [labels[target.group(1)]] if target else []
        always = not code[i].startswith("@") and not code[i].startswith("BRA.DIV")
        stops = code[i].startswith("EXIT") or (target is not None and always)
        return jumps if stops else [*jumps, i + 1]

    start = next(i for i, op in enumerate(code) if op.startswith("LDS.128"))
    came: dict[int, int] = {}
    todo = deque([start])
    while todo:
        i = todo.popleft()
        for j in after(i):
            if j == start:
                path = [i]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [code[k] for k in reversed(path)]
            if j not in came:
                came[j] = i
                todo.append(j)
    raise AssertionError("the frame load is in no loop")
