"""Watch a search: step logs of small searches, for teaching.

``trace(problem, method)`` runs a search with a ``Tracer`` and returns it;
``queenslab.trace.html`` and ``queenslab.trace.svg`` play the log back. The CSP searches
(``backtrack``, ``forward-checking``, ``mac``) and the local searches (``minton``,
``min-conflicts``, ``hill-climbing``) are the backends' own searches, heard through their
hooks, so a trace's counts are their statistics; the other row searches are small Python
reference versions of fast backends. A method may carry orders,
``forward-checking+mrv+lcv``. Traces are bounded: boards up to ``TRACED[name].max_n`` and
at most ``tracer.MAX_STEPS`` steps (a longer search is cut, and its log says so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from queenslab.core.backend import Feature
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.trace import local, rows
from queenslab.trace.tracer import DEFAULT_STEPS, LIMIT, MAX_STEPS, TraceFull, Tracer

__all__ = ["DEFAULT_STEPS", "MAX_STEPS", "ORDERS", "TRACED", "Traced", "Tracer", "trace"]


@dataclass(frozen=True)
class Traced:
    """A traceable method: its search, the largest board it traces, and how it is drawn."""

    search: Callable[..., str]
    max_n: int
    tree: bool  # row by row (place/remove): the player draws the search tree
    backend: str  # the backend whose board rules the trace follows
    orders: bool = False  # takes +mrv (variables) and +lcv (values)


#: Method name -> its search for tracing.
TRACED: dict[str, Traced] = {
    "backtrack": Traced(rows.csp("none"), 16, True, "backtrack", True),
    "forward-checking": Traced(rows.csp("forward-checking"), 16, True, "csp", True),
    "mac": Traced(rows.csp("mac"), 16, True, "csp", True),
    "bitmask": Traced(rows.bitmask, 16, True, "bitmask"),
    "las-vegas": Traced(rows.las_vegas, 64, True, "las-vegas"),
    "minton": Traced(local.minton, 200, False, "minton"),
    "min-conflicts": Traced(local.min_conflicts, 200, False, "min-conflicts"),
    "hill-climbing": Traced(local.hill_climbing, 200, False, "hill-climbing"),
}
#: Order suffixes of a method name -> the search option they set.
ORDERS = {"mrv": ("variables", "mrv"), "lcv": ("values", "lcv")}


def method(spec: str) -> tuple[Traced, dict[str, str]]:
    """``forward-checking+mrv`` -> the traced method and its order options."""
    name, *suffixes = spec.split("+")
    traced = TRACED.get(name)
    if traced is None:
        raise UsageError(f"cannot trace {name!r}; traceable: {', '.join(TRACED)}")
    options: dict[str, str] = {}
    for suffix in suffixes:
        if suffix not in ORDERS or not traced.orders:
            takes = "+mrv, +lcv" if traced.orders else "no suffix"
            raise UsageError(f"{spec!r}: {name} takes {takes}")
        key, value = ORDERS[suffix]
        options[key] = value
    return traced, options


def trace(
    problem: Problem, spec: str, *, max_steps: int = DEFAULT_STEPS, seed: int | None = None,
    **options: Any,
) -> Tracer:  # fmt: skip
    """Run ``spec``'s search on ``problem``, recording each step.

    Args:
        problem: the board (variant, blocked cells and givens as the backend allows).
        spec: a key of ``TRACED``, with ``+mrv`` / ``+lcv`` for the CSP searches.
        max_steps: steps recorded before the search is cut (at most ``MAX_STEPS``).
        seed: the random seed of las-vegas and the local searches.
        **options: ``every`` (row searches: the whole tree), ``step`` (las-vegas).

    Returns:
        The tracer; its last step is ``end`` with the outcome and the search's statistics.

    Raises:
        UsageError: an unknown method, a board too large, a board the backend refuses.

    Example:
        >>> last = trace(Problem(4), "forward-checking").steps.pop()
        >>> stats = last["stats"]
        >>> last["status"], stats["nodes"]
        ('solved', 9)
    """
    traced, orders = method(spec)
    if problem.n > traced.max_n:
        raise UsageError(f"{spec} traces boards up to n = {traced.max_n}, got {problem.n}")
    if not 1 <= max_steps <= MAX_STEPS:
        raise UsageError(f"--max-steps must be between 1 and {MAX_STEPS}, got {max_steps}")
    _check_board(problem, traced.backend)
    tracer = Tracer(problem.n, spec, max_steps)
    run = Run(seed=seed)
    try:
        status = traced.search(problem, tracer, run, **orders, **options)
    except TraceFull:
        status = LIMIT
    solutions = sum(step["kind"] == "solution" for step in tracer.steps)
    tracer.end(status, solutions=solutions, **({"stats": _counts(run)} if run.stats else {}))
    return tracer


def _counts(run: Run) -> dict[str, Any]:
    """The search's effort figures (timings are not part of a step log)."""
    return {k: v for k, v in run.stats.items() if not k.endswith("_seconds")}


def _check_board(problem: Problem, backend: str) -> None:
    """Refuse what the backend itself refuses, so a trace never shows an impossible run."""
    from queenslab.registry import backend_class

    cls = backend_class(backend)
    needs = [
        (problem.variant not in cls.variants, f"the {problem.variant} variant"),
        (bool(problem.blocked) and Feature.BLOCKED not in cls.features, "blocked cells"),
        (bool(problem.givens) and Feature.GIVENS not in cls.features, "given queens"),
    ]
    for missing, what in needs:
        if missing:
            raise UsageError(f"{backend} does not handle {what}")
