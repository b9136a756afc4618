"""Knuth's estimate of the size of a backtracking tree, from random probes.

Knuth ("Estimating the Efficiency of Backtrack Programs", Math. Comp. 29, 1975) walks one
random path from the root: at depth k it sees d_k children and moves to one of them at
random. ``1 + d_0 + d_0 d_1 + d_0 d_1 d_2 + ...`` is then an unbiased estimate of the
number of nodes; the mean of K probes is too, with a standard error that shrinks as
1/sqrt(K). The tree is the backtrack backend's (rows in order, every consistent partial
placement a node, the empty board included), built from the board layer's row masks, so
variants, blocked cells and givens count as they do in the search.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass, field
from typing import Any

from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.trace.rows import RowMasks

#: z for a two-sided 95% normal interval.
Z95 = 1.959964
#: Probes asked for at most (each costs O(n²) work in Python).
MAX_PROBES = 1_000_000
#: Largest board estimated: a probe's size is at most 1 + n + n(n-1) + ... < e·n!, which a
#: float holds up to n = 170 (e·170! is about 2·10^307); sums are kept as exact integers.
MAX_N = 170
#: Largest board whose exact tree the backtrack backend walks for comparison here.
MAX_EXACT_N = 13


@dataclass
class Estimate:
    """Mean and 95% interval of the probes; ``exact`` when the tree was also walked."""

    n: int
    probes: int
    mean: float
    stderr: float
    exact: int | None = None
    levels: list[float] = field(default_factory=list)  # estimated nodes per depth
    level_stderr: list[float] = field(default_factory=list)  # their standard errors
    exact_levels: list[int] | None = None  # the walked tree's nodes per depth

    def level_intervals(self) -> list[tuple[float, float]]:
        """The 95% interval of each depth's estimate (same approximation as ``interval``)."""
        return [
            (max(0.0, mean - Z95 * err), mean + Z95 * err)
            for mean, err in zip(self.levels, self.level_stderr, strict=True)
        ]

    @property
    def interval(self) -> tuple[float, float]:
        """mean ± 1.96 standard errors (normal approximation; the estimates are skewed,
        so with few probes the true size is more often above the interval than below)."""
        half = Z95 * self.stderr
        return max(1.0, self.mean - half), self.mean + half

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "n": self.n,
            "probes": self.probes,
            "estimate": round(self.mean, 3),
            "stderr": round(self.stderr, 3),
            "ci95": [round(low, 3), round(high, 3)],
            "exact": self.exact,
            "levels": [round(v, 3) for v in self.levels],
            "levels_ci95": [[round(lo, 3), round(hi, 3)] for lo, hi in self.level_intervals()],
            "exact_levels": self.exact_levels,
        }


def probe(masks: RowMasks, rng: random.Random) -> list[int]:
    """One random path: the number of children seen at each depth until a leaf."""
    state, seen = masks.start, []
    for row in range(masks.n):
        free = masks.free(state, row)
        seen.append(len(free))
        if not free:
            break
        state = masks.after(state, row, rng.choice(free))
    return seen


def estimate(problem: Problem, probes: int = 1000, run: Run | None = None) -> Estimate:
    """Estimate the backtracking tree of ``problem`` from ``probes`` random paths.

    Args:
        problem: the board (variant, blocked cells, givens), n <= MAX_N.
        probes: number of random paths (1..MAX_PROBES).
        run: its seed makes the estimate reproducible; its stop signal or time limit ends
            the probes early (the estimate then uses the probes done, ``probes`` says how
            many; LimitReached before two).

    Returns:
        The mean, its standard error and the mean number of nodes per depth.

    Example:
        >>> result = estimate(Problem(8), probes=200, run=Run(seed=1))
        >>> result.interval[0] < result.mean < result.interval[1]
        True
    """
    if problem.n > MAX_N:
        raise UsageError(
            f"the estimate handles n <= {MAX_N} (a larger tree can exceed a float), got {problem.n}"
        )
    run = run or Run()
    rng = random.Random(run.seed)
    masks = RowMasks(problem)
    sizes: list[int] = []  # exact integers: a product of branchings can pass a float
    levels = [0] * (problem.n + 1)
    squares = [0] * (problem.n + 1)  # per depth, for its standard error
    for done in range(probes):
        if run.should_stop():
            break
        product, size = 1, 1
        levels[0] += 1
        squares[0] += 1
        for depth, children in enumerate(probe(masks, rng), 1):
            product *= children
            size += product
            levels[depth] += product
            squares[depth] += product * product
        sizes.append(size)
        if done % 256 == 255:
            run.report(done + 1, probes)
    count = len(sizes)
    if count < min(2, probes):
        raise LimitReached
    stderr = statistics.stdev(sizes) / math.sqrt(count) if count > 1 else math.inf
    level_stderr = [_stderr(t, sq, count) for t, sq in zip(levels, squares, strict=True)]
    return Estimate(
        problem.n, count, sum(sizes) / count, stderr,
        levels=[v / count for v in levels], level_stderr=level_stderr,
    )  # fmt: skip


def _stderr(total: int, square: int, count: int) -> float:
    """The standard error of a mean from the exact sum and sum of squares of ``count``
    values (integer arithmetic: the squares of deep levels pass a float)."""
    if count < 2:
        return math.inf
    spread = max(0, count * square - total * total)  # count^2 (count - 1) times the answer^2
    scale = count * count * (count - 1)
    if spread // scale < 1 << 100:  # small enough for a float, which keeps the fraction
        return math.sqrt(spread / scale)
    return float(math.isqrt(spread // scale))


def exact_size(problem: Problem, time_limit: float | None = None) -> int | None:
    """The tree's node count, from the backtrack backend walking it all (None at a limit)."""
    profile = exact_profile(problem, time_limit)
    return None if profile is None else sum(profile)


def exact_profile(problem: Problem, time_limit: float | None = None) -> list[int] | None:
    """The tree's nodes per depth, from the backtrack backend walking it all (None at a
    limit): what ``Estimate.levels`` estimates."""
    from queenslab import api
    from queenslab.core.result import Status

    result = api.count(problem, backend="backtrack", time_limit=time_limit, profile=True)
    return None if result.status is Status.LIMIT else list(result.stats["profile"])
