"""Watch a search: step logs of small reference searches, for teaching.

``trace(problem, method)`` runs the Python reference version of a backend's search with a
``Tracer`` and returns it; ``queenslab.trace.html`` and ``queenslab.trace.svg`` play the
log back. Traces are bounded: boards up to ``TRACED[method].max_n`` and at most
``tracer.MAX_STEPS`` steps (a longer search is cut, and its log says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from queenslab.core.backend import Feature
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.trace import local, rows
from queenslab.trace.tracer import DEFAULT_STEPS, LIMIT, MAX_STEPS, TraceFull, Tracer

__all__ = ["DEFAULT_STEPS", "MAX_STEPS", "TRACED", "Traced", "Tracer", "trace"]


@dataclass(frozen=True)
class Traced:
    """A traceable method: its reference search and the largest board it traces."""

    search: Callable[..., str]
    max_n: int
    tree: bool  # row by row (place/remove): the player draws the search tree


#: Backend name -> its reference search for tracing.
TRACED: dict[str, Traced] = {
    "backtrack": Traced(rows.backtrack, 16, True),
    "bitmask": Traced(rows.bitmask, 16, True),
    "las-vegas": Traced(rows.las_vegas, 64, True),
    "min-conflicts": Traced(local.min_conflicts, 200, False),
    "hill-climbing": Traced(local.hill_climbing, 200, False),
}


def trace(
    problem: Problem, method: str, *, max_steps: int = DEFAULT_STEPS, **options: Any
) -> Tracer:
    """Run ``method``'s reference search on ``problem``, recording each step.

    Args:
        problem: the board (variant, blocked cells and givens as the backend allows).
        method: a key of ``TRACED`` (a backend name).
        max_steps: steps recorded before the search is cut (at most ``MAX_STEPS``).
        **options: ``seed``, ``every`` (row searches: the whole tree), ``step``.

    Returns:
        The tracer; its last step is ``end`` with the outcome.

    Raises:
        UsageError: an unknown method, a board too large, a board the backend refuses.

    Example:
        >>> last = trace(Problem(4), "backtrack").steps.pop()
        >>> last.get("status")
        'solved'
    """
    traced = TRACED.get(method)
    if traced is None:
        raise UsageError(f"cannot trace {method!r}; traceable: {', '.join(TRACED)}")
    if problem.n > traced.max_n:
        raise UsageError(f"{method} traces boards up to n = {traced.max_n}, got {problem.n}")
    if not 1 <= max_steps <= MAX_STEPS:
        raise UsageError(f"--max-steps must be between 1 and {MAX_STEPS}, got {max_steps}")
    _check_board(problem, method)
    tracer = Tracer(problem.n, method, max_steps)
    try:
        status = traced.search(problem, tracer, **options)
    except TraceFull:
        status = LIMIT
    tracer.end(status)
    return tracer


def _check_board(problem: Problem, method: str) -> None:
    """Refuse what the backend itself refuses, so a trace never shows an impossible run."""
    from queenslab.registry import backend_class

    cls = backend_class(method)
    needs = [
        (problem.variant not in cls.variants, f"the {problem.variant} variant"),
        (bool(problem.blocked) and Feature.BLOCKED not in cls.features, "blocked cells"),
        (bool(problem.givens) and Feature.GIVENS not in cls.features, "given queens"),
    ]
    for missing, what in needs:
        if missing:
            raise UsageError(f"{method} does not handle {what}")
