"""The Las Vegas + backtracking hybrid : random first rows, then backtracking.

The first ``step`` rows each take a uniformly random safe column; the remaining rows are
filled by textbook backtracking in column order; a dead end restarts from scratch. The
single trial (``las_vegas_kernels.lv_trial``) is shared with the study in
``lab/lv_study.py``, so the backend and the table count nodes the same way (one for the
root plus one per queen placed). Given queens are forced in their rows. The trials run in a
helper thread that a time limit (or Ctrl-C) stops within a few thousand nodes, even in the
middle of a trial.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from queenslab.core.backend import (
    Backend,
    Family,
    Feature,
    Option,
    Task,
    non_negative_int,
    positive_int,
)
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run
from queenslab.runtime.stop import run_stoppably

if TYPE_CHECKING:
    import numpy as np


def default_step(n: int) -> int:
    """Near the best step of ``queens lv-study`` (exact to n = 12, Monte Carlo 13..23).

    The measured best steps are about 0.6 n (8 -> 2, 12 -> 5, 16 -> 8, 20 -> 12, 23 -> 14);
    for larger n, backtracking over more than ~10 free rows gets expensive.
    """
    return max(0, (3 * n) // 5 - 1, n - 10)


def given_columns(problem: Problem) -> np.ndarray:
    """Column per row for the given queens, -1 elsewhere (the kernels' format)."""
    import numpy as np

    given = np.full(problem.n, -1, dtype=np.int64)
    for r, c in problem.givens:
        given[r] = c
    return given


class LasVegasBackend(Backend):
    name = "las-vegas"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    features = frozenset({Feature.GIVENS})
    summary = "Las Vegas random rows + backtracking, restarted on failure"
    requires: ClassVar[Mapping[str, str]] = {"numba": "numba"}
    options = (
        Option("step", "rows placed at random before backtracking (0..N; default about 0.6 N)",
               convert=non_negative_int, metavar="K"),
        Option("trials", "trials before giving up", 100_000, convert=positive_int),
    )  # fmt: skip
    uses_seed = True

    def load(self) -> None:
        """Solve a tiny board once: Numba loads cached kernels at their first call."""
        LasVegasBackend()._place(Problem(8), Run(0, None))

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return self._place(problem, run)

    def _place(self, problem: Problem, run: Run) -> SolveResult:
        import numpy as np

        from queenslab.heuristics import las_vegas_kernels, random_stream

        n = problem.n
        step = self.settings["step"]
        if step is None:
            step = default_step(n)
        elif step > n:
            raise UsageError(f"--step must be between 0 and N={n}, got {step}")
        state = random_stream.new_stream(run.seed)
        given = given_columns(problem)
        cols = np.zeros(n, dtype=np.int64)
        stop = run.stop_flag

        def trials() -> tuple[bool, int, int]:
            outcome: tuple[bool, int, int] = las_vegas_kernels.lv_until_solved(
                n, step, given, state, self.settings["trials"], cols, stop
            )
            return outcome

        finished, outcome = run_stoppably(trials, run.stop, run.should_stop)
        run.stats.add(step=step)
        if not finished or outcome is None:
            return SolveResult(Status.LIMIT)
        solved, tried, nodes = outcome
        run.stats.add(trials=int(tried), nodes=int(nodes))
        if solved:
            return SolveResult(Status.SOLVED, Placement(cols.copy()))
        return SolveResult(Status.UNKNOWN)
