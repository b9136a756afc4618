"""queenslab: N-queens through CP-SAT, SAT and MILP models, exact counters and heuristics.

Quick start::

    >>> import queenslab as ql
    >>> ql.count(8, backend="backtrack").total
    92
    >>> ql.solve(4, backend="backtrack").placement
    Placement([1, 3, 0, 2])
"""

import sys

from queenslab.api import (
    count,
    decide,
    enumerate_solutions,
    export,
    optimize,
    problem_model,
    solve,
)
from queenslab.boards import VARIANTS
from queenslab.core.backend import Backend, Family, Feature, Option, Task
from queenslab.core.errors import (
    BackendBug,
    BackendUnavailable,
    CapabilityError,
    LimitReached,
    QueensError,
    Undecided,
    UsageError,
)
from queenslab.core.kind import ProblemKind, Question
from queenslab.core.model import BoolModel, Sense
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, DecideResult, OptimizeResult, SolveResult, Status
from queenslab.problems import kind_names as kinds
from queenslab.problems import register_kind
from queenslab.registry import backends, register_backend, register_translator

__version__ = "0.1.0"

if "IPython" in sys.modules:  # a notebook or shell: placements and results draw themselves
    from queenslab.io.notebook import register_with_ipython

    register_with_ipython()

__all__ = [
    "VARIANTS",
    "Backend",
    "BackendBug",
    "BackendUnavailable",
    "BoolModel",
    "CapabilityError",
    "CountResult",
    "DecideResult",
    "Family",
    "Feature",
    "LimitReached",
    "OptimizeResult",
    "Option",
    "Placement",
    "Problem",
    "ProblemKind",
    "QueensError",
    "Question",
    "Sense",
    "SolveResult",
    "Status",
    "Task",
    "Undecided",
    "UsageError",
    "__version__",
    "backends",
    "count",
    "decide",
    "enumerate_solutions",
    "export",
    "kinds",
    "optimize",
    "problem_model",
    "register_backend",
    "register_kind",
    "register_translator",
    "solve",
]
