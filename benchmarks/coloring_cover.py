"""n-colourings of Q_n by exact cover: the search queenslab had (Algorithm X over every
n-queens solution, ``_algorithm_x.py``), dancing cells over the same cover, and the
folded search over the colourings a symmetry group keeps (Vasquez and Habet 2004), in one
run, on the same machine under the same load. The folded search runs twice: as queenslab
has it (``folded``: under the diagonals' budgets) and as it had it (``folded-cells``: the
same folds by dancing cells, the diagonals of n - 1 cells secondary items and no other
budget), so the ratio between them is what the budgets do.

Each method runs ``--repeats`` times (seeds 0, 1, ...) under a CPU-second limit, in this
process: the table gives the median CPU and wall seconds of the runs that found a cover
(the solutions' enumeration included, which each method does its own way), how many did,
and the ratio of the first method's median CPU seconds (the baseline's) to each method's.
A method that found none within its limit shows the limit as a lower bound (">"). Every
cover found is checked by the colouring kind's own checker; ``--write DIR`` keeps the
folded search's first as ``DIR/coloring-q<n>.json`` (the kind's answer, with the command
and figures that found it).

    python benchmarks/coloring_cover.py --n 10 11 12 13 --limit 600 --repeats 3
    python benchmarks/coloring_cover.py --n 14 15 16 --methods folded --limit 3600 \
        --write docs/data
    python benchmarks/coloring_cover.py --n 15 --methods folded-cells folded --limit 300
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from _algorithm_x import first_cover as algorithm_x
from _process import ROOT, machine, parse_args

from queenslab.boards import board
from queenslab.core.errors import LimitReached
from queenslab.core.problem import Problem
from queenslab.core.run import cpu_seconds
from queenslab.exact import backtracking, dancing_cells
from queenslab.lab import reference
from queenslab.problems import coloring_symmetric
from queenslab.problems.coloring import Coloring, ColourClasses

Cover = list[tuple[int, ...]] | None
Stop = Callable[[], bool]


def _every_solution(n: int) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    solutions = list(backtracking.search(Problem(n)))
    return solutions, [[r * n + c for r, c in enumerate(cols)] for cols in solutions]


def baseline(n: int, seed: int, stop: Stop) -> Cover:
    """Algorithm X with doubling restarts, as queenslab ran it (it takes no seed)."""
    solutions, rows = _every_solution(n)
    chosen = algorithm_x(rows, n * n, stop)
    return None if chosen is None else [solutions[i] for i in chosen]


def dancing(n: int, seed: int, stop: Stop) -> Cover:
    """Dancing cells with Luby restarts over every solution."""
    solutions, rows = _every_solution(n)
    chosen, _ = dancing_cells.first_cover(rows, n * n, seed, stop)
    return None if chosen is None else [solutions[i] for i in chosen]


def folded(n: int, seed: int, stop: Stop) -> Cover:
    """The colourings a symmetry group keeps (``coloring_symmetric``)."""
    return coloring_symmetric.search(n, seed, stop)


def cells_only(fold: coloring_symmetric.Folded) -> dancing_cells.Search:
    """A fold as dancing cells searched it: each diagonal of n - 1 cells a secondary item
    of the options with a class that misses it (at most one may), no other budget."""
    starts, items = fold.options
    lines = np.flatnonzero(fold.budget == 1)
    option, line = np.nonzero(fold.spend[:, lines] > 0)
    owner = np.concatenate([np.repeat(np.arange(len(starts) - 1), np.diff(starts)), option])
    order = np.argsort(owner, kind="stable")  # each option's cells, then its secondary items
    table = np.concatenate([items, fold.items + line])[order].astype(np.int32)
    bounds = np.zeros(len(starts), dtype=np.int64)
    bounds[1:] = np.cumsum(np.bincount(owner, minlength=len(starts) - 1))
    return dancing_cells.Search((bounds, table), fold.items + len(lines), primary=fold.items)


def folded_cells(n: int, seed: int, stop: Stop) -> Cover:
    """The folded search without the budgets (``cells_only``)."""
    return coloring_symmetric.search(n, seed, stop, engine=cells_only)


METHODS = {
    "algorithm-x": baseline,
    "dancing-cells": dancing,
    "folded-cells": folded_cells,
    "folded": folded,
}


def measured(method: Callable[[int, int, Stop], Cover], n: int, seed: int, limit: float):
    """The cover (None: none found or proven absent), whether the limit stopped it, and
    its CPU and wall seconds."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    try:
        found, stopped = method(n, seed, lambda: cpu_seconds() - cpu > limit), False
    except LimitReached:
        found, stopped = None, True
    return found, stopped, cpu_seconds() - cpu, time.perf_counter() - wall


def checked(n: int, found: list[tuple[int, ...]]) -> ColourClasses:
    answer = ColourClasses(tuple(frozenset(enumerate(cols)) for cols in found))
    why = Coloring().check(board(n), answer)
    if why is not None or len(found) != n:
        sys.exit(f"n = {n}: the cover is no {n}-colouring: {why}")
    return answer


def write(folder: Path, n: int, answer: ColourClasses, figures: str, seed: int) -> None:
    record = {
        "problem": "coloring", "n": n, "colours": n,
        "found_by": f"python benchmarks/coloring_cover.py --n {n} --methods folded "
                    f"--seed {seed} --repeats 1 --write {_shown(folder)}",
        "figures": figures, "answer": Coloring().to_json(answer),
    }  # fmt: skip
    (folder / f"coloring-q{n}.json").write_text(json.dumps(record) + "\n")


def speedup(base: float | None, cpu: float | None, limit: float) -> str:
    """The baseline's median CPU seconds over a method's; a lower bound (its limit over
    them) when the baseline settled nothing within the limit."""
    if cpu is None or cpu <= 0:
        return "-"
    return f"{base / cpu:.1f}" if base is not None else f"> {limit / cpu:.0f}"


def _shown(folder: Path) -> str:
    """The folder as the command would name it from the repository's root, where it is
    inside it."""
    try:
        return str(folder.resolve().relative_to(ROOT))
    except ValueError:
        return str(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10, 11, 12, 13])
    parser.add_argument("--methods", nargs="+", choices=list(METHODS), default=list(METHODS))
    parser.add_argument("--limit", type=float, default=600.0, help="CPU seconds per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per method (seeds)")
    parser.add_argument("--seed", type=int, default=0, help="the first run's seed")
    parser.add_argument("--write", type=Path, help="a folder for the folded search's colourings")
    args = parse_args(parser, {"n": [6], "repeats": 1, "limit": 60.0})
    for method in METHODS.values():  # compiled before any run is timed
        measured(method, 4, 0, args.limit)
    print(machine())
    print()
    print("| n | method | found | median CPU s | median wall s | CPU ratio | published |")
    print("|---|---|---|---|---|---|---|")
    for n in args.n:
        base = None
        for name in args.methods:
            cpus, walls, found_by = [], [], 0
            for seed in range(args.seed, args.seed + args.repeats):
                found, stopped, cpu, wall = measured(METHODS[name], n, seed, args.limit)
                if found is not None:
                    answer = checked(n, found)
                    found_by += 1
                    cpus.append(cpu)
                    walls.append(wall)
                    if args.write and name == "folded" and found_by == 1:  # the first
                        write(args.write, n, answer, f"{cpu:.1f} CPU s, {wall:.1f} s wall", seed)
                elif not stopped:
                    cpus.append(cpu)  # proven: no cover (or none the group keeps)
                    walls.append(wall)
            cpu = statistics.median(cpus) if cpus else None
            base = cpu if name == args.methods[0] else base
            ratio = speedup(base, cpu, args.limit)
            shown = f"{cpu:.1f}" if cpu is not None else f"> {args.limit:g}"
            wall = f"{statistics.median(walls):.1f}" if walls else "-"
            print(f"| {n} | {name} | {found_by}/{args.repeats} | {shown} | {wall} | {ratio} "
                  f"| {reference.optimum('coloring', n)} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
