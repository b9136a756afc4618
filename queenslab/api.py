"""The public entry points: pick a backend, time it, and validate everything it returns.

Every placement any backend returns passes through ``_checked``: an O(n) validity test and
a check that the given queens are kept. A backend that returns a wrong board raises
``BackendBug`` instead of reaching the user.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from queenslab.backend import Backend, Capability, Family, ProgressCallback
from queenslab.errors import UsageError
from queenslab.placement import Placement
from queenslab.problem import MAX_N, Problem
from queenslab.registry import get_backend, info
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status


class BackendBug(AssertionError):
    """A backend returned an invalid placement or lost a given queen."""


def make_problem(
    n: int,
    givens: Iterable[tuple[int, int]] = (),
    seed: int | None = None,
    time_limit: float | None = None,
) -> Problem:
    return Problem(n, tuple(givens), seed, time_limit)


#: Default backends, best first, each with the largest n it is picked for. Exact search is
#: instant on small boards and proves infeasibility; past that, local search (no givens)
#: or CP-SAT (givens) find a board fast.
DEFAULTS: dict[Capability, list[tuple[str, int]]] = {
    Capability.SOLVE: [("bitmask", 20), ("min-conflicts", MAX_N), ("backtrack", MAX_N)],
    Capability.ENUMERATE: [("bitmask", 63), ("backtrack", MAX_N)],
    Capability.COUNT: [("bitmask", 63), ("backtrack", MAX_N)],
    Capability.UNIQUE: [("bitmask", 63), ("backtrack", MAX_N)],
    Capability.OPTIMIZE: [("bitmask", 16), ("cpsat", MAX_N), ("milp", MAX_N)],
}
_GIVENS_FALLBACK = "cpsat"


def default_backend(capability: Capability, problem: Problem) -> str:
    """The fastest sensible available backend for this capability and problem."""
    choices = [info(name) for name, largest in DEFAULTS[capability] if problem.n <= largest]
    if problem.givens:
        # Local search cannot prove that the givens have no completion: complete methods
        # first, CP-SAT right after the small-board exact search.
        choices.insert(1, info(_GIVENS_FALLBACK))
        choices.sort(key=lambda details: details.family == Family.HEURISTIC)
    for details in choices:
        if (
            details.available
            and capability in details.capabilities
            and (not problem.givens or Capability.GIVENS in details.capabilities)
        ):
            return details.name
    raise UsageError(f"no installed backend can {capability}; see `queens backends`")


def _backend(
    name: str | None, capability: Capability, problem: Problem, options: dict[str, Any]
) -> Backend:
    name = name or default_backend(capability, problem)
    backend = get_backend(name, capability, **options)
    if problem.givens and Capability.GIVENS not in backend.capabilities:
        raise UsageError(f"backend {name!r} does not support given queens")
    return backend


def _checked(problem: Problem, placement: Placement, backend: str) -> Placement:
    if placement.n != problem.n:
        raise BackendBug(f"{backend} returned {placement.n} queens for n={problem.n}")
    if not placement.is_valid():
        raise BackendBug(f"{backend} returned an invalid placement: {placement!r}")
    if not problem.keeps_givens(placement):
        raise BackendBug(f"{backend} moved a given queen: {placement!r}")
    return placement


def solve(
    n: int | Problem,
    backend: str | None = None,
    *,
    givens: Iterable[tuple[int, int]] = (),
    seed: int | None = None,
    time_limit: float | None = None,
    **options: Any,
) -> SolveResult:
    """Find one placement of n queens (keeping ``givens``) with the chosen backend."""
    problem = n if isinstance(n, Problem) else make_problem(n, givens, seed, time_limit)
    engine = _backend(backend, Capability.SOLVE, problem, options)
    start = time.perf_counter()
    result = engine.solve(problem)
    result.seconds = time.perf_counter() - start
    result.n, result.backend = problem.n, engine.name
    if result.placement is not None:
        _checked(problem, result.placement, engine.name)
    elif result.status is Status.SOLVED:
        raise BackendBug(f"{engine.name} said solved without a placement")
    return result


def enumerate_solutions(
    n: int | Problem,
    backend: str | None = None,
    *,
    givens: Iterable[tuple[int, int]] = (),
    time_limit: float | None = None,
    **options: Any,
) -> Iterator[Placement]:
    """Stream every solution (each validated) without holding them all in memory."""
    problem = n if isinstance(n, Problem) else make_problem(n, givens, None, time_limit)
    engine = _backend(backend, Capability.ENUMERATE, problem, options)
    for placement in engine.enumerate(problem):
        yield _checked(problem, placement, engine.name)


def count(
    n: int | Problem,
    backend: str | None = None,
    *,
    unique: bool = False,
    givens: Iterable[tuple[int, int]] = (),
    time_limit: float | None = None,
    progress: ProgressCallback | None = None,
    **options: Any,
) -> CountResult:
    """Count all solutions (and, with ``unique``, the classes up to rotation/reflection)."""
    problem = n if isinstance(n, Problem) else make_problem(n, givens, None, time_limit)
    if unique and problem.givens:
        raise UsageError("--unique counts symmetry classes of the empty board; drop the givens")
    engine = _backend(backend, Capability.UNIQUE if unique else Capability.COUNT, problem, options)
    start = time.perf_counter()
    result = engine.count(problem, unique=unique, progress=progress)
    result.seconds = time.perf_counter() - start
    result.n, result.backend = problem.n, engine.name
    return result


def optimize(
    n: int | Problem,
    weights: np.ndarray,
    backend: str | None = None,
    *,
    givens: Iterable[tuple[int, int]] = (),
    time_limit: float | None = None,
    **options: Any,
) -> OptimizeResult:
    """Place n queens to maximise the total weight of the occupied cells."""
    problem = n if isinstance(n, Problem) else make_problem(n, givens, None, time_limit)
    weights = np.asarray(weights)
    if weights.shape != (problem.n, problem.n):
        raise UsageError(f"weights must be a {problem.n}x{problem.n} matrix, got {weights.shape}")
    engine = _backend(backend, Capability.OPTIMIZE, problem, options)
    start = time.perf_counter()
    result = engine.optimize(problem, weights.astype(np.int64))
    result.seconds = time.perf_counter() - start
    result.n, result.backend = problem.n, engine.name
    if result.placement is not None:
        placement = _checked(problem, result.placement, engine.name)
        achieved = int(weights[np.arange(problem.n), placement.as_array()].sum())
        if result.objective != achieved:
            raise BackendBug(
                f"{engine.name} reported objective {result.objective}, board gives {achieved}"
            )
    return result
