"""The Las Vegas study: for every step, success probability and expected nodes.

For step k, p is the chance that a trial succeeds, s and e the mean nodes of successful
and failed trials, and t = s + (1 - p) / p * e the expected nodes until a first success
(restarting after each failure). Two modes:

- exact: walk the whole backtracking tree once, carrying for each partial board the
  probability that the random phase reaches it (product of 1/#safe columns) and the nodes
  that backtracking from it spends before its first solution (or exhausting it). Every
  step is read off the same walk; the cost is the size of the tree (n = 12: about 10 s).
  Sums are exact rationals, rounded to floats once at the end.
- monte-carlo: ``repeat`` seeded trials per step with the same trial kernel as the
  ``las-vegas`` backend, and 99.9 % confidence intervals (Wilson for p, normal for means,
  delta method for t).
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TextIO

import numpy as np

from queenslab.core.errors import UsageError
from queenslab.core.run import never

Z_999 = 3.2905267314919255  # two-sided 99.9 % normal quantile
EXACT_MAX_N = 13
#: Monte Carlo trials per kernel call: progress is told after each batch.
BATCH = 100


@dataclass
class StudyRow:
    step: int
    p: float
    s: float | None  # None when no trial succeeded
    e: float  # 0.0 when no trial failed
    t: float  # math.inf when p == 0
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)  # Monte Carlo only

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "step": self.step,
            "p": self.p,
            "s": self.s,
            "e": self.e,
            "t": self.t if math.isfinite(self.t) else None,
        }
        row.update({f"{key}_ci": list(bounds) for key, bounds in self.ci.items()})
        return row


@dataclass
class StudyResult:
    n: int
    mode: str  # "exact" or "monte-carlo"
    rows: list[StudyRow]
    repeat: int | None = None
    seed: int | None = None

    @property
    def best_step(self) -> int | None:
        finite = [row for row in self.rows if math.isfinite(row.t)]
        return min(finite, key=lambda row: row.t).step if finite else None

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "mode": self.mode,
            "rows": [row.to_json() for row in self.rows],
            "best_step": self.best_step,
        }

    def to_text(self) -> str:
        def num(x: float | None) -> str:
            return "-" if x is None or not math.isfinite(x) else f"{x:.4f}"

        lines = [
            f"n = {self.n} ({self.mode})",
            f"{'step':>4}  {'p':>8}  {'s':>10}  {'e':>10}  {'t':>12}",
        ]
        for r in self.rows:
            lines.append(
                f"{r.step:>4}  {r.p:>8.4f}  {num(r.s):>10}  {num(r.e):>10}  {num(r.t):>12}"
            )
        lines.append(f"best step: {self.best_step}")
        return "\n".join(lines)


def expected_nodes(p: Any, s: Any, e: Any) -> Any:
    """t = s + (1 - p) / p * e: restarts until the first success; inf when p == 0."""
    if p <= 0 or s is None:
        return math.inf
    return s + (1 - p) / p * e


def run_study(
    n: int, repeat: int = 1000, seed: int | None = None, exact: bool = False,
    done: Callable[[int], None] | None = None,
) -> StudyResult:  # fmt: skip
    """The study of board ``n``; ``done(k)`` hears of every k Monte Carlo trials run."""
    if n < 1:
        raise UsageError(f"n must be positive, got {n}")
    if exact:
        if n > EXACT_MAX_N:
            raise UsageError(f"--exact walks the whole tree; use n <= {EXACT_MAX_N}")
        return StudyResult(n, "exact", exact_rows(n))
    if repeat < 2:
        raise UsageError(f"--repeat must be at least 2, got {repeat}")
    rows = monte_carlo_rows(n, repeat, seed, done)
    return StudyResult(n, "monte-carlo", rows, repeat, seed)


# -- exact ------------------------------------------------------------------------------


def exact_rows(n: int) -> list[StudyRow]:
    # Per depth d, probability mass and mass x nodes of trials whose random phase stops at
    # d (for step d): backtracking from there succeeds / fails; and dead ends at d.
    ok_p, ok_n, fail_p, fail_n = ([Fraction(0)] * (n + 1) for _ in range(4))
    dead_p, dead_n = [Fraction(0)] * (n + 1), [Fraction(0)] * (n + 1)
    col, up, down = [False] * n, [False] * (2 * n), [False] * (2 * n)

    def walk(row: int, prob: Fraction) -> tuple[bool, int]:
        """(backtracking from this prefix succeeds, queens it places until it stops)."""
        found, spent = row == n, 0
        if row < n:
            safe = [c for c in range(n) if not (col[c] or up[row + c] or down[row - c + n])]
            if not safe:
                dead_p[row] += prob
                dead_n[row] += prob * (1 + row)
            for c in safe:
                col[c] = up[row + c] = down[row - c + n] = True
                child_found, child_spent = walk(row + 1, prob / len(safe))
                col[c] = up[row + c] = down[row - c + n] = False
                if not found:
                    spent += 1 + child_spent
                    found = child_found
        nodes = 1 + row + spent
        if found:
            ok_p[row] += prob
            ok_n[row] += prob * nodes
        else:
            fail_p[row] += prob
            fail_n[row] += prob * nodes
        return found, spent

    walk(0, Fraction(1))
    rows = []
    for step in range(n + 1):
        p = ok_p[step]
        q = fail_p[step] + sum(dead_p[:step])
        s = ok_n[step] / p if p > 0 else None
        e = (fail_n[step] + sum(dead_n[:step])) / q if q > 0 else Fraction(0)
        t = expected_nodes(p, s, e)  # exact rational, rounded once below
        rows.append(StudyRow(step, float(p), None if s is None else float(s), float(e), float(t)))
    return rows


# -- Monte Carlo ------------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = Z_999) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion."""
    phat = successes / trials
    denom = 1 + z * z / trials
    centre = (phat + z * z / (2 * trials)) / denom
    half = z * math.sqrt(phat * (1 - phat) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def _mean_interval(values: np.ndarray, z: float = Z_999) -> tuple[float, float, float]:
    """(mean, low, high); a single value gives a zero-width interval."""
    mean = float(values.mean())
    half = z * float(values.std(ddof=1)) / math.sqrt(values.size) if values.size > 1 else 0.0
    return mean, mean - half, mean + half


def monte_carlo_row(step: int, solved: np.ndarray, nodes: np.ndarray) -> StudyRow:
    trials = solved.size
    wins = int(solved.sum())
    p = wins / trials
    ci: dict[str, tuple[float, float]] = {"p": wilson(wins, trials)}
    s = e = None
    s_var = e_var = 0.0
    if wins:
        s, low, high = _mean_interval(nodes[solved])
        ci["s"] = (low, high)
        s_var = ((high - s) / Z_999) ** 2
    if wins < trials:
        e, low, high = _mean_interval(nodes[~solved])
        ci["e"] = (low, high)
        e_var = ((high - e) / Z_999) ** 2
    e = e or 0.0
    t = expected_nodes(p, s, e)
    if math.isfinite(t):  # delta method, p, s and e treated as independent
        p_var = p * (1 - p) / trials
        half = Z_999 * math.sqrt(s_var + ((1 - p) / p) ** 2 * e_var + (e / (p * p)) ** 2 * p_var)
        ci["t"] = (t - half, t + half)
    return StudyRow(step, p, s, e, t, ci)


def monte_carlo_rows(
    n: int, repeat: int, seed: int | None, done: Callable[[int], None] | None = None
) -> list[StudyRow]:
    """``repeat`` trials per step, in batches of BATCH (one random stream: the same
    trials as one call would run), each in a helper thread: a main thread inside the
    kernel saw neither Ctrl-C nor SIGTERM until the kernel returned (minutes), and then
    failed with "SystemError: ... returned a result with an exception set"."""
    from queenslab.heuristics import las_vegas_kernels, random_stream
    from queenslab.runtime.stop import run_stoppably

    state = random_stream.new_stream(seed)
    given = np.full(n, -1, dtype=np.int64)
    stop = np.zeros(1, dtype=np.uint8)
    rows = []
    for step in range(n + 1):
        batches = []
        for start in range(0, repeat, BATCH):
            size = min(BATCH, repeat - start)
            trials = functools.partial(
                las_vegas_kernels.lv_trials, n, step, given, state, size, stop
            )
            _, found = run_stoppably(trials, functools.partial(stop.fill, 1), never)
            assert found is not None  # never stops but on Ctrl-C, which is raised again
            batches.append(found)
            if done is not None:
                done(size)
        solved = np.concatenate([flags for flags, _ in batches])
        nodes = np.concatenate([counts for _, counts in batches])
        rows.append(monte_carlo_row(step, solved, nodes))
    return rows


# -- output -----------------------------------------------------------------------------


def write_plot(results: list[StudyResult], path: str) -> None:
    """t per step (log scale), one line per n in its own colour and marker; p on a second
    axis for one n. The format follows the file's suffix (.png, .svg, .pdf)."""
    from queenslab.io.figures import pyplot, save

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    colours = plt.get_cmap("viridis")(np.linspace(0, 0.92, len(results)))
    markers = "osD^v<>ph*"
    for index, result in enumerate(results):
        steps = [r.step for r in result.rows]
        ts = [r.t if math.isfinite(r.t) else np.nan for r in result.rows]
        below = [r.t - r.ci["t"][0] if "t" in r.ci else 0.0 for r in result.rows]
        above = [r.ci["t"][1] - r.t if "t" in r.ci else 0.0 for r in result.rows]
        ax.errorbar(steps, ts, yerr=[below, above], marker=markers[index % len(markers)],
                    color=colours[index], capsize=3, label=f"n = {result.n}")  # fmt: skip
    ax.set_yscale("log")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("step (rows placed at random)")
    ax.set_ylabel("expected nodes to a solution, t")
    if len(results) == 1:
        other = ax.twinx()
        other.plot(steps, [r.p for r in results[0].rows], color="tab:orange", marker=".")
        other.set_ylabel("success probability p (orange)")
        other.set_ylim(0, 1.05)
    else:
        ax.legend(fontsize="small", ncol=2, loc="center left", bbox_to_anchor=(1.01, 0.5))
    ax.set_title(f"Las Vegas + backtracking ({results[0].mode})")
    save(fig, path)


def print_study(result: StudyResult, fmt: str, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        out.write(json.dumps(result.to_json()) + "\n")
    else:
        out.write(result.to_text() + "\n")
