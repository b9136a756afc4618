"""The gpu backend without a GPU: the kernel's search, the plan, batches, checkpoints, Dask.

The kernel's CPU build (tests/gpu_host.py) runs every thread's search and stands in for the
device; tests/integration/test_gpu_device.py holds the tests that need a real GPU.
"""

from __future__ import annotations

import importlib.machinery
import re
import sqlite3
import sys
import types

import numpy as np
import pytest

import queenslab as ql
from queenslab.cli import main
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.exact import constellations, gpu, gpu_plan
from queenslab.lab import reference
from queenslab.problems import kind
from queenslab.registry import info
from tests import gpu_host, oracle

STOP_NEVER = np.zeros(1, dtype=np.uint8)


@pytest.fixture(scope="session")
def host_build(tmp_path_factory):
    """The kernel's CPU build, a Device; skips where there is no gcc."""
    if gpu_host.gcc_missing():
        pytest.skip("gcc is missing: the kernel's CPU build cannot be compiled")
    return gpu_host.HostBuild(gpu_host.build(tmp_path_factory.mktemp("gpu-kernel")))


def _backend(device, **settings) -> gpu.GpuBackend:
    backend = gpu.GpuBackend(**settings)
    backend.device = device
    return backend


def _count(backend, n: int, unique: bool = False, **run_args):
    run = Run(**run_args)
    return backend.count(Problem(n), run, Question(kind("placement"), unique=unique)), run


class Counted:
    """A device that counts its calls and can set the stop flag after some of them."""

    def __init__(self, device, stop_after: int | None = None) -> None:
        self.device, self.stop_after, self.calls = device, stop_after, 0

    def count(self, states, stop):
        if self.stop_after is not None and self.calls >= self.stop_after:
            stop[0] = 1
        self.calls += 1
        return self.device.count(states, stop)


# -- the kernel's search, on the CPU ---------------------------------------------------------
@pytest.mark.parametrize("n", range(1, 13))
@pytest.mark.parametrize("unique", [False, True], ids=["total", "unique"])
def test_every_state_searched_as_a_thread_gives_the_cpu_counters_counts(host_build, n, unique):
    rows = gpu_plan.batches(constellations.plan(n, unique=unique), host_build).count(STOP_NEVER)
    total, classes, _ = rows.sum(axis=0)
    expected = ql.count(n, backend="bitmask", unique=unique)
    assert total == expected.total
    if unique:
        assert classes == expected.unique


@pytest.mark.parametrize(
    "n",
    [13, 14, pytest.param(15, marks=pytest.mark.slow), pytest.param(16, marks=pytest.mark.slow)],
)
def test_bigger_boards_give_the_cpu_counters_totals(host_build, n):
    rows = gpu_plan.batches(constellations.plan(n), host_build).count(STOP_NEVER)
    assert rows[:, 0].sum() == ql.count(n, backend="bitmask").total


def test_a_launch_gets_its_states_sorted_by_shape(host_build):
    """Neighbouring states, which the threads of a warp claim together, share their rows."""

    class Shapes:
        def count(self, states, stop):
            assert (np.diff(states.rows.astype(np.int64)) >= 0).all()
            assert states.levels() == gpu_plan.popcount(states.rows).max() - 1
            return host_build.count(states, stop)

    rows = gpu_plan.batches(constellations.plan(12), Shapes()).count(STOP_NEVER)
    assert rows[:, 0].sum() == reference.total(12)


@pytest.mark.parametrize("n", range(1, 9))
def test_counts_equal_brute_force(host_build, n):
    result, _ = _count(_backend(host_build), n, unique=True)
    assert (result.total, result.unique) == (len(oracle.all_solutions(n)), oracle.unique_count(n))


def _extends(n: int, states: gpu_plan.States, i: int, cols: tuple[int, ...]) -> bool:
    """Whether solution ``cols`` completes state ``i``: its queens on the state's filled
    rows make exactly the state's columns and diagonals."""
    placed = [r for r in range(n) if not int(states.rows[i]) >> r & 1]
    return (
        sum(1 << cols[r] for r in placed) == int(states.down[i])
        and sum(1 << (r + cols[r]) for r in placed) == int(states.d1[i])
        and sum(1 << (cols[r] - r + n - 1) for r in placed) == int(states.d2[i])
    )


@pytest.mark.parametrize("n", [6, 8])
def test_every_solution_lies_in_exactly_one_state_of_its_constellation(monkeypatch, n):
    """Expanded as deep as the host goes, each solution with a kept border is in one state,
    and the weights make up the total."""
    monkeypatch.setattr(gpu_plan, "MIN_STATES", 1 << 30)
    plan = constellations.plan(n)
    states, _ = gpu_plan.expand(gpu_plan.start(plan))
    assert gpu_plan.popcount(states.rows).max() <= 3
    kept = {tuple(row) for row in plan.border.tolist()}
    weighted = 0
    for cols in oracle.all_solutions(n):
        border = (cols[0], cols[n - 1], cols.index(0), cols.index(n - 1))
        homes = [i for i in range(len(states)) if _extends(n, states, i, cols)]
        assert len(homes) == (border in kept)
        weighted += sum(int(states.weight[i]) for i in homes)
    assert weighted == len(oracle.all_solutions(n)) == reference.total(n)


def _completions(n: int, rows: int, down: int, d1: int, d2: int) -> int:
    """Solutions of a state by plain recursion over its open rows (the reference)."""
    if not rows:
        return 1
    r = (rows & -rows).bit_length() - 1
    return sum(
        _completions(
            n, rows & ~(1 << r), down | 1 << c, d1 | 1 << (r + c), d2 | 1 << (c - r + n - 1)
        )
        for c in range(n)
        if not (down >> c & 1 or d1 >> (r + c) & 1 or d2 >> (c - r + n - 1) & 1)
    )


@pytest.mark.parametrize("n", [24, 31, 32])
def test_wide_boards_search_right_at_the_mask_edges(host_build, n):
    """Deep states of big boards (the diagonals reach bit 2n - 2, the columns bit 31)."""
    plan = constellations.plan(n)
    states = gpu_plan.start(plan.take(np.array([0, len(plan) // 2, len(plan) - 1])))
    while gpu_plan.popcount(states.rows).max() > 13:  # a sample of states, 13 rows left
        states, _ = gpu_plan.step(states)
        states = states.pick(np.arange(0, len(states), max(1, len(states) // 8)))
    found = 0
    for i in range(len(states)):
        one = states.pick(np.array([i]))
        expected = _completions(n, *(int(a[0]) for a in (one.rows, one.down, one.d1, one.d2)))
        total, solutions, _ = host_build.count(one, STOP_NEVER)
        assert (solutions, total) == (expected, expected * int(one.weight[0]))
        found += expected
    assert found > 100  # the sample is not all dead ends


def test_nodes_do_not_depend_on_how_deep_the_host_expands(monkeypatch, host_build):
    seen = set()
    for states in (1, 1 << 10, 1 << 30):
        monkeypatch.setattr(gpu_plan, "MIN_STATES", states)
        rows = gpu_plan.batches(constellations.plan(11), host_build).count(STOP_NEVER)
        seen.add(tuple(rows.sum(axis=0)))
    assert len(seen) == 1 and next(iter(seen))[0] == reference.total(11)


@pytest.mark.parametrize("architecture", ["compute_90", "compute_80"], ids=["H100", "A100"])
def test_the_kernel_compiles_with_nvrtc(architecture):
    library = gpu_host.nvrtc_library()
    if library is None:
        pytest.skip('NVRTC is missing: pip install ".[gpu-compile]"')
    status, log, ptx = gpu_host.nvrtc_compile(library, architecture)
    assert status == 0 and not log.strip(), log
    assert b".entry count_states(" in ptx and b"ld.shared" in ptx  # the stacks: shared memory


def test_a_launch_is_one_wave_of_resident_blocks():
    """An H200 (132 multiprocessors of 2048 threads, 64K registers, 228 KB of shared
    memory): the stack's shared memory bounds the blocks, or the registers when it is small."""
    h200 = {
        "maxThreadsPerMultiProcessor": 2048, "maxBlocksPerMultiProcessor": 32,
        "regsPerMultiprocessor": 65536, "sharedMemPerMultiprocessor": 233472,
    }  # fmt: skip
    stack = gpu.stack_bytes(15)  # 15 levels a thread
    assert gpu.resident_blocks(h200, 32, stack) == 233472 // (stack + 1024) == 9
    assert gpu.resident_blocks(h200, 64, 0) == 16  # 64 registers: half the threads
    assert gpu.resident_blocks(h200, 32, 0) == 32  # every thread the SM holds
    assert gpu.resident_blocks(h200, 255, 240000) == 1  # never none


class _Array(np.ndarray):
    """A NumPy array with CuPy's ``get``."""

    def get(self) -> np.ndarray:
        return np.asarray(self)


class _Event:
    def __init__(self, block: bool = False, disable_timing: bool = False) -> None:
        self.block, self.waits = block, 0

    def record(self, stream) -> None:
        self.recorded = stream

    def synchronize(self) -> None:
        self.waits += 1


def cupy_on_the_host_build_properties() -> dict[str, int]:
    """A GPU of two H200 multiprocessors, as CUDA describes it."""
    return {
        "multiProcessorCount": 2, "maxThreadsPerMultiProcessor": 2048,
        "maxBlocksPerMultiProcessor": 32, "regsPerMultiprocessor": 65536,
        "sharedMemPerMultiprocessor": 233472,
    }  # fmt: skip


@pytest.fixture
def cupy_on_the_host_build(monkeypatch, host_build):
    """A CuPy whose device is the kernel's C build on a GPU of 2 H200 multiprocessors: its
    streams have no ``synchronize`` (a spinning wait), its events record how they wait."""
    properties = cupy_on_the_host_build_properties()
    launches, events = [], []

    class Kernel:
        num_regs = 32

        def __init__(self, source, name, options=()) -> None:
            assert name == "count_states" and "-DBLOCK_THREADS=64" in options

        def compile(self) -> None:
            pass

        def __call__(self, grid, block, args, shared_mem):
            n, _count, *arrays, _claim, sums = args
            launches.append((grid[0], block[0], shared_mem))
            part = gpu_plan.States(int(n), *(np.asarray(a) for a in arrays))
            assert block[0] == gpu.THREADS_PER_BLOCK
            assert shared_mem == gpu.stack_bytes(part.levels())
            found = host_build.count(part, STOP_NEVER)
            sums += np.array(found, dtype=np.uint64)

    class Stream:
        def __init__(self, non_blocking: bool = False) -> None:
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

    def event(**flags):
        events.append(_Event(**flags))
        return events[-1]

    fake = types.ModuleType("cupy")
    fake.__spec__ = importlib.machinery.ModuleSpec("cupy", None)
    fake.uint64 = np.uint64
    fake.RawKernel = Kernel
    fake.asarray = lambda a: np.asarray(a).view(_Array)
    fake.zeros = lambda size, dtype: np.zeros(size, dtype=dtype).view(_Array)
    fake.cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDeviceProperties=lambda device: properties),
        Device=lambda: types.SimpleNamespace(id=0),
        Stream=Stream,
        Event=event,
    )
    monkeypatch.setitem(sys.modules, "cupy", fake)
    gpu._kernel.cache_clear()
    yield launches, events
    gpu._kernel.cache_clear()


def test_the_device_launches_one_wave_and_sleeps_until_each_launch_ends(cupy_on_the_host_build):
    launches, events = cupy_on_the_host_build
    result, _ = _count(_backend(gpu.CudaDevice(), batch=10**6), 13)  # one batch
    assert result.total == reference.total(13)
    assert len(launches) > 1  # 83,906 states: the first launch takes 2 a thread
    h200 = cupy_on_the_host_build_properties()
    for grid, block, shared in launches:  # one wave of 2 multiprocessors' blocks
        assert block == 64 and grid == 2 * gpu.resident_blocks(h200, 32, shared)
    assert events and all(e.block for e in events)  # a blocking event: the host sleeps
    assert sum(e.waits for e in events) == len(launches)


def test_the_kernel_fits_32_registers_without_spills(tmp_path):
    """ptxas for an H100/H200 (sm_90): 32 registers a thread or fewer, nothing spilled to
    local memory (the earlier kernel took 43)."""
    library, ptxas = gpu_host.nvrtc_library(), gpu_host.ptxas_program()
    if library is None or ptxas is None:
        pytest.skip('NVRTC or ptxas is missing: pip install ".[gpu-compile]"')
    status, log, ptx = gpu_host.nvrtc_compile(library, "compute_90")
    assert status == 0, log
    report = gpu_host.ptxas_report(ptx, "sm_90", tmp_path)
    registers = int(re.search(r"Used (\d+) registers", report).group(1))
    assert registers <= 32, report
    assert "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" in report


def test_a_node_is_one_short_path_whose_one_branch_is_a_warp_vote(tmp_path):
    """The sm_90 machine code of a turn of the search loop (a node): at most 40
    instructions (the earlier kernel's took 83), and its one data-dependent branch is taken
    when a thread of the warp needs a new state, decided by a vote, so the warp stays
    together and no thread waits for its warp's longest state."""
    library, ptxas = gpu_host.nvrtc_library(), gpu_host.ptxas_program()
    if library is None or ptxas is None or gpu_host.nvdisasm_program() is None:
        pytest.skip('NVRTC, ptxas or nvdisasm is missing: pip install ".[gpu-compile]" '
                    "nvidia-cuda-nvdisasm")  # fmt: skip
    status, log, ptx = gpu_host.nvrtc_compile(library, "compute_90")
    assert status == 0, log
    loop = gpu_host.search_loop(gpu_host.machine_code(ptx, "sm_90", tmp_path))
    assert len(loop) <= 40, "\n".join(loop)
    branches = [op for op in loop if op.startswith("@") and " BRA " in op]
    assert len(branches) == 1 and any(op.startswith("VOTE.ANY") for op in loop), loop


# -- batches, reduction, the stop flag -------------------------------------------------------
def test_batches_cut_the_plan_and_send_fixed_constellations_to_the_host(host_build):
    plan = constellations.plan(10, unique=True)
    cut = gpu_plan.batches(plan, host_build, batch=7)
    sizes, host = np.diff(cut.bounds), cut.on_host
    fixed = plan.stabilizer != 1
    assert host.sum() == fixed.sum() and (sizes[host] == 1).all()
    assert (sizes[~host][:-1] == 7).all() and sizes[~host][-1] <= 7
    starts = cut.bounds[:-1]
    assert (cut.constellations.stabilizer[starts[host]] != 1).all()
    assert (np.delete(cut.constellations.stabilizer, starts[host]) == 1).all()
    positions = np.flatnonzero(host)  # spread among the device's batches, not bunched
    assert positions[0] == 0 and positions[-1] > len(cut) / 2 and np.diff(positions).max() <= 4
    assert sorted(map(tuple, cut.constellations.border.tolist())) == sorted(
        map(tuple, plan.border.tolist())
    )
    plain = gpu_plan.batches(constellations.plan(10), host_build, batch=7)
    assert not plain.on_host.any()
    assert cut.fingerprint() != plain.fingerprint()
    assert (
        plain.fingerprint() != gpu_plan.batches(plain.constellations, host_build, 8).fingerprint()
    )


def test_default_batches_grow_with_n():
    assert gpu_plan.default_batch(12, 730) == 92  # 8 batches up to n = 20
    assert gpu_plan.default_batch(22, 14960) == 117  # 4 times more per size past it
    assert gpu_plan.default_batch(27, 100) == 1


def test_a_part_counts_what_it_holds_and_a_set_flag_stops_it(host_build):
    cut = gpu_plan.batches(constellations.plan(11, unique=True), host_build, batch=20)
    rows = cut.count(STOP_NEVER)
    ids = np.array([0, 3, len(cut) - 1])
    assert (cut.take(ids).count(STOP_NEVER) == rows[ids]).all()
    assert (rows[:, 2] > 0).all()
    assert (cut.count(np.ones(1, dtype=np.uint8))[:, 2] == -1).all()
    stopping = gpu_plan.batches(constellations.plan(11), Counted(host_build, 2), batch=20)
    partial = stopping.count(np.zeros(1, dtype=np.uint8))
    assert (partial[:2, 2] > 0).all() and (partial[2:, 2] == -1).all()


def test_weights_and_classes_are_reduced_per_batch(host_build):
    """A device batch's total is the weighted sum of its constellations' solutions, and
    its unique column their plain sum (classes: no symmetry fixes them)."""
    plan = constellations.plan(10, unique=True)
    cut = gpu_plan.batches(plan, host_build, batch=5)
    cpu = cut.constellations.count(STOP_NEVER)
    rows = cut.count(STOP_NEVER)
    for b in range(len(cut)):
        members = cpu[cut.bounds[b] : cut.bounds[b + 1]]
        assert rows[b, 0] == members[:, 0].sum()
        assert rows[b, 1] == members[:, 1].sum()


# -- the backend: limit, progress, checkpoint, Dask ------------------------------------------
def test_backend_reports_progress_per_batch(host_build):
    seen = []
    result, run = _count(
        _backend(host_build, batch=50), 11, progress=lambda d, t: seen.append((d, t))
    )
    assert result.total == reference.total(11)
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] == run.stats["subproblems"]


def test_time_limit_ends_with_status_limit_and_the_finished_part(host_build):
    class Slow:
        def count(self, states, stop):
            stop[0] = 1  # the deadline passed during this batch
            return None

    result, run = _count(_backend(Slow(), batch=10), 11, time_limit=60)
    assert result.status is Status.LIMIT and result.total is None
    assert run.stats["subproblems_finished"] == 0


def test_a_deadline_stops_the_count_between_batches(host_build):
    """n = 18 takes the CPU build minutes; with one constellation a batch, the deadline
    ends it after the batches then running."""
    result, run = _count(_backend(host_build, batch=1), 18, time_limit=0.5)
    assert result.status is Status.LIMIT and result.total is None
    assert run.stats["subproblems_finished"] < run.stats["subproblems"]


def test_checkpoint_records_batches_and_a_resumed_count_runs_only_the_rest(host_build, tmp_path):
    path = tmp_path / "n11.sqlite"
    result, run = _count(
        _backend(Counted(host_build, stop_after=3), batch=40, checkpoint=str(path)), 11, True
    )
    assert result.status is Status.LIMIT
    with sqlite3.connect(path) as db:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        recorded = [row[0] for row in db.execute("SELECT id FROM done")]
    assert meta["method"] == "constellation batches with classes"
    assert int(meta["subproblems"]) == run.stats["subproblems"] > len(recorded) > 0
    on_host = gpu_plan.batches(constellations.plan(11, unique=True), host_build, 40).on_host
    resumed = Counted(host_build)
    result, _ = _count(_backend(resumed, batch=40, checkpoint=str(path)), 11, unique=True)
    assert (result.total, result.unique) == (reference.total(11), reference.unique(11))
    assert resumed.calls == (~on_host).sum() - (~on_host[recorded]).sum()  # the rest only
    with pytest.raises(ql.UsageError, match="another count"):
        _count(_backend(host_build, batch=41, checkpoint=str(path)), 11, unique=True)


def test_dask_workers_run_the_batches(host_build, dask_scheduler):
    backend = _backend(host_build, scheduler=dask_scheduler, batch=30)
    result, run = _count(backend, 12, unique=True)
    assert (result.total, result.unique) == (reference.total(12), reference.unique(12))
    _, local_run = _count(_backend(host_build, batch=30), 12, unique=True)
    assert run.stats["nodes"] == local_run.stats["nodes"]


def test_n_past_32_is_refused_in_one_line(host_build):
    with pytest.raises(ql.UsageError, match="n <= 32"):
        _count(_backend(host_build), 33)


# -- without a GPU ---------------------------------------------------------------------------
@pytest.fixture
def cupy_without_device(monkeypatch):
    """A CuPy that imports but finds no CUDA device, as on a machine without a GPU."""

    def no_device() -> int:
        raise RuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")

    fake = types.ModuleType("cupy")
    fake.__spec__ = importlib.machinery.ModuleSpec("cupy", None)
    fake.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=no_device))
    monkeypatch.setitem(sys.modules, "cupy", fake)


def test_without_a_device_backends_says_why(cupy_without_device, capsys):
    details = info("gpu")
    assert not details.available and "no CUDA device" in details.reason
    assert main(["backends"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if row.startswith("gpu "))
    assert line.endswith(
        "no (no CUDA device (cudaErrorNoDevice: no CUDA-capable device is detected))"
    )


def test_without_a_device_count_exits_2_in_one_line(cupy_without_device, capsys, tmp_path):
    checkpoint = tmp_path / "n12.sqlite"
    assert main(["count", "12", "--backend", "gpu", "--checkpoint", str(checkpoint)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot run here: no CUDA device" in err
    assert not checkpoint.exists()
