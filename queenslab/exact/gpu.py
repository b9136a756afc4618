"""The ``gpu`` backend: the classic board counted on a CUDA GPU, from the constellation plan.

The host cuts the plan into batches and expands each batch into states (gpu_plan.py); the
kernel (gpu_kernel.cu, compiled at run time by NVRTC through CuPy, so no CUDA compiler is
needed) searches one state per thread. A batch is searched in launches whose size adapts
so each takes about ``LAUNCH_SECONDS``: between launches the host looks at the stop flag,
so a time limit or Ctrl-C ends a count within a launch or two. Batches are the unit of
progress, of the checkpoint and of Dask tasks (one GPU per worker). A thread per core takes
batches in turn: each expands its batch on the host and runs its launches on a stream of
its own, so the host work of many batches overlaps the GPU's; the launch sizes adapt to
the time a launch takes with the others beside it. A launch's grid is one wave (as many
blocks as the GPU holds at once, its threads persistent), and the host waits for it on a
blocking event, asleep, so the CPU stays free for the expansions. When classes are counted, the
constellations fixed by a symmetry, spread among the GPU's batches, go to the CPU kernels
on the same threads. CuPy is imported only when a count runs.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from queenslab.core.backend import (
    Backend,
    Family,
    Feature,
    Option,
    Task,
    default_workers,
    positive_int,
)
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult
from queenslab.core.run import Run

if TYPE_CHECKING:
    import numpy as np

    from queenslab.exact.gpu_plan import Batches, States

#: Seconds one launch should take (the longest wait for a stop), and the first launch's
#: size in states per resident thread before any launch was timed.
LAUNCH_SECONDS = 0.25
FIRST_LAUNCH_PER_THREAD = 2
#: Threads of a block, compiled into the kernel (its stack offsets are constants): 64
#: keeps a block's stack under the 48 KB of shared memory a launch gets without opting in,
#: at any n <= 32 (31 levels of 24 bytes a thread).
THREADS_PER_BLOCK = 64
#: A level of a thread's stack (gpu_kernel.cu's LEVEL_BYTES): a frame, 16 bytes, and a row, 8.
LEVEL_BYTES = 24
MAX_LAUNCH = 1 << 24
#: Shared memory the driver keeps per block, and the granules registers are allocated in
#: (per warp), as CUDA's occupancy calculator counts them for compute capability 8.x-9.x.
RESERVED_SHARED_PER_BLOCK = 1024
REGISTER_GRANULE = 256


class GpuBackend(Backend):
    name = "gpu"
    family = Family.EXACT
    tasks = MappingProxyType({"placement": frozenset({Task.COUNT})})
    features = frozenset({Feature.UNIQUE})
    summary = "CUDA kernel through CuPy over border constellations, batched, resumable, Dask"
    requires: ClassVar[Mapping[str, str]] = {"cupy": "cupy-cuda12x"}
    options = (
        Option("batch", "constellations per batch (a task, a checkpoint row)",
               convert=positive_int, metavar="K"),
        Option("scheduler", "Dask scheduler address (workers with one GPU each)",
               metavar="ADDR"),
        Option("checkpoint", "SQLite file recording finished batches (resumable)",
               metavar="FILE"),
    )  # fmt: skip

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        #: Where device batches run; the tests put the kernel's CPU build here.
        self.device: Any = CudaDevice()

    @classmethod
    def unavailable(cls) -> str | None:
        return device_problem()

    def load(self) -> None:
        """Import CuPy and compile (or load CuPy's cached) kernel: start-up, not search."""
        if isinstance(self.device, CudaDevice):
            _kernel()

    def load_for(self, task: Task, problem: Problem, question: Question) -> None:
        """``load``; a count of classes also loads the CPU kernels that count the
        constellations fixed by a symmetry, here, before threads would import them at once."""
        self.load()
        if question.unique:
            import numpy as np

            from queenslab.exact import constellations

            constellations.plan(6, unique=True).count(np.zeros(1, dtype=np.uint8))

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        unique = question.unique
        from queenslab.exact import constellations, counting, gpu_plan

        if problem.n > gpu_plan.MAX_N:
            raise UsageError(
                f"the gpu backend handles n <= {gpu_plan.MAX_N} (32-bit masks), got {problem.n}"
            )

        def build() -> Batches:
            plan = constellations.plan(problem.n, run.stop_flag, unique)
            return gpu_plan.batches(plan, self.device, self.settings["batch"])

        return counting.count(
            build,
            run,
            unique,
            default_workers(),
            self.settings["scheduler"],
            self.settings["checkpoint"],
            problem.describe(),
        )


def device_problem() -> str | None:
    """Why CuPy cannot count here (no driver, no device), or None."""
    try:
        import cupy

        devices = cupy.cuda.runtime.getDeviceCount()
    except ImportError as exc:
        return f"CuPy cannot be imported ({exc})"
    except Exception as exc:  # CUDARuntimeError: no driver or no device; its text says which
        return f"no CUDA device ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
    return None if devices else "no CUDA device"


@cache
def _kernel() -> Any:
    """The compiled kernel of this process's current device (CuPy caches the binary)."""
    import cupy

    source = resources.files("queenslab.exact").joinpath("gpu_kernel.cu").read_text()
    options = (f"-DBLOCK_THREADS={THREADS_PER_BLOCK}",)
    kernel = cupy.RawKernel(source, "count_states", options=options)
    kernel.compile()  # now, at load, not in the first batch's thread
    return kernel


def stack_bytes(levels: int) -> int:
    """Shared memory of a block whose threads' stacks have ``levels`` levels."""
    return levels * LEVEL_BYTES * THREADS_PER_BLOCK


def resident_blocks(properties: Mapping[str, int], registers: int, shared: int) -> int:
    """Blocks of THREADS_PER_BLOCK threads, each with ``registers`` a thread and ``shared``
    bytes, that one multiprocessor of a device with these ``properties`` (CUDA's names)
    holds at once: the least of what threads, blocks, registers and shared memory allow."""
    warps = -(-THREADS_PER_BLOCK // 32)
    per_warp = -(-registers * 32 // REGISTER_GRANULE) * REGISTER_GRANULE
    limits = (
        properties["maxThreadsPerMultiProcessor"] // THREADS_PER_BLOCK,
        properties["maxBlocksPerMultiProcessor"],
        properties["regsPerMultiprocessor"] // (per_warp * warps),
        properties["sharedMemPerMultiprocessor"] // (shared + RESERVED_SHARED_PER_BLOCK),
    )
    return max(1, min(limits))


def _wave(shared: int) -> int:
    """Blocks of one launch: one wave, every block resident from start to end."""
    import cupy

    properties = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    blocks = resident_blocks(properties, _kernel().num_regs, shared)
    return int(properties["multiProcessorCount"]) * blocks


def device_name() -> str:
    """The current CUDA device's model, as the driver names it."""
    import cupy

    name = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


class CudaDevice:
    """The kernel on the process's current CUDA device (a Dask worker's own GPU).

    Holds nothing but the size of the next launch, so it pickles to a worker as is.
    """

    def __init__(self) -> None:
        self.launch = 0

    def count(self, states: States, stop: np.ndarray) -> tuple[int, int, int] | None:
        import cupy
        import numpy as np

        shared = stack_bytes(states.levels())
        kernel, blocks = _kernel(), _wave(shared)
        threads = blocks * THREADS_PER_BLOCK
        size = self.launch or threads * FIRST_LAUNCH_PER_THREAD
        # The host sleeps in a blocking event's wait, where a stream's synchronize may spin.
        finished = cupy.cuda.Event(block=True, disable_timing=True)
        with cupy.cuda.Stream(non_blocking=True) as stream:
            fields = [cupy.asarray(a) for a in
                      (states.rows, states.down, states.d1, states.d2, states.weight)]  # fmt: skip
            sums, claim = cupy.zeros(3, dtype=cupy.uint64), cupy.zeros(1, dtype=cupy.uint64)
            done = 0
            while done < len(states):
                if stop[0]:
                    return None
                end = min(len(states), done + size)
                claim.fill(0)
                began = time.perf_counter()
                kernel(
                    (blocks,), (THREADS_PER_BLOCK,),
                    (np.int32(states.n), np.uint64(end - done),
                     *(field[done:end] for field in fields), claim, sums),
                    shared_mem=shared,
                )  # fmt: skip
                finished.record(stream)
                finished.synchronize()
                seconds = time.perf_counter() - began
                size = int(size * LAUNCH_SECONDS / max(seconds, 1e-4))
                size = min(MAX_LAUNCH, max(threads, size))
                done = end
            self.launch = size
            total, solutions, nodes = (int(x) for x in sums.get())
        return total, solutions, nodes
