"""The problem kinds side by side: each model of each problem on each paradigm.

Three reports, each a Markdown table on stdout (and every run as a JSON line with
``--log``):

- ``compare``: every model (and ``--symmetry`` choice) of each problem on each backend for
  the given n, the median seconds of ``--repeat`` runs, the value and the status;
- ``reach``: per problem and backend (the problem's default model unless ``--model``), n
  from ``--start`` up while the optimum is proven within ``--budget`` seconds: the
  largest n proven;
- ``targets``: the issue's peaceable targets, n = 9 within 60 s and n = 10 within 15
  minutes, by each model on each backend;
- ``heuristic``: the ``graph-search`` backend's value per problem and n (median seconds
  of ``--repeat`` seeds, the worst value among them) beside the published optimum, which
  serves only as the yardstick.

Each run builds the kind's model and solves it with the backend's 0-1 translator
(``queenslab.models.zero_one``) and the backend's default settings (cpsat: 2 workers),
then checks the answer with the kind's checker; the seconds cover building, solving and
the translator's forked child, not the command's start-up; CPU seconds are this process's
(every solver thread) and its waited-for children's, which compare better than wall
seconds on a shared machine. A run that ends by its limit counts as not proven. Figures
pair only on one machine under one load: the report prints the machine and its load
average first. ``--bounds off`` leaves out the proven lower bounds the kinds state
(``problems.domination.lower_bound``), to measure what they bring.

    python benchmarks/problems.py compare --problems peaceable coloring --n 6 8 \\
        --backends cpsat milp sat maxsat --symmetry none lex-leader --repeat 3
    python benchmarks/problems.py reach --problems peaceable --backends cpsat --budget 600
    python benchmarks/problems.py targets --backends cpsat sat --set encoding=totalizer
    python benchmarks/problems.py compare --problems domination --n 10 11 --symmetry none \
        --backends sat cpsat milp --bounds off
    python benchmarks/problems.py heuristic --problems domination peaceable coloring \
        --n 12 16 20 24 --repeat 3 --time-limit 60
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from _process import machine, parse_args

import queenslab as ql
from queenslab import registry
from queenslab.boards import board
from queenslab.core.errors import QueensError
from queenslab.core.run import Run
from queenslab.lab import reference
from queenslab.problems import BUILTIN, domination, kind

BACKENDS = ("cpsat", "milp", "maxsat", "sat")


@dataclass
class Measure:
    problem: str
    model: str
    symmetry: str
    backend: str
    n: int
    status: str
    value: int | None
    seconds: float
    repeats: int
    #: Median CPU seconds of the same runs (``heuristic``: not measured, 0).
    cpu: float = 0.0
    #: ``heuristic`` only: the published optimum (the yardstick), None where unpublished.
    published: int | None = None

    @property
    def proven(self) -> bool:
        return self.status == "optimal"


#: Backend options set on the command line (``--set encoding=totalizer``), for every
#: backend that declares them.
OVERRIDES: dict[str, str] = {}


def settings_of(backend: str) -> dict[str, Any]:
    """The backend's settings: its defaults, with the overrides it declares."""
    cls = registry.backend_class(backend)
    declared = {option.name for option in cls.options}
    return cls(**{k: v for k, v in OVERRIDES.items() if k in declared}).settings


def cpu_seconds() -> float:
    """CPU seconds so far of this process (all its threads) and its waited-for children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_once(
    problem: str, model: str, symmetry: str, backend: str, n: int, limit: float
) -> tuple[str, int | None, float, float]:
    """(status, value, seconds, CPU seconds) of one solve; a refused combination reads
    'refused: why'."""
    translator = importlib.import_module(f"queenslab.models.zero_one.{backend}")
    settings = settings_of(backend)
    question, field = kind(problem), board(n)
    start, cpu = time.perf_counter(), cpu_seconds()
    try:
        built = question.build(field, model, symmetry)
        outcome = translator.optimize(built, Run(time_limit=limit), settings)
    except QueensError as exc:
        return f"refused: {exc}", None, 0.0, 0.0
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    if outcome.values is not None:
        fault = question.check(field, question.decode(field, built, outcome.values))
        if fault is not None:
            raise AssertionError(f"{problem} {model} {backend} n={n}: {fault}")
    return str(outcome.status), outcome.objective, seconds, cpu


def measure(
    problem: str, model: str, symmetry: str, backend: str, n: int, limit: float, repeat: int
) -> Measure:
    """The median seconds of ``repeat`` runs (one run when the first is refused or stops at
    its limit: repeating a limit measures the limit)."""
    runs = [run_once(problem, model, symmetry, backend, n, limit)]
    while len(runs) < repeat and runs[0][0] == "optimal":
        runs.append(run_once(problem, model, symmetry, backend, n, limit))
    status, value, _, _ = runs[0]
    seconds = statistics.median(run[2] for run in runs)
    cpu = statistics.median(run[3] for run in runs)
    return Measure(problem, model, symmetry, backend, n, status, value, seconds, len(runs), cpu)


def compare(args: argparse.Namespace) -> Iterator[Measure]:
    for problem in args.problems:
        for model in args.model or list(BUILTIN[problem].models):
            for symmetry in args.symmetry:
                for backend in args.backends:
                    for n in args.n or [6, 8]:
                        yield measure(
                            problem, model, symmetry, backend, n, args.time_limit, args.repeat
                        )


def reach(args: argparse.Namespace) -> Iterator[Measure]:
    """n = 1, 2, ... until a run is not proven within the budget; the last proven one is
    the figure (each run is given the whole budget)."""
    for problem in args.problems:
        model = (args.model or [next(iter(BUILTIN[problem].models))])[0]
        for backend in args.backends:
            for n in range(args.start, args.stop + 1):
                found = measure(problem, model, args.symmetry[0], backend, n, args.budget, 1)
                yield found
                if not found.proven:
                    break


#: The issue's peaceable targets: n -> seconds within which the optimum must be proven
#: (another n: ``--time-limit``).
TARGETS = {9: 60.0, 10: 900.0}


def targets(args: argparse.Namespace) -> Iterator[Measure]:
    for n in args.n or list(TARGETS):
        limit = TARGETS.get(n, args.time_limit)
        for model in args.model or list(BUILTIN["peaceable"].models):
            for backend in args.backends:
                yield measure("peaceable", model, args.symmetry[0], backend, n, limit, 1)


def heuristic(args: argparse.Namespace) -> Iterator[Measure]:
    """graph-search, seeds 1..repeat: the worst value and the median seconds."""
    for problem in args.problems:
        worst = max if BUILTIN[problem].sense.value == "min" else min
        for n in args.n or [12, 16, 20]:
            runs = []
            for seed in range(1, args.repeat + 1):
                start = time.perf_counter()
                result = ql.optimize(n, kind=problem, backend="graph-search", seed=seed,
                                     time_limit=args.time_limit)  # fmt: skip
                runs.append((str(result.status), result.objective, time.perf_counter() - start))
            value = worst(v for _, v, _ in runs if v is not None)
            seconds = statistics.median(s for _, _, s in runs)
            yield Measure(problem, "-", "-", "graph-search", n, runs[0][0], value, seconds,
                          len(runs), published=reference.optimum(problem, n))  # fmt: skip


def table(rows: list[Measure]) -> str:
    head = "| problem | model | symmetry | backend | n | status | value | seconds | CPU s | runs |"
    lines = [head, "|---|---|---|---|---:|---|---:|---:|---:|---:|"]
    for m in rows:
        value = "" if m.value is None else str(m.value)
        status = m.status if len(m.status) < 40 else m.status[:37] + "..."
        lines.append(
            f"| {m.problem} | {m.model} | {m.symmetry} | {m.backend} | {m.n} | {status} "
            f"| {value} | {m.seconds:.2f} | {m.cpu:.2f} | {m.repeats} |"
        )
    return "\n".join(lines)


def yardstick(rows: list[Measure]) -> str:
    """For ``heuristic``: each value beside the published optimum."""
    lines = ["| problem | n | graph-search (worst of runs) | published | seconds | runs |",
             "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for m in rows:
        published = "?" if m.published is None else str(m.published)
        lines.append(f"| {m.problem} | {m.n} | {m.value} | {published} | {m.seconds:.2f} "
                     f"| {m.repeats} |")  # fmt: skip
    return "\n".join(lines)


def summary(rows: list[Measure]) -> str:
    """For ``reach``: the largest n proven per problem and backend."""
    best: dict[tuple[str, str, str], int] = {}
    for m in rows:
        key = (m.problem, m.model, m.backend)
        best.setdefault(key, 0)
        if m.proven:
            best[key] = max(best[key], m.n)
    lines = ["| problem | model | backend | largest n proven |", "|---|---|---|---:|"]
    lines += [f"| {p} | {mo} | {b} | {n or '-'} |" for (p, mo, b), n in best.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    reports = {"compare": compare, "reach": reach, "targets": targets, "heuristic": heuristic}
    parser.add_argument("report", nargs="?", choices=reports, help="--smoke: each in turn")
    parser.add_argument("--problems", nargs="+", default=["peaceable", "coloring"])
    parser.add_argument("--model", nargs="+", help="default: every model (reach: the default)")
    parser.add_argument("--symmetry", nargs="+", default=["lex-leader"])
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument(
        "--n", type=int, nargs="+", help="compare: default 6 8; targets: 9 and/or 10"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--budget", type=float, default=600.0, help="reach: seconds per n")
    parser.add_argument("--start", type=int, default=1, help="reach: first n")
    parser.add_argument("--stop", type=int, default=30, help="reach: last n tried")
    parser.add_argument(
        "--set",
        nargs="+",
        default=[],
        metavar="OPTION=VALUE",
        help="backend options, e.g. encoding=totalizer (for the backends that declare them)",
    )
    parser.add_argument(
        "--bounds",
        choices=("on", "off"),
        default="on",
        help="off: leave out the proven lower bounds the kinds state (to measure them)",
    )
    parser.add_argument("--log", help="append every measure here as a JSON line")
    smallest = {"problems": ["domination"], "backends": ["sat"], "n": [3], "repeat": 1,
                "time_limit": 60.0, "budget": 60.0, "stop": 2}  # fmt: skip
    args = parse_args(parser, smallest, argv)
    if args.report is None and not args.smoke:
        parser.error("name a report: compare, reach, targets or heuristic")
    OVERRIDES.update(item.split("=", 1) for item in args.set)
    if args.bounds == "off":  # the kinds' models read the bound through this name
        domination.lower_bound = lambda field: 0

    options = " ".join([*args.set, f"bounds={args.bounds}"])
    print(f"machine: {machine()}; options: {options}\n", flush=True)
    for report in [args.report] if args.report else list(reports):
        print_report(report, reports[report](args), args)


def print_report(report: str, measures: Iterator[Measure], args: argparse.Namespace) -> None:
    rows: list[Measure] = []
    for m in measures:
        rows.append(m)
        print(f"  {m.problem} {m.model} {m.symmetry} {m.backend} n={m.n}: {m.status} "
              f"{m.value} in {m.seconds:.2f} s ({m.cpu:.2f} CPU s)", file=sys.stderr,
              flush=True)  # fmt: skip
        if args.log:
            with open(args.log, "a") as log:
                log.write(json.dumps(_record(m, args.bounds)) + "\n")
    print(yardstick(rows) if report == "heuristic" else table(rows))
    if report == "reach":
        print()
        print(summary(rows))


def _record(m: Measure, bounds: str) -> dict[str, Any]:
    return {**asdict(m), "options": OVERRIDES, "bounds": bounds, "machine": machine()}


if __name__ == "__main__":
    main()
