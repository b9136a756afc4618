"""queenslab: N-queens through CP-SAT, SAT and MILP models, exact counters and heuristics.

Quick start::

    >>> import queenslab as ql
    >>> ql.count(8, backend="backtrack").total
    92
    >>> ql.solve(4, backend="backtrack").placement
    Placement([1, 3, 0, 2])
"""

from queenslab.api import BackendBug, count, enumerate_solutions, optimize, solve
from queenslab.backend import Backend, Capability, Family, Option
from queenslab.boards import VARIANTS
from queenslab.errors import (
    BackendUnavailable,
    CapabilityError,
    LimitReached,
    QueensError,
    UsageError,
)
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.registry import backends, register_backend
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status

__version__ = "0.1.0"

__all__ = [
    "VARIANTS",
    "Backend",
    "BackendBug",
    "BackendUnavailable",
    "Capability",
    "CapabilityError",
    "CountResult",
    "Family",
    "LimitReached",
    "OptimizeResult",
    "Option",
    "Placement",
    "Problem",
    "QueensError",
    "SolveResult",
    "Status",
    "UsageError",
    "__version__",
    "backends",
    "count",
    "enumerate_solutions",
    "optimize",
    "register_backend",
    "solve",
]
