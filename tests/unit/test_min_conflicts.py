"""Min-conflicts (QS4): valid huge boards, seeds, limits, blocked cells and givens."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import queenslab as ql
from queenslab.heuristics.explicit import explicit_columns
from queenslab.heuristics.qs4 import place_tail, solve_min_conflicts
from queenslab.heuristics.qs4_kernels import kernels_for
from tests import oracle
from tests.conftest import ROOT, signal_after, start_queens


def lines_hold_one_queen(cols: np.ndarray) -> bool:
    """Every column and diagonal holds at most one queen (counted with NumPy, not the kernel)."""
    n = cols.size
    rows = np.arange(n)
    cols = cols.astype(np.int64)
    return all(np.bincount(key).max() == 1 for key in (cols, rows + cols, rows - cols + n))


def test_solves_a_hundred_thousand_queens():
    cols = solve_min_conflicts(100_000, seed=3).cols
    assert cols is not None and cols.dtype == np.int32
    assert lines_hold_one_queen(cols)


def test_the_backend_answer_is_reproducible_from_the_seed():
    first = ql.solve(100_000, "min-conflicts", seed=5)
    again = ql.solve(100_000, "min-conflicts", seed=5)
    other = ql.solve(100_000, "min-conflicts", seed=6)
    assert first.status == ql.Status.SOLVED
    assert first.placement == again.placement
    assert first.placement != other.placement
    assert first.stats["moves"] > 0  # the repair phase ran


@pytest.mark.parametrize("n", [4, 5, 8, 9, 10, 30])
def test_small_boards_are_solved(n):
    result = ql.solve(n, "min-conflicts", seed=n)
    assert result.status == ql.Status.SOLVED
    assert oracle.is_solution(list(result.placement), n)


def test_keeps_givens_on_a_large_board():
    n = 5000
    base = explicit_columns(n)
    givens = [(r, int(base[r])) for r in range(0, n, 97)]
    result = ql.solve(n, "min-conflicts", givens=givens, seed=1)
    assert result.status == ql.Status.SOLVED
    cols = result.placement.as_array()
    assert all(cols[r] == c for r, c in givens)
    assert lines_hold_one_queen(cols)


def test_avoids_blocked_cells():
    n = 2000
    rng = np.random.default_rng(7)
    blocked = sorted({(int(r), int(c)) for r, c in rng.integers(0, n, size=(3 * n, 2))})
    result = ql.solve(n, "min-conflicts", blocked=blocked, seed=2)
    assert result.status == ql.Status.SOLVED
    cols = result.placement.as_array()
    assert lines_hold_one_queen(cols)
    assert not any(cols[r] == c for r, c in blocked)


def test_keeps_givens_and_avoids_blocked_cells_together():
    n = 12
    blocked = [(1, 2), (3, 3), (5, 0)]
    result = ql.solve(n, "min-conflicts", givens=[(0, 0)], blocked=blocked, seed=1)
    assert result.status == ql.Status.SOLVED
    assert result.placement[0] == 0
    assert oracle.is_solution(list(result.placement), n, blocked=blocked)


def test_gives_up_without_claiming_infeasible():
    # n = 4 has no solution with a queen in a corner; a heuristic cannot prove that.
    result = ql.solve(4, "min-conflicts", givens=[(0, 0)], seed=1, restarts=3)
    assert result.status == ql.Status.UNKNOWN


def test_the_time_limit_ends_the_search():
    result = ql.solve(2_000_000, "min-conflicts", seed=1, time_limit=0.001)
    assert result.status == ql.Status.LIMIT
    assert result.placement is None


def test_a_stop_request_ends_the_search_between_kernel_calls():
    asked = []

    def stop() -> bool:
        asked.append(True)
        return True

    outcome = solve_min_conflicts(10_000, seed=1, should_stop=stop)
    assert outcome.stopped and outcome.cols is None
    assert len(asked) == 1


def test_counters_widen_when_a_diagonal_would_overflow_a_byte():
    """The identity board puts all 600 queens on one diagonal: 599 collisions."""
    n = 600
    queen = np.arange(n, dtype=np.int32)
    up = np.zeros(2 * n - 1, dtype=np.uint8)
    down = np.zeros(2 * n - 1, dtype=np.uint8)
    empty = np.zeros(0, dtype=np.uint8)
    up, down, todo, queued, collisions = place_tail(
        kernels_for(False), queen, up, down, empty, np.zeros(0, np.int64), 0
    )
    assert down.dtype == np.int32 and down[n - 1] == n
    assert collisions == n - 1
    assert queued == n and sorted(todo[:queued]) == list(range(n))


@pytest.mark.parametrize("seed", range(10))
def test_completes_a_board_with_a_single_completion(seed):
    """Found by the CI profile: (1, 2) on 6x6 has one completion; long runs used to stall."""
    result = ql.solve(6, "min-conflicts", givens=[(1, 2)], seed=seed)
    assert result.status == ql.Status.SOLVED
    assert oracle.is_solution(list(result.placement), 6)
    assert result.placement[1] == 2


def test_ctrl_c_ends_a_search_cleanly():
    """n = 4 with a corner queen has no completion: the search restarts until interrupted."""
    argv = ["solve", "4", "--backend", "min-conflicts", "--given", "0:0"]
    process = start_queens(*argv, "--restarts", "1000000000")
    assert signal_after(process) == (130, "", "queens: interrupted\n")


#: Loads the backend for a board (argv: variant, "plain" or "constrained"), then solves it
#: and prints the kernels the solve had to load or compile itself (Numba's dispatchers go
#: through ``_compile_for_args`` for argument types they have no machine code for yet).
SOLVE_AFTER_LOAD = """
import sys
from numba.core.dispatcher import Dispatcher
from queenslab.core.backend import Task
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.core.kind import Question
from queenslab.heuristics.min_conflicts import MinConflictsBackend
from queenslab.problems import kind

variant, board = sys.argv[1:]
extra = {"givens": ((0, 2),), "blocked": ((4, 4),)} if board == "constrained" else {}
problem = Problem(11, variant=variant, **extra)
backend = MinConflictsBackend()
question = Question(kind("placement"))
backend.load_for(Task.SOLVE, problem, question)
loaded = []
compile_for_args = Dispatcher._compile_for_args

def recording(self, *args, **kwargs):
    loaded.append(self.py_func.__name__)
    return compile_for_args(self, *args, **kwargs)

Dispatcher._compile_for_args = recording
assert backend.solve(problem, Run(1, None), question).placement is not None
print(loaded)
"""


@pytest.mark.parametrize("board", ["plain", "constrained"])
@pytest.mark.parametrize("variant", ["standard", "toroidal"])
def test_the_search_loads_no_kernel_of_its_own(variant, board):
    """Issue 35: the start-up loaded only the plain board's kernels, so a solve with givens
    or blocked cells compiled its own inside the search, where no time limit reaches (89 s
    under a 60 s limit on a loaded machine). A fresh process, so nothing is loaded yet."""
    done = subprocess.run(
        [sys.executable, "-c", SOLVE_AFTER_LOAD, variant, board],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr
