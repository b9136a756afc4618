"""QS4 min-conflicts (Sosic & Gu): a board of 10^7 queens in seconds, O(n) memory.

A conflict-aware greedy permutation leaves only a few attacked queens (in the last rows);
swapping an attacked queen with a random row whenever that lowers the number of diagonal
collisions then finishes in near-linear time. The kernels (``kernels.py``) keep per-diagonal
counters, so each swap is evaluated in O(1). Given queens never move: their rows are left
out of every swap and their columns are fixed in the initial permutation. A run that does
not finish within its attempt budget restarts; after ``restarts`` runs the backend gives up
(UNKNOWN), which is all it can say for n = 2, 3 or for givens without a completion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from queenslab.backend import Backend, Capability, Family, Option, positive_int
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import SolveResult, Status
from queenslab.run import Run

if TYPE_CHECKING:
    import numpy as np

_GREEDY_TRIES_PER_ROW = 3.08  # Sosic & Gu's budget for the greedy phase, times n
_CHUNK = 1 << 22  # rows or swap attempts between two looks at the clock
_RING = 1 << 16  # rows queued for repair at most (a full scan refills it)


def _repair_budget(n: int) -> int:
    """Swap attempts per run before a restart: generous for big n, short for tiny ones.

    Small boards reach a local minimum within a few dozen swaps; many short runs beat a
    few long ones there (a 6x6 board with one completion failed 50 runs of 20k attempts).
    """
    return 64 * n + 1024


def initial_permutation(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """Columns per row with the givens in place (free columns ascending), and the fixed mask.

    The mask is empty when there are no givens, so huge boards pay nothing for it.
    """
    import numpy as np

    n = problem.n
    queen = np.arange(n, dtype=np.int32)
    if not problem.givens:
        return queen, np.zeros(0, dtype=np.uint8)
    fixed = np.zeros(n, dtype=np.uint8)
    rows = np.array([r for r, _ in problem.givens], dtype=np.int64)
    cols = np.array([c for _, c in problem.givens], dtype=np.int32)
    fixed[rows] = 1
    free_cols = np.setdiff1d(queen, cols, assume_unique=True)
    queen[rows] = cols
    queen[fixed == 0] = free_cols
    return queen, fixed


class MinConflictsBackend(Backend):
    name = "min-conflicts"
    family = Family.HEURISTIC
    capabilities = frozenset({Capability.SOLVE, Capability.GIVENS})
    summary = "QS4 min-conflicts local search in Numba (10^7 queens in seconds)"
    requires: ClassVar[Mapping[str, str]] = {"numba": "numba"}
    options = (
        Option("restarts", "runs from a new random start before giving up", 1000,
               convert=positive_int),
    )  # fmt: skip
    uses_seed = True

    def load(self) -> None:
        """Solve a tiny board once: Numba loads cached kernels at their first call."""
        MinConflictsBackend().solve(Problem(16), Run(0, None))

    def solve(self, problem: Problem, run: Run) -> SolveResult:
        import numpy as np

        from queenslab.heuristics import kernels

        n = problem.n
        state = kernels.new_rng(run.seed)
        start_perm, fixed = initial_permutation(problem)
        rows = np.array([r for r, _ in problem.givens], dtype=np.int64)
        stats = run.stats
        stats.add(restarts=0, swap_attempts=0, tail_rows=0)
        for attempt in range(max(1, self.settings["restarts"])):
            stats["restarts"] = attempt
            queen = start_perm.copy()
            up = np.zeros(2 * n, dtype=np.int32)
            down = np.zeros(2 * n, dtype=np.int32)
            np.add.at(up, rows + queen[rows], 1)
            np.add.at(down, rows - queen[rows] + n - 1, 1)
            row, tries = 0, int(_GREEDY_TRIES_PER_ROW * n) + 1
            while row < n and tries > 0:
                row, tries = kernels.qs4_greedy(
                    queen, up, down, fixed, row, min(n, row + _CHUNK), tries, state
                )
                if run.should_stop():
                    return SolveResult(Status.LIMIT)
            todo = np.empty(min(n, _RING), dtype=np.int32)
            collisions, queued = kernels.qs4_fill_rest(queen, up, down, fixed, row, todo, state)
            stats["tail_rows"] = n - row
            head, budget = 0, _repair_budget(n)
            while collisions > 0 and budget > 0:
                collisions, head, queued, used = kernels.qs4_repair(
                    queen, up, down, fixed, todo, head, queued, collisions,
                    min(budget, _CHUNK), state,
                )  # fmt: skip
                budget -= used
                stats["swap_attempts"] += used
                if collisions and run.should_stop():
                    return SolveResult(Status.LIMIT)
            if collisions == 0:
                return SolveResult(Status.SOLVED, Placement(queen))
        return SolveResult(Status.UNKNOWN)
