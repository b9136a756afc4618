"""Colouring the queens graph as a user runs it: with no options (the measured default),
the exact-cover model started from the heuristic's colouring (the frontier recipe) and the
best of the other models, as a Markdown table on stdout.

Each row is one whole command (``queens optimize N --problem coloring ...``, start-up,
the heuristic's run and the model's building included) under one time limit; the table
gives its status and value, its wall seconds and the CPU seconds of the process and its
children (the forked solver included), and the published chromatic number (OEIS
A088202, read here only to print it beside the value). The baseline is ``precedence`` on
the SAT backend, the fastest of the other models at n <= 9 in
``benchmarks/problems.py compare``. Figures pair only on one machine under one load: the
machine and its load average come first; the last lines sum each setting over every n.

    python benchmarks/coloring_exact_cover.py --n 1 2 3 4 5 6 7 8 9 10 11 12 13 14 \
        --time-limit 600
    python benchmarks/coloring_exact_cover.py --runs "no options" --time-limit 600
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import time

from _process import machine, parse_args, queens_command

from queenslab.lab import reference

#: (label, arguments after ``optimize N --problem coloring``)
RUNS = (
    ("precedence", ["-b", "sat", "--model", "precedence"]),
    ("exact-cover + heuristic", ["-b", "sat", "--model", "exact-cover", "--from-heuristic"]),
    ("no options", []),
)


def run(n: int, arguments: list[str], time_limit: float) -> tuple[dict, float, float]:
    """The command's JSON result, its wall seconds and its CPU seconds (with children)."""
    argv = [*queens_command(), "optimize", str(n), "--problem", "coloring", *arguments,
            "--time-limit", str(time_limit), "--format", "json"]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    result = json.loads(lines[-1]) if lines else {"status": f"exit {done.returncode}"}
    return result, wall, cpu


def chosen(label: str, result: dict) -> str:
    """The run's label; with no options, what the defaults chose (backend, model, start)."""
    stats = result.get("stats", {})
    if label != "no options" or "model" not in stats:
        return label
    return f"{label}: {result['backend']}, {stats['model']}, start {stats.get('start', '-')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=list(range(1, 13)))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    labels = [label for label, _ in RUNS]
    parser.add_argument("--runs", nargs="+", choices=labels, default=labels, metavar="RUN",
                        help=f"which settings: {', '.join(labels)} (default: all)")  # fmt: skip
    args = parse_args(parser, {"n": [1], "time_limit": 30.0})
    print(machine())
    print()
    print("| n | model | status | colours | published | wall s | CPU s |")
    print("|---|---|---|---|---|---|---|")
    totals = {label: [0.0, 0.0] for label in args.runs}
    for n in args.n:
        for label, arguments in RUNS:
            if label not in args.runs:
                continue
            result, wall, cpu = run(n, arguments, args.time_limit)
            totals[label][0] += wall
            totals[label][1] += cpu
            value = result.get("objective")
            shown = "-" if value is None else value
            published = reference.optimum("coloring", n)
            print(f"| {n} | {chosen(label, result)} | {result['status']} | {shown} | {published} "
                  f"| {wall:.1f} | {cpu:.1f} |", flush=True)  # fmt: skip
    print()
    for label, (wall, cpu) in totals.items():
        print(f"{label}, all n: {wall:.1f} s wall, {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
