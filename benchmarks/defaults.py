"""The defaults measured: per problem kind, the backend, model and symmetry setting that
prove the optimum in the fewest CPU seconds, written as ``queenslab/problems/measured.py``.

For each kind, backend, model and ``--symmetry`` choice, ``ql.optimize`` at each of the
kind's n (``--n kind:n,n``), smallest first, with a wall-clock ``--budget`` per run; the
first n not proven within it ends that setting's climb (a larger board would fail too). A
backend with a search of its own for the kind (``armies`` for peaceable armies) is one
setting, with no model and no symmetry (None in the table).
CPU seconds (this process, its threads and its forked solvers) rank the proven runs, as
they compare on a shared machine; a portfolio pays for all of its members.

What the table keeps, per kind: for each n measured, the fastest (backend, model, symmetry)
and each backend's fastest (model, symmetry), as n ranges (a range runs up to the next n
measured; the last to any n); and each backend's reach, the largest n it proved within the
budget. Every run is a line on stderr and, with ``--log``, a JSON line.

    python benchmarks/defaults.py                      # the bounded run, about 20 minutes
    python benchmarks/defaults.py --write              # and write the table module
    python benchmarks/defaults.py --n domination:9,11,13 --write   # one kind again

A run that measures some kinds keeps the others' rows from the table it replaces, each
kind with the run that measured it (``SOURCES``); their budgets must agree.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from _process import ROOT, machine

import queenslab as ql
from queenslab import registry
from queenslab.core.backend import Task
from queenslab.core.errors import QueensError
from queenslab.core.problem import MAX_N
from queenslab.problems import BUILTIN, measured

BACKENDS = ("cpsat", "milp", "maxsat", "sat", "portfolio", "armies")
#: A few n near each kind's reach on 2 cores with a budget of seconds (docs/problems.md).
SIZES = {
    "domination": (9, 11, 13),
    "independent-domination": (9, 11, 13),
    "peaceable": (6, 7, 9, 10),
    "coloring": (7, 8),
}
TABLE = ROOT / "queenslab" / "problems" / "measured.py"


@dataclass(frozen=True)
class Measure:
    problem: str
    backend: str
    model: str | None  # None: the backend's own search
    symmetry: str | None
    n: int
    status: str
    seconds: float
    cpu: float

    @property
    def proven(self) -> bool:
        return self.status == "optimal"


def measure(
    problem: str, backend: str, model: str | None, symmetry: str | None, n: int, budget: float
) -> Measure:
    """One run; a setting the backend refuses reads 'refused'."""
    try:
        result = ql.optimize(n, problem=problem, backend=backend, model=model,
                             symmetry=symmetry or "none", time_limit=budget)  # fmt: skip
    except QueensError:
        return Measure(problem, backend, model, symmetry, n, "refused", 0.0, 0.0)
    return Measure(problem, backend, model, symmetry, n, str(result.status), result.seconds,
                   result.cpu_seconds)  # fmt: skip


def climb(args: argparse.Namespace) -> Iterator[Measure]:
    """Every setting up its kind's n while proven within the budget."""
    for problem, sizes in args.n.items():
        for backend in args.backends:
            cls = registry.backend_class(backend)
            if not cls.takes(problem):
                continue
            own = cls.searches_itself(Task.OPTIMIZE, problem)
            for model in [None] if own else BUILTIN[problem].models:
                for symmetry in [None] if own else args.symmetry:
                    for n in sizes:
                        found = measure(problem, backend, model, symmetry, n, args.budget)
                        yield found
                        if not found.proven:
                            break


Setting = tuple[str, ...]  # (backend, model, symmetry) or (model, symmetry)


def ranges(best: dict[int, Setting]) -> list[tuple[int, int, *Setting]]:
    """n -> setting as ranges: each from its n (the first from 1) up to the next n
    measured (the last to MAX_N), neighbours with the same setting merged."""
    rows: list[list] = []
    sizes = sorted(best)
    for i, n in enumerate(sizes):
        last = sizes[i + 1] - 1 if i + 1 < len(sizes) else MAX_N
        if rows and tuple(rows[-1][2:]) == best[n]:
            rows[-1][1] = last
        else:
            rows.append([1 if not rows else n, last, *best[n]])
    return [tuple(row) for row in rows]


def fastest(runs: list[Measure], key: tuple[str, ...]) -> dict[int, Setting]:
    """Per n, the ``key`` fields of the proven run with the fewest CPU seconds."""
    best: dict[int, Measure] = {}
    for m in runs:
        if m.proven and (m.n not in best or m.cpu < best[m.n].cpu):
            best[m.n] = m
    return {n: tuple(getattr(m, field) for field in key) for n, m in best.items()}


def tables(rows: list[Measure]) -> tuple[dict, dict, dict]:
    """BEST, SETTINGS and REACH of the table module."""
    best, settings, reach = {}, {}, {}
    for problem in dict.fromkeys(m.problem for m in rows):
        runs = [m for m in rows if m.problem == problem]
        best[problem] = ranges(fastest(runs, ("backend", "model", "symmetry")))
        settings[problem], reach[problem] = {}, {}
        for backend in dict.fromkeys(m.backend for m in runs):
            own = [m for m in runs if m.backend == backend]
            if any(m.proven and m.model is not None for m in own):
                settings[problem][backend] = ranges(fastest(own, ("model", "symmetry")))
            reach[problem][backend] = max((m.n for m in own if m.proven), default=0)
    return best, settings, reach


def module(rows: list[Measure], source: str, budget: float) -> str:
    """The table module: this run's kinds, and every other kind kept from the table
    before (with the run that measured it), so one kind can be measured again alone."""
    best, settings, reach = tables(rows)
    sources = {problem: source for problem in best}
    kept = [problem for problem in measured.BEST if problem not in best]
    if kept and budget != measured.BUDGET:
        raise SystemExit(
            f"--budget {budget:g} differs from the table's {measured.BUDGET:g} s, so the "
            f"kinds not measured now ({', '.join(kept)}) cannot be kept: measure them too"
        )
    for problem in kept:
        best[problem] = measured.BEST[problem]
        settings[problem] = measured.SETTINGS[problem]
        reach[problem] = measured.REACH[problem]
        sources[problem] = measured.SOURCES[problem]
    return f'''"""The defaults measured by benchmarks/defaults.py: generated, never edited by hand.

Each run had {budget:g} wall seconds; proven runs are ranked by CPU seconds. Each kind's
rows come from the run named in SOURCES.
"""

#: The wall seconds each run had: a backend's reach is the largest n it proved within them.
BUDGET = {budget!r}
#: Kind -> ((first n, last n, backend, model, symmetry), ...): the fastest setting (model
#: and symmetry None: the backend's own search).
BEST = {best!r}
#: Kind -> backend -> ((first n, last n, model, symmetry), ...): its fastest model and symmetry.
SETTINGS = {settings!r}
#: Kind -> backend -> the largest n proven within BUDGET (0: none of the n measured).
REACH = {reach!r}
#: Kind -> the command, machine and time that measured its rows.
SOURCES = {{{", ".join(f"{problem!r}: {_wrapped(text)}" for problem, text in sources.items())}}}
'''


def _wrapped(text: str) -> str:
    """A string literal of ``text`` in pieces that fit the line limit once formatted."""
    pieces = textwrap.wrap(text, 70, drop_whitespace=False) or [""]
    return "(" + " ".join(repr(piece) for piece in pieces) + ")"


def sizes(text: str) -> tuple[str, tuple[int, ...]]:
    problem, _, ns = text.partition(":")
    try:
        return problem, tuple(sorted(int(n) for n in ns.split(",")))
    except ValueError:
        raise argparse.ArgumentTypeError(f"write kind:n,n..., got {text!r}") from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", nargs="+", type=sizes, help="kind:n,n (default: SIZES)")
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--symmetry", nargs="+", default=["none", "lex-leader"])
    parser.add_argument("--budget", type=float, default=8.0, help="wall seconds per run")
    parser.add_argument("--log", help="append every run as a JSON line to this file")
    parser.add_argument("--write", action="store_true", help=f"write {TABLE.relative_to(ROOT)}")
    args = parser.parse_args()
    args.n = dict(args.n) if args.n else SIZES
    where = machine()
    print(where, file=sys.stderr, flush=True)
    rows = []
    for m in climb(args):
        rows.append(m)
        print(f"  {m.problem} {m.backend} {m.model} {m.symmetry} n={m.n}: {m.status} in "
              f"{m.seconds:.2f} s ({m.cpu:.2f} CPU s)", file=sys.stderr, flush=True)  # fmt: skip
        if args.log:
            with open(args.log, "a") as log:
                log.write(json.dumps({**asdict(m), "machine": where}) + "\n")
    command = " ".join(["python benchmarks/defaults.py", *sys.argv[1:]])
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = module(rows, f"{command} on {where}, {when}", args.budget)
    if args.write:
        TABLE.write_text(text)
        subprocess.run(["ruff", "format", "--quiet", str(TABLE)], check=True)
    print(text)


if __name__ == "__main__":
    main()
