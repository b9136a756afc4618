"""The closed-form solution for every n >= 4 (Hoffman, Loessi & Moore), vectorised.

Columns are the even numbers 2, 4, ... followed by the odd numbers 1, 3, ... (1-based);
that already works unless n mod 6 is 2 or 3. For n mod 6 = 2 the odd list starts 3, 1 and
moves 5 to its end; for n mod 6 = 3 the 2 moves to the end of the even list and 1, 3 to
the end of the odd list. No search: 10^8 queens are a few NumPy passes.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run

if TYPE_CHECKING:
    import numpy as np


def explicit_columns(n: int) -> np.ndarray:
    """0-based columns of the closed-form solution for n = 1 or n >= 4 (int32 below 2^31).

    Built in place in the one array it returns: no temporaries, so 10^8 queens cost their
    400 MB and nothing more. Rows ``0..h-1`` get the even 1-based columns, the rest the odd
    ones (``h = n // 2``), then the n mod 6 = 2 or 3 corrections move a few of them.
    """
    import numpy as np

    if n in (2, 3):
        raise UsageError(f"the explicit construction needs n = 1 or n >= 4, got {n}")
    cols: np.ndarray = np.arange(n, dtype=np.int32 if n < 2**31 else np.int64)
    half = n // 2
    evens, odds = cols[:half], cols[half:]  # views: 1-based 2, 4, ... and 1, 3, ...
    evens *= 2
    evens += 1
    odds -= half
    odds *= 2
    if n % 6 == 2:  # odds 3, 1, 7, 9, ..., 5
        odds[2:-1] += 2
        odds[0], odds[1], odds[-1] = 2, 0, 4
    elif n % 6 == 3:  # evens 4, 6, ..., 2; odds 5, 7, ..., 1, 3
        evens[:-1] += 2
        evens[-1] = 1
        odds[:-2] += 4
        odds[-2], odds[-1] = 0, 2
    return cols


class ExplicitBackend(Backend):
    name = "explicit"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    summary = "closed-form construction by n mod 6 (every n >= 4, 10^8 in seconds)"

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return SolveResult(Status.SOLVED, Placement(explicit_columns(problem.n)))
