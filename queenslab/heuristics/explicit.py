"""The closed-form solution for every n >= 4 (Hoffman, Loessi & Moore), vectorised.

Columns are the even numbers 2, 4, ... followed by the odd numbers 1, 3, ... (1-based);
that already works unless n mod 6 is 2 or 3. For n mod 6 = 2 the odd list starts 3, 1 and
moves 5 to its end; for n mod 6 = 3 the 2 moves to the end of the even list and 1, 3 to
the end of the odd list. No search: 10^8 queens are a few NumPy passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from queenslab.backend import Backend, Capability, Family
from queenslab.errors import UsageError
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import SolveResult, Status
from queenslab.run import Run

if TYPE_CHECKING:
    import numpy as np


def explicit_columns(n: int) -> np.ndarray:
    """0-based columns of the closed-form solution for n = 1 or n >= 4 (int32 below 2^31)."""
    import numpy as np

    if n in (2, 3):
        raise UsageError(f"the explicit construction needs n = 1 or n >= 4, got {n}")
    dtype = np.int32 if n < 2**31 else np.int64
    evens = np.arange(2, n + 1, 2, dtype=dtype)
    odds = np.arange(1, n + 1, 2, dtype=dtype)
    if n % 6 == 2:
        odds = np.concatenate((odds[[1, 0]], odds[3:], odds[[2]]))  # 3, 1, 7, ..., 5
    elif n % 6 == 3:
        evens = np.concatenate((evens[1:], evens[:1]))  # 4, 6, ..., 2
        odds = np.concatenate((odds[2:], odds[:2]))  # 5, 7, ..., 1, 3
    cols = np.concatenate((evens, odds))
    cols -= 1
    return cols


class ExplicitBackend(Backend):
    name = "explicit"
    family = Family.HEURISTIC
    capabilities = frozenset({Capability.SOLVE})
    summary = "closed-form construction by n mod 6 (every n >= 4, 10^8 in seconds)"

    def solve(self, problem: Problem, run: Run) -> SolveResult:
        return SolveResult(Status.SOLVED, Placement(explicit_columns(problem.n)))
