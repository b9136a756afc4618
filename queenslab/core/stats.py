"""One vocabulary for what a search did, so backends can be compared number for number.

Every backend reports into ``Run.stats`` under these names where the concept applies;
anything solver-specific goes beside them under a clear name of its own. Counts of a split
search (cubes, subproblems) are summed with ``Stats.add``.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import zip_longest
from typing import Any

#: Shared names and what they mean (also the table in docs/statistics.md).
FIELDS: dict[str, str] = {
    "variables": "model variables, board cells and auxiliary ones",
    "constraints": "model constraints: clauses for CNF, rows for MILP, constraints for CP-SAT",
    "auxiliary_variables": "variables a cardinality encoding adds beyond the n² board cells",
    "nodes": "nodes of a native search tree: consistent partial placements visited, "
    "the empty board included",
    "pruned": "values removed from the domains of open variables by inference (forward "
    "checking, arc consistency)",
    "conflicts": "conflicts of a CDCL or CP-SAT search",
    "decisions": "branching decisions of a SAT search",
    "propagations": "literals propagated by a SAT search",
    "restarts": "restarts of a SAT search, or of a local search",
    "branches": "branches of a CP-SAT search",
    "mip_nodes": "branch-and-bound nodes of a MILP solver",
    "lp_iterations": "simplex iterations of a MILP solver",
    "oracle_calls": "SAT oracle calls of a MaxSAT solver",
    "moves": "moves (swaps, or one queen moved within its row) made by a local search",
    "plateau_moves": "moves of a local search that left the number of conflicts unchanged",
    "trials": "independent trials of a Las Vegas method",
    "profile": "nodes of the search tree at each depth (queens placed), with --profile",
    "build_seconds": "building the model and loading it into the solver",
    "solve_seconds": "searching; build_seconds + solve_seconds = seconds",
    "startup_seconds": "importing the solver and loading compiled kernels (not in seconds)",
}


#: Effort figures in the order one is chosen to stand for a run: the search tree of a
#: native search first, then CP-SAT's branches, MILP nodes, CDCL conflicts, and the rest.
EFFORT_ORDER = (
    "nodes",
    "branches",
    "mip_nodes",
    "conflicts",
    "decisions",
    "lp_iterations",
    "oracle_calls",
    "moves",
    "trials",
)
#: Every shared figure that measures search effort (model sizes and timings are not effort).
EFFORT_FIELDS = tuple(
    name
    for name in FIELDS
    if name not in {"variables", "constraints", "auxiliary_variables", "profile"}
    and not name.endswith("_seconds")
)


def primary_effort(stats: Mapping[str, Any]) -> str | None:
    """The name of the figure that stands for a run's effort, or None when it has none."""
    return next((name for name in EFFORT_ORDER if name in stats), None)


#: Figures that describe one model, not work done: a run that builds several (the model
#: of an optimum, then of its answers; one per blocking round or per cube) reports the
#: largest it built, never their sum.
MODEL_SIZE = frozenset(
    {"variables", "constraints", "auxiliary_variables", "encoding_fallbacks", "soft_clauses"}
)


class Stats(dict[str, Any]):
    """A search's statistics: numbers add up across the parts of a split search."""

    def add(self, values: Mapping[str, Any] | None = None, /, **more: Any) -> None:
        """Sum numbers and lists of numbers (element by element) into the record, a
        model's size (``MODEL_SIZE``) as the largest; other values (names, methods) are
        set."""
        for key, value in {**(values or {}), **more}.items():
            if key in MODEL_SIZE and isinstance(value, int):
                self[key] = max(self.get(key, 0), value)
            elif isinstance(value, float):  # rounded, so 0.1 + 0.2 prints as 0.3
                self[key] = round(self.get(key, 0) + value, 6)
            elif isinstance(value, int) and not isinstance(value, bool):
                self[key] = self.get(key, 0) + value
            elif isinstance(value, list):
                pairs = zip_longest(self.get(key, []), value, fillvalue=0)
                self[key] = [mine + theirs for mine, theirs in pairs]
            else:
                self[key] = value


def summary(stats: Mapping[str, Any]) -> str:
    """One readable line: the timings, then every other figure, e.g. for ``-v``."""
    seconds = [f"{key[:-8]} {stats[key]:.3f} s" for key in _TIMES if key in stats]
    figures = [
        f"{key} {value:,}" if isinstance(value, int) else f"{key} {value}"
        for key, value in stats.items()
        if key not in _TIMES
    ]
    return "; ".join([", ".join(seconds), *figures] if seconds else figures)


_TIMES = ("build_seconds", "solve_seconds", "startup_seconds")
