"""Every speed comparison of the project in one run: a Markdown report and PNG plots.

Runs, side by side with their baselines and on the same machine in the same run:

1. counting time vs N for every counting backend (backtrack, bitmask, cpsat, sat, milp)
   and the one-thread C mirror counter (``count_vs_c.py``);
2. ``cpsat``/``sat`` counting vs the textbook CP-SAT and SAT models (``models_count.py``);
3. heuristics and constructions from n = 10^3 to 10^7 (10^8 without ``--quick``), with
   textbook hill climbing as the baseline (``heuristics.py``);
4. where the MILP's time goes: Pyomo build, solver load, solve (``milp_scaling.py``);
5. lookup arrays vs scanning checks in backtracking (``lookup_vs_scan.py``).

Backends are timed in this process after a warm-up (Numba compile and imports excluded);
the C program is timed as a whole process. Each series grows N until one run would exceed
the time budget, so slow methods stop early instead of stalling the run. Every count is
checked against OEIS A000170 (validation only).

    python benchmarks/run.py --quick            # about 2-3 minutes on 2 cores
    python benchmarks/run.py --out results/     # the full run (N to 17, n to 10^8)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import count_vs_c  # noqa: E402  (the sibling scripts: their measuring functions are reused)
import heuristics as heuristics_bench  # noqa: E402
import lookup_vs_scan  # noqa: E402
import milp_scaling  # noqa: E402
import models_count  # noqa: E402
from _process import parse_args  # noqa: E402

import queenslab as ql  # noqa: E402
from queenslab.lab import reference  # noqa: E402

#: Series -> seconds per size (missing sizes were not run: over budget or beyond the cap).
Series = dict[str, dict[int, float]]


@dataclass(frozen=True)
class Plan:
    """How far each part of the run goes."""

    budget: float  # seconds one measurement may take; a series stops before exceeding it
    repeat: int  # runs per measurement (median); runs over one second are not repeated
    count_max_n: int
    heuristic_sizes: tuple[int, ...]
    milp_sizes: tuple[int, ...]
    lookup_sizes: tuple[int, ...]


SMOKE = Plan(10.0, 1, 5, (10**2,), (8,), (8,))  # every part once, at its smallest
QUICK = Plan(10.0, 3, 15, tuple(10**k for k in range(3, 8)), (8, 16, 32, 64), (16, 20))
FULL = Plan(
    120.0, 3, 17, tuple(10**k for k in range(3, 9)), (8, 16, 32, 64, 128, 256), (16, 20, 22, 24)
)
#: Growth of a run's time from one size to the next, assumed before measuring it.
GROWTH = 6.0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def median_seconds(run: Callable[[], float], repeat: int) -> float:
    """Median of ``repeat`` runs; a run longer than a second is not repeated."""
    times = [run()]
    while len(times) < repeat and times[0] < 1.0:
        times.append(run())
    return statistics.median(times)


def grow(
    name: str, sizes: list[int], run: Callable[[int], float], plan: Plan, growth: float = GROWTH
) -> dict[int, float]:
    """Time ``run(size)`` for increasing sizes while the next one fits in the budget."""
    measured: dict[int, float] = {}
    for size in sizes:
        seconds = median_seconds(lambda size=size: run(size), plan.repeat)
        measured[size] = seconds
        log(f"  {name:<16} {size:>10}  {seconds:9.4f} s")
        if seconds * growth > plan.budget:
            break
    return measured


# -- 1 and 2: counting -------------------------------------------------------------------


def _backend_count(backend: str) -> Callable[[int], float]:
    def run(n: int) -> float:
        result = ql.count(n, backend=backend)
        if result.total != reference.total(n):
            raise SystemExit(f"{backend} counts {result.total} for n={n}, OEIS says otherwise")
        return result.seconds

    return run


def _c_count(n: int) -> float:
    wall, _, out = count_vs_c.timed([str(count_vs_c.build()), str(n)])
    if int(out.split()[1]) != reference.total(n):
        raise SystemExit(f"the C counter is wrong at n={n}")
    return wall


def _textbook_count(backend: str) -> Callable[[int], float]:
    def run(n: int) -> float:
        start = time.perf_counter()
        found = models_count.BASELINES[backend](n)
        seconds = time.perf_counter() - start
        if found != reference.total(n):
            raise SystemExit(f"textbook {backend} counts {found} for n={n}")
        return seconds

    return run


def counting(plan: Plan) -> Series:
    log("counting (seconds per count; C = whole process)")
    runners: dict[str, Callable[[int], float]] = {
        name: _backend_count(name) for name in ("backtrack", "bitmask", "cpsat", "sat", "milp")
    }
    runners["C mirror"] = _c_count
    runners["textbook cpsat"] = _textbook_count("cpsat")
    runners["textbook sat"] = _textbook_count("sat")
    for run in runners.values():
        run(6)  # imports, Numba caches, solver start-up: not measured
    sizes = list(range(4, plan.count_max_n + 1))
    return {name: grow(name, sizes, run, plan) for name, run in runners.items()}


# -- 3: heuristics -------------------------------------------------------------------------

HEURISTICS = ("min-conflicts", "explicit", "divide-conquer", "hill-climbing")


def heuristics(plan: Plan) -> Series:
    log("heuristics (seconds inside the backend, validation excluded)")
    series: Series = {}
    for backend in HEURISTICS:
        ql.solve(100, backend=backend, seed=0)  # compile or load the Numba cache

        def run(n: int, backend: str = backend) -> float:
            return heuristics_bench.search_seconds(backend, n, 1)

        # One size to the next is x10: a linear method grows about tenfold.
        series[backend] = grow(backend, list(plan.heuristic_sizes), run, plan, growth=12.0)
    return series


# -- 4 and 5: the MILP's phases, lookup vs scan ----------------------------------------------


def milp_phases(plan: Plan) -> dict[int, tuple[float, float, float]]:
    log("milp phases (build, load, solve)")
    milp_scaling.timed_run(8, "highs", plan.budget)  # imports and solver start-up
    phases: dict[int, tuple[float, float, float]] = {}
    for n in plan.milp_sizes:
        runs = [milp_scaling.timed_run(n, "highs", plan.budget) for _ in range(plan.repeat)]
        phases[n] = tuple(statistics.median(run[i] for run in runs) for i in range(3))  # type: ignore[assignment]
        log(f"  milp {n:>4}  " + "  ".join(f"{t:.3f}" for t in phases[n]))
    return phases


def lookups(plan: Plan) -> dict[int, tuple[int, float, float]]:
    log("backtracking: scanning checks vs lookup arrays (first solution)")
    rows: dict[int, tuple[int, float, float]] = {}
    for n in plan.lookup_sizes:
        scan, _, nodes = lookup_vs_scan.timed(lookup_vs_scan.first_solution_by_scanning, n, 1)
        look, _, _ = lookup_vs_scan.timed(lookup_vs_scan.first_solution_by_lookup, n, 1)
        rows[n] = (nodes, scan, look)
        log(f"  n={n}  nodes {nodes}  scan {scan:.3f} s  lookup {look:.3f} s")
    return rows


# -- report ----------------------------------------------------------------------------------


def machine() -> dict[str, str]:
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = next(
            line.split(":", 1)[1].strip() for line in lscpu.splitlines() if "Model name" in line
        )
    except (OSError, StopIteration):
        model = platform.processor() or "unknown"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": model,
        "cores": str(cores),
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }


def _cell(seconds: float | None) -> str:
    """Readable across six orders of magnitude: µs, ms, then seconds."""
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def series_table(series: Series, label: str, size: Callable[[int], str] = str) -> list[str]:
    names = list(series)
    sizes = sorted({k for values in series.values() for k in values})
    lines = [
        f"| {label} | " + " | ".join(names) + " |",
        "|---:|" + "---:|" * len(names),
    ]
    for k in sizes:
        cells = [_cell(series[name].get(k)) for name in names]
        lines.append(f"| {size(k)} | " + " | ".join(cells) + " |")
    return lines


def ratio_table(series: Series, pairs: list[tuple[str, str]]) -> list[str]:
    """``ours / baseline`` per N where both ran (below 1: ours is faster)."""
    header = [f"{ours} / {base}" for ours, base in pairs]
    lines = ["| N | " + " | ".join(header) + " |", "|---:|" + "---:|" * len(pairs)]
    sizes = sorted({k for ours, base in pairs for k in series[ours] if k in series[base]})
    for n in sizes:
        cells = [
            f"{series[ours][n] / series[base][n]:.3g}"
            if n in series[ours] and n in series[base]
            else "-"
            for ours, base in pairs
        ]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def report(data: dict, quick: bool) -> str:
    lines = [
        f"# queenslab benchmarks ({'--quick' if quick else 'full'} run)",
        "",
        *(f"- {key}: {value}" for key, value in data["machine"].items()),
        "",
        "Times are medians of up to 3 runs (runs over 1 s are not repeated). Backends are timed",
        "in-process after a warm-up (`CountResult.seconds`, `SolveResult.seconds`); the C",
        "counter as a whole process. `-`: not run (the series stopped before its budget).",
        "",
        "## Counting time vs N",
        "",
        "![count time vs N](count_time.png)",
        "",
        *series_table(
            {k: v for k, v in data["count"].items() if not k.startswith("textbook")}, "N"
        ),
        "",
        "## cpsat and sat counting vs the textbook models",
        "",
        "![models vs textbook](models_vs_textbook.png)",
        "",
        *series_table(
            {k: data["count"][k] for k in ("cpsat", "textbook cpsat", "sat", "textbook sat")},
            "N",
        ),
        "",
        "Ratios (below 1: queenslab is faster):",
        "",
        *ratio_table(
            data["count"],
            [("bitmask", "C mirror"), ("cpsat", "textbook cpsat"), ("sat", "textbook sat")],
        ),
        "",
        "## Heuristics: time vs n",
        "",
        "![heuristics time vs n](heuristics_time.png)",
        "",
        *series_table(data["heuristics"], "n", lambda n: f"10^{len(str(n)) - 1}"),
        "",
        "## MILP: Pyomo build, solver load, HiGHS solve",
        "",
        "![milp phases](milp_phases.png)",
        "",
        "| n | build | load | solve |",
        "|---:|---:|---:|---:|",
        *(f"| {n} | " + " | ".join(_cell(t) for t in ts) + " |" for n, ts in data["milp"].items()),
        "",
        "## Backtracking: scanning checks vs lookup arrays (first solution, one run)",
        "",
        "| n | nodes | scan | lookup | scan / lookup |",
        "|---:|---:|---:|---:|---:|",
        *(
            f"| {n} | {nodes} | {_cell(scan)} | {_cell(look)} | {scan / look:.3g} |"
            for n, (nodes, scan, look) in data["lookup"].items()
        ),
        "",
    ]
    return "\n".join(lines)


def plots(data: dict, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def plot(series: Series, path: Path, title: str, xlabel: str, loglog: bool = False) -> None:
        fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
        for name, values in series.items():
            sizes = sorted(values)
            style = "--" if name.startswith(("textbook", "C ", "hill")) else "-"
            ax.plot(sizes, [values[k] for k in sizes], style, marker="o", ms=3, label=name)
        ax.set_yscale("log")
        if loglog:
            ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("seconds (log scale)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.savefig(path, bbox_inches="tight")
        plt.close(fig)

    count = data["count"]
    machine_note = f"{data['machine']['cpu']}, {data['machine']['cores']} cores"
    plot(
        {k: v for k, v in count.items() if not k.startswith("textbook")},
        out / "count_time.png",
        f"Counting all solutions ({machine_note})",
        "N",
    )
    plot(
        {k: count[k] for k in ("cpsat", "textbook cpsat", "sat", "textbook sat")},
        out / "models_vs_textbook.png",
        "CP-SAT and SAT counting vs the textbook models",
        "N",
    )
    plot(
        data["heuristics"],
        out / "heuristics_time.png",
        "One solution for huge n",
        "n",
        loglog=True,
    )
    phases = data["milp"]
    plot(
        {
            phase: {n: ts[i] for n, ts in phases.items()}
            for i, phase in enumerate(("Pyomo build", "solver load", "HiGHS solve"))
        },
        out / "milp_phases.png",
        "MILP: where the time goes",
        "n",
        loglog=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (2-3 minutes)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out", metavar="DIR")
    with tempfile.TemporaryDirectory() as scratch:  # --smoke's report goes here, then away
        args = parse_args(parser, {"out": Path(scratch)})
        measure(args, SMOKE if args.smoke else QUICK if args.quick else FULL)


def measure(args: argparse.Namespace, plan: Plan) -> None:
    """Every part of the run by ``plan``; the report, its data and plots in ``args.out``."""
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    data = {
        "machine": machine(),
        "count": counting(plan),
        "heuristics": heuristics(plan),
        "milp": milp_phases(plan),
        "lookup": lookups(plan),
    }
    data["machine"]["run took"] = f"{time.perf_counter() - started:.0f} s"
    (args.out / "results.json").write_text(json.dumps(data, indent=1) + "\n")
    (args.out / "results.md").write_text(report(data, args.quick))
    plots(data, args.out)
    print(f"wrote {args.out / 'results.md'}, results.json and 4 PNG plots")


if __name__ == "__main__":
    main()
