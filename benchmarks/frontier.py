"""The literature's frontier of the queens-graph problems: what queenslab proves, and how fast.

The table is a registry of rows (``ROWS``), one line each: a group, the board size and a
row function, which takes the budgets' scale and returns the row it measured. Two kinds of
row function cover the frontier:

- ``command``: one whole ``queens`` command, as a researcher would run it, under the row's
  budget (``--time-limit``), optionally on a local Dask cluster; its status, value and
  bound proven;
- ``ledger``: a split proof too long for one run, resumed from its checkpoint (the proof's
  ledger: every refuted piece is a row) for the row's budget; the fraction refuted before
  and after, the rate in pieces per CPU hour and the CPU hours the rest would take at it.

Another row (a new search's figure) is a function of the same signature and one more line
in ``ROWS``. Every row prints the published value and its source beside it (OEIS and the
papers that proved it, for comparison only: nothing reads an answer from them), and the
wall and CPU seconds of the whole process (children and Dask workers included: on a shared
machine CPU seconds compare, wall seconds measure the load too). Every answer is checked
by the kind's own checker inside the command.

    PYTHONPATH=. python benchmarks/frontier.py --only coloring peaceable-default
    PYTHONPATH=. python benchmarks/frontier.py --scale 0.1          # a quick pass
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from _process import ROOT, machine, parse_args, queens_command

from queenslab.core.run import cpu_seconds
from queenslab.lab import reference

#: Where each problem's published values come from (the OEIS entry and who proved them).
SOURCES = {
    "coloring": "A088202; Vasquez 2004, 2006",
    "domination": "A075458; Bird 2017, Rostami and Bright 2025",
    "independent-domination": "A075324; Bozóki, Gál, Marosi and Weakley 2016",
    "peaceable": "A250000",
}


@dataclass(frozen=True)
class Row:
    """One line of the table: what ran, what it proved, the published value beside it."""

    what: str
    budget: float
    status: str
    value: Any
    bound: Any
    published: str
    wall: float
    cpu: float
    record: dict[str, Any]


#: A row function: the budgets' scale -> the row it measured.
RowFunction = Callable[[float], Row]


@dataclass(frozen=True)
class Entry:
    group: str
    n: int
    row: RowFunction


def published(problem: str, n: int, value: int | None = None, source: str = "") -> str:
    """The published value of ``problem`` at ``n`` with its source: the project's OEIS
    table, else ``value`` from ``source`` (a paper past the table's end); "-" if none."""
    known = reference.optimum(problem, n, "standard")
    if known is not None:
        return f"{known} ({SOURCES[problem]})"
    return "-" if value is None else f"{value} ({source})"


def command(
    problem: str, n: int, argv: tuple[str, ...], budget: float, dask_workers: int = 0,
    cited: tuple[int, str] | None = None,
) -> RowFunction:  # fmt: skip
    """The row of one whole ``queens`` command (``argv`` after ``queens``, the budget added
    as --time-limit), on a local Dask cluster of ``dask_workers`` one-thread workers if
    any; ``cited``: a published value past the project's table and its source."""
    on = f" --scheduler (local Dask, {dask_workers} workers)" if dask_workers else ""

    def row(scale: float) -> Row:
        limit = max(1.0, budget * scale)
        record, wall, cpu = _run(argv, limit, dask_workers)
        return Row(
            "queens " + " ".join(argv) + on, limit, record["status"], record.get("objective"),
            record.get("bound", "-"), published(problem, n, *(cited or ())), wall, cpu, record,
        )  # fmt: skip

    return row


#: How far a ledger has come: (pieces refuted, pieces in all) of a checkpoint file.
Refuted = Callable[[Path], tuple[int, int]]


def ledger(
    problem: str,
    n: int,
    argv: tuple[str, ...],
    path: str,
    budget: float,
    refuted: Refuted | None = None,
) -> RowFunction:
    """The row of a split proof resumed from its checkpoint ``path`` (relative to the
    checkout) for the row's budget: ``argv`` with ``--checkpoint path`` added; its status
    says the pieces refuted before and after (``refuted``: a split decide's cubes unless
    told), the rate per CPU hour and what is left."""
    count = cubes_refuted if refuted is None else refuted

    def row(scale: float) -> Row:
        file = ROOT / path
        before, total = count(file)
        limit = max(1.0, budget * scale)
        record, wall, cpu = _run((*argv, "--checkpoint", str(file)), limit, 0)
        after, total = count(file)
        status = f"{record['status']}: {after} of {total} pieces refuted ({before} before)"
        if after < total and after > before:
            rate = (after - before) / cpu * 3600
            status += (
                f", {rate:.3g} per CPU hour: the rest {(total - after) / rate:.3g} CPU h at it"
            )
        return Row(
            "queens " + " ".join((*argv, "--checkpoint", path)), limit, status,
            record.get("objective"), record.get("bound", "-"),
            published(problem, n), wall, cpu, record,
        )  # fmt: skip

    return row


def cubes_refuted(file: Path) -> tuple[int, int]:
    """(cubes refuted, cubes in all) of a split decide's checkpoint; (0, 0) before it
    exists."""
    if not file.exists():
        return 0, 0
    with contextlib.closing(sqlite3.connect(f"file:{file}?mode=ro", uri=True)) as db:
        (done,) = db.execute("SELECT count(*) FROM done").fetchone()
        (size,) = db.execute("SELECT value FROM meta WHERE key = 'subproblems'").fetchone()
    return int(done), int(size)


def _run(argv: tuple[str, ...], limit: float, dask_workers: int) -> tuple[dict, float, float]:
    """One command as a whole process: its JSON record, wall and CPU seconds (a Dask
    case's CPU seconds are the command's and its workers')."""
    full = [*queens_command(), *argv, "--time-limit", f"{limit:g}"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with _cluster(dask_workers) as client:
        if client is not None:
            full += ["--scheduler", client.scheduler.address]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(full, capture_output=True, text=True, env=env, timeout=limit + 120)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if client is not None:
            cpu += sum(client.run(cpu_seconds).values())
    try:
        record = json.loads(done.stdout.splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        record = {"status": f"error (exit {done.returncode}): {done.stderr.strip()[-120:]}"}
    return record, wall, cpu


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
#: The exact cover from the heuristic's colouring, the colouring recipe.
COVER = ("--model", "exact-cover", "-b", "sat", "--from-heuristic")
#: i(Q_15), i(Q_16) past the project's table of A075324, and who computed them.
GIBBONS_WEBB = "Gibbons and Webb 1997"
#: The ledger of the domination n = 20 split at 10 queens (gamma = 11), committed.
DOMINATION_20 = "docs/data/domination-20-at-10.sqlite"
#: The ledgers of the armies proofs at n = 16 (value 38) and n = 15 (value 33), committed.
PEACEABLE_16 = "docs/data/peaceable-n16-at-38.sqlite"
PEACEABLE_15 = "docs/data/peaceable-n15-at-33.sqlite"


def optimized(group: str, problem: str, n: int, budget: float, *options: str, **kw: Any) -> Entry:
    """The row of ``queens optimize N --problem P OPTIONS`` (``command``'s keywords)."""
    return Entry(group, n, command(problem, n, _optimize(problem, n, *options), budget, **kw))


def decided(
    group: str, problem: str, n: int, value: int, budget: float, *options: str, **kw: Any
) -> Entry:
    """The row of ``queens decide N --problem P --value K OPTIONS``."""
    return Entry(group, n, command(problem, n, _decide(problem, n, value, *options), budget, **kw))


def resumed(
    group: str,
    problem: str,
    n: int,
    value: int,
    budget: float,
    path: str,
    *options: str,
    refuted: Refuted | None = None,
) -> Entry:
    """The row of a split ``queens decide`` resumed from its ledger ``path``."""
    argv = _decide(problem, n, value, *options)
    return Entry(group, n, ledger(problem, n, argv, path, budget, refuted))


def armies_refuted(n: int, value: int) -> Refuted:
    """An armies ledger's row colourings refuted at ``value`` (those the rectangle bound
    refutes at once included, which the file holds no row for)."""

    def refuted(file: Path) -> tuple[int, int]:
        from queenslab.core.problem import Problem
        from queenslab.exact.armies_ledger import progress

        if not file.exists():
            return 0, 0
        found = progress(str(file), Problem(n, kind="peaceable"), value)
        return found.refuted, found.total

    return refuted


#: The split of the domination decisions: the frontier setting without the warm start.
SPLIT = LINES[:-1]
IDOM = "independent-domination"
#: Its own search, the first queen's orbits on two threads.
SEARCH = ("-b", "independent-search", "--workers", "2")
#: i(Q_n) past the project's table of A075324, and who computed it.
I_Q15 = (9, GIBBONS_WEBB)
ROWS: list[Entry] = [
    *(optimized("coloring", "coloring", n, 60, *COVER) for n in range(1, 13)),
    *(optimized("coloring-beyond", "coloring", n, 600, *COVER) for n in (13, 14)),
    optimized("domination", "domination", 15, 600, *LINES),
    optimized("domination", "domination", 16, HOUR, *LINES),
    *(
        decided(
            "domination-split", "domination", n, 8, HOUR, *SPLIT, "--split", "6", dask_workers=w
        )
        for n in (16, 15)
        for w in (0, 2)
    ),
    resumed("domination-20", "domination", 20, 10, HOUR / 2, DOMINATION_20, *SPLIT, "--split", "8"),
    # independent domination: its own search (after), the sat recipe (before), then n = 17
    *(
        optimized("independent-domination", IDOM, n, HOUR, *SEARCH, cited=I_Q15 if n > 14 else None)
        for n in range(13, 17)
    ),
    *(
        optimized("independent-domination", IDOM, n, 600, *LINES, cited=I_Q15 if n > 14 else None)
        for n in range(13, 16)
    ),
    optimized("independent-domination", IDOM, 17, HOUR, *SEARCH),
    # peaceable armies with no options (the measured default: the armies search)
    optimized("peaceable", "peaceable", 11, 1800),
    optimized("peaceable", "peaceable", 12, HOUR),
    optimized("peaceable", "peaceable", 13, HOUR),
    *(
        decided("peaceable-split", "peaceable", 12, 22, HOUR, *ARMIES, dask_workers=w)
        for w in (0, 2)
    ),
    # the literature's frontier (n <= 15): the optimum at 14, the decision above it at 15
    optimized("peaceable-beyond", "peaceable", 14, 2 * HOUR),
    decided("peaceable-beyond", "peaceable", 15, 33, HOUR, *ARMIES, "--workers", "2"),
    # the best model setting before the armies search (sat, lines, lex-leader), beside it
    optimized("peaceable-models", "peaceable", 10, 600, *LINES),
    optimized("peaceable-models", "peaceable", 10, 600, *ARMIES),
    optimized("peaceable-default", "peaceable", 9, 60),
    # past the literature: a(16) = 37, armies of 37 found and the proof at 38 whole in its
    # ledger (a resumed row reads it); a(15) at 33 resumed
    decided("peaceable-16", "peaceable", 16, 37, 600, *ARMIES),
    resumed(
        "peaceable-16",
        "peaceable",
        16,
        38,
        HOUR,
        PEACEABLE_16,
        *ARMIES,
        refuted=armies_refuted(16, 38),
    ),
    resumed(
        "peaceable-15",
        "peaceable",
        15,
        33,
        900,
        PEACEABLE_15,
        *ARMIES,
        refuted=armies_refuted(15, 33),
    ),
    # colouring with no options (the measured default: the exact cover from the heuristic)
    *(optimized("coloring-default", "coloring", n, 60) for n in range(1, 13)),
    # past the project's reach before: the folded cover search, the default at n <= 16
    # (the target: each within an hour)
    *(optimized("coloring-default", "coloring", n, HOUR) for n in (14, 15, 16)),
]


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
        help="groups: " + ", ".join(dict.fromkeys(e.group for e in ROWS)),
    )
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every budget")
    parser.add_argument("--log", metavar="FILE", help="every record as a JSON line")
    parser.add_argument("--up-to", type=int, metavar="N", help="only the rows of n <= N")
    args = parse_args(parser, {"only": ["coloring"], "up_to": 2})
    entries = [
        e
        for e in ROWS
        if (args.only is None or e.group in args.only) and (args.up_to is None or e.n <= args.up_to)
    ]
    print(machine())
    print(f"budgets x {args.scale:g}\n")
    print("| command | budget s | status | value | bound | published (source) | wall s | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    with open(args.log, "a") if args.log else contextlib.nullcontext() as log:
        for entry in entries:
            report(entry.row(args.scale), log)


def report(row: Row, log: TextIO | None) -> None:
    """Print ``row`` (and log its record)."""
    value = "-" if row.value is None else row.value
    print(
        f"| {row.what} | {row.budget:g} | {row.status} | {value} | {row.bound} | "
        f"{row.published} | {row.wall:.1f} | {row.cpu:.1f} |",
        flush=True,
    )
    if log is not None:
        log.write(json.dumps({"case": row.what, **row.record, "wall": row.wall, "cpu": row.cpu})
                  + "\n")  # fmt: skip
        log.flush()


if __name__ == "__main__":
    main()
