"""The literature's frontier of the queens-graph problems: what queenslab proves, and how fast.

Each case is one whole ``queens`` command, as a researcher would run it, under the
case's budget (``--time-limit``; ``--scale`` shrinks every budget for a quick pass); the
report is a Markdown table with the status, the value and bound proven, the published
value beside them (OEIS, for comparison only: nothing reads an answer from it), and the
wall and CPU seconds of the whole process (children included: on a shared machine CPU
seconds compare, wall seconds measure the load too). Every answer is checked by the kind's
own checker inside the command.

The cases are the targets of the frontier issue: colouring proven for n <= 12 and n = 13,
14 attempted; domination n = 15 within 10 minutes and n = 16 within an hour (and the same
decision split over a local Dask cluster of two workers); independent domination n = 15
and 16 within an hour each; peaceable armies n = 11 within 30 minutes, n = 12 split (on
this machine's threads and on a local Dask cluster), n = 13 and 14 optimised and n = 15
decided at the published value + 1 (the literature's frontier), and the model setting
that was the best before the armies search beside it at n = 10; and ``queens optimize 9
--problem peaceable`` and ``queens optimize N --problem coloring`` (n <= 12) with no
options within 60 s each.

    PYTHONPATH=. python benchmarks/frontier.py --only coloring peaceable-default
    PYTHONPATH=. python benchmarks/frontier.py --scale 0.1          # a quick pass
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from _process import ROOT, machine, parse_args, queens_command

from queenslab.core.run import cpu_seconds
from queenslab.lab import reference


@dataclass(frozen=True)
class Case:
    group: str
    problem: str
    n: int
    argv: tuple[str, ...]  # after ``queens``; the budget is added as --time-limit
    budget: float  # seconds
    #: Run on a local Dask cluster of this many one-thread workers (0: none).
    dask_workers: int = 0

    @property
    def label(self) -> str:
        on = f" --scheduler (local Dask, {self.dask_workers} workers)" if self.dask_workers else ""
        return " ".join(self.argv) + on


def _optimize(problem: str, n: int, *options: str) -> tuple[str, ...]:
    return ("optimize", str(n), "--problem", problem, *options, "--format", "json")


def _decide(problem: str, n: int, value: int, *options: str) -> tuple[str, ...]:
    return ("decide", str(n), "--problem", problem, "--value", str(value), *options,
            "--format", "json")  # fmt: skip


HOUR = 3600.0
#: The best setting measured at the frontier for domination (whose line model holds each
#: family of lines beneath the queens), and the best model setting for peaceable armies
#: (n = 10, docs/problems.md): the kind's line model, lex-leader symmetry breaking, from
#: graph-search's answer.
LINES = ("-b", "sat", "--model", "lines", "--symmetry", "lex-leader", "--from-heuristic")
#: Peaceable armies by the colours of the lines (exact.armies), named.
ARMIES = ("-b", "armies")
CASES = [
    *(
        Case(
            "coloring",
            "coloring",
            n,
            _optimize("coloring", n, "--model", "exact-cover", "-b", "sat", "--from-heuristic"),
            60.0,
        )
        for n in range(1, 13)
    ),
    *(
        Case(
            "coloring-beyond",
            "coloring",
            n,
            _optimize("coloring", n, "--model", "exact-cover", "-b", "sat", "--from-heuristic"),
            600.0,
        )
        for n in (13, 14)
    ),
    Case("domination", "domination", 15, _optimize("domination", 15, *LINES), 600.0),
    Case("domination", "domination", 16, _optimize("domination", 16, *LINES), HOUR),
    *(
        Case(
            "domination-split",
            "domination",
            n,
            _decide("domination", n, 8, *LINES[:-1], "--split", "6"),
            HOUR,
            dask_workers=workers,
        )
        for n in (16, 15)
        for workers in (0, 2)
    ),
    *(
        Case(
            "independent-domination",
            "independent-domination",
            n,
            _optimize("independent-domination", n, *LINES),
            HOUR,
        )
        for n in (15, 16)
    ),
    # peaceable armies with no options (the measured default: the armies search)
    *(
        Case("peaceable", "peaceable", n, _optimize("peaceable", n), budget)
        for n, budget in ((11, 1800.0), (12, HOUR), (13, HOUR))
    ),
    *(
        Case(
            "peaceable-split",
            "peaceable",
            12,
            _decide("peaceable", 12, 22, *ARMIES),
            HOUR,
            dask_workers=workers,
        )
        for workers in (0, 2)
    ),
    # the literature's frontier (n <= 15): the optimum at 14, the decision above it at 15
    Case("peaceable-beyond", "peaceable", 14, _optimize("peaceable", 14), 2 * HOUR),
    Case("peaceable-beyond", "peaceable", 15, _decide("peaceable", 15, 33, *ARMIES), 4 * HOUR),
    # the best model setting before the armies search (sat, lines, lex-leader), beside it
    *(
        Case("peaceable-models", "peaceable", 10, argv, 600.0)
        for argv in (_optimize("peaceable", 10, *LINES), _optimize("peaceable", 10, *ARMIES))
    ),
    Case("peaceable-default", "peaceable", 9, _optimize("peaceable", 9), 60.0),
    # colouring with no options (the measured default: the exact cover from the heuristic)
    *(
        Case("coloring-default", "coloring", n, _optimize("coloring", n), 60.0)
        for n in range(1, 13)
    ),
]


def run(case: Case, scale: float) -> dict:
    """One case as a whole process: its JSON record, wall and CPU seconds (a Dask case's
    CPU seconds are the command's and its workers')."""
    budget = max(1.0, case.budget * scale)
    argv = [*queens_command(), *case.argv, "--time-limit", f"{budget:g}"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with _cluster(case.dask_workers) as client:
        if client is not None:
            argv += ["--scheduler", client.scheduler.address]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=budget + 120)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if client is not None:
            cpu += sum(client.run(cpu_seconds).values())
    try:
        record = json.loads(done.stdout.splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        record = {"status": f"error (exit {done.returncode}): {done.stderr.strip()[-120:]}"}
    return {**record, "wall": wall, "cpu": cpu, "budget": budget}


@contextlib.contextmanager
def _cluster(workers: int) -> Iterator[Any]:
    """A client of a local Dask cluster of ``workers`` one-thread processes on 127.0.0.1;
    None when ``workers`` is 0."""
    if not workers:
        yield None
        return
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, host="127.0.0.1",
                           dashboard_address=None, processes=True)  # fmt: skip
    with cluster, Client(cluster) as client:
        yield client


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="GROUP",
        help="groups: " + ", ".join(dict.fromkeys(c.group for c in CASES)),
    )
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every budget")
    parser.add_argument("--log", metavar="FILE", help="every record as a JSON line")
    parser.add_argument("--up-to", type=int, metavar="N", help="only the cases of n <= N")
    args = parse_args(parser, {"only": ["coloring"], "up_to": 2})
    cases = [
        c
        for c in CASES
        if (args.only is None or c.group in args.only) and (args.up_to is None or c.n <= args.up_to)
    ]
    print(machine())
    print(f"budgets x {args.scale:g}\n")
    print("| command | budget s | status | value | bound | published | wall s | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    with open(args.log, "a") if args.log else contextlib.nullcontext() as log:
        for case in cases:
            report(case, args.scale, log)


def report(case: Case, scale: float, log: TextIO | None) -> None:
    """Run ``case`` and print its row (and log its record)."""
    record = run(case, scale)
    published = reference.optimum(case.problem, case.n, "standard")
    value = record.get("objective")
    print(
        f"| queens {case.label} | {record['budget']:g} | {record['status']} | "
        f"{'-' if value is None else value} | {record.get('bound', '-')} | "
        f"{'-' if published is None else published} | {record['wall']:.1f} | "
        f"{record['cpu']:.1f} |",
        flush=True,
    )
    if log is not None:
        log.write(json.dumps({"case": case.label, **record}) + "\n")
        log.flush()


if __name__ == "__main__":
    main()
