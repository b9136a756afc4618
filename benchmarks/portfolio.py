"""The portfolio against each of its members alone: does racing them pay for its CPU?

For each instance (problem and n) and each backend (every member alone, then the
portfolio of them), ``--repeat`` runs of ``ql.optimize`` with ``--time-limit``: the
median wall and CPU seconds (the CPU of the forked solvers included, start-up not), how
many runs proved the optimum, the value beside the published one, and for the portfolio
who proved it. One Markdown table on stdout, and every run as a JSON line with ``--log``.
Wall seconds on a shared machine measure the load as much as the work: the report prints
the machine and its load average first, and a portfolio of k members runs k solvers on
however many cores there are.

    python benchmarks/portfolio.py
    python benchmarks/portfolio.py --instances domination:12 peaceable:8 --repeat 3 \\
        --members milp cpsat sat maxsat --time-limit 300 --log portfolio.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
from dataclasses import asdict, dataclass

from _process import machine, parse_args

import queenslab as ql
from queenslab.lab import reference
from queenslab.models.portfolio import DEFAULT_MEMBERS

INSTANCES = ("domination:10", "domination:11", "domination:12", "peaceable:7", "peaceable:8")


@dataclass
class Measure:
    problem: str
    n: int
    backend: str
    status: str
    value: int | None
    bound: int | None
    seconds: float
    cpu_seconds: float
    proved_by: str | None


def instance(text: str) -> tuple[str, int]:
    problem, _, n = text.partition(":")
    if not n.isdigit():
        raise argparse.ArgumentTypeError(f"write an instance as problem:n, got {text!r}")
    return problem, int(n)


def measure(problem: str, n: int, backend: str, members: str, limit: float) -> Measure:
    options = {"members": members} if backend == "portfolio" else {}
    result = ql.optimize(n, kind=problem, backend=backend, time_limit=limit, **options)
    return Measure(problem, n, backend, str(result.status), result.objective, result.bound,
               result.seconds, result.cpu_seconds, result.stats.get("proved_by"))  # fmt: skip


def row(runs: list[Measure], published: int | None) -> str:
    first = runs[0]
    proven = sum(run.status == "optimal" for run in runs)
    values = sorted({run.value for run in runs if run.value is not None})
    provers = sorted({run.proved_by for run in runs if run.proved_by})
    return (
        f"| {first.problem} | {first.n} | {published if published is not None else '?'} | "
        f"{first.backend} | {proven}/{len(runs)} | {','.join(map(str, values)) or '-'} | "
        f"{statistics.median(run.seconds for run in runs):.1f} | "
        f"{statistics.median(run.cpu_seconds for run in runs):.1f} | "
        f"{','.join(provers) or '-'} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", nargs="+", type=instance,
                        default=[instance(text) for text in INSTANCES])  # fmt: skip
    parser.add_argument("--members", nargs="+", default=DEFAULT_MEMBERS.split(","))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--log", help="append every run as a JSON line to this file")
    smallest = {"instances": [("domination", 4)], "members": ["cpsat", "sat"], "time_limit": 60}
    args = parse_args(parser, smallest)
    members = ",".join(args.members)
    print(machine())
    print(f"time limit {args.time_limit:g} s per run; portfolio of {members}\n")
    print("| problem | n | published | backend | proven | value | wall s | CPU s | proved by |")
    print("|---|---|---|---|---|---|---|---|---|")
    with open(args.log, "a") if args.log else contextlib.nullcontext() as log:
        for problem, n in args.instances:
            published = reference.optimum(problem, n)
            for backend in (*args.members, "portfolio"):
                runs = [
                    measure(problem, n, backend, members, args.time_limit)
                    for _ in range(args.repeat)
                ]
                if log is not None:
                    log.writelines(json.dumps(asdict(run)) + "\n" for run in runs)
                    log.flush()
                print(row(runs, published), flush=True)


if __name__ == "__main__":
    sys.exit(main())
