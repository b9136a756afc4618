"""The defaults measured: per problem kind, the backend, model, symmetry and warm start
that prove the optimum in the fewest CPU seconds, written as ``queenslab/problems/measured.py``.

For each kind, backend, model, ``--symmetry`` choice and start (none, or graph-search's
answer first: ``--from-heuristic``), ``ql.optimize`` at each of the kind's n (``--n
kind:n,n``), smallest first, with a ``--budget`` of CPU seconds per run (and ten times as
many wall seconds, should a run not count its CPU); the first n not proven within it ends
that setting's climb (a larger board would fail too). A backend with a search of its own
for the kind (``armies`` for peaceable armies) is one setting, with no model, no symmetry
and no start (None in the table: it takes none).
CPU seconds (this process, its threads and its forked solvers) rank the proven runs, as
they compare on a shared machine; a portfolio pays for all of its members.

A few n with a budget of seconds do not show what pays at the frontier, so each kind
measured is also run at its frontier n (``--frontier kind:n``, with ``--frontier-budget``
CPU seconds): the recipe docs/problems.md gives there (``RECIPES``, parsed as a user
types it) and the setting the climb chose for that n. Both join the table (not the
reach), so from that n on the faster of them is the default. Then every recipe is held
against the default the table chose at its n: when the recipe proved the optimum and the
default did not, or in fewer CPU seconds, the run names the recipe on stderr, writes
nothing and exits 1. ``--check`` does only that, against the committed table (no climb):
is a documented recipe beating a default?

What the table keeps, per kind: for each n measured, the fastest (backend, model, symmetry,
start) and each backend's fastest (model, symmetry, start), as n ranges (a range runs up to
the next n measured; the last to any n); each backend's reach, the largest n it proved
within the budget; and the budget. Every run is a line on stderr and, with ``--log``, a
JSON line.

    python benchmarks/defaults.py                      # every kind, an hour or more
    python benchmarks/defaults.py --n coloring:7,8,10 --write   # one kind again
    python benchmarks/defaults.py --check --frontier coloring:12  # a recipe vs the default

A run that measures some kinds keeps the others' rows from the table it replaces, each
kind with the run that measured it (``SOURCES``) and its budget; one that measures some
backends (``--backends``) keeps the others' settings and reach (the fastest setting
is then the fastest of the backends measured).
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace

from _process import ROOT, machine, parse_args

import queenslab as ql
from queenslab import registry
from queenslab.cli import build_parser
from queenslab.core.backend import Task
from queenslab.core.errors import QueensError
from queenslab.core.problem import MAX_N
from queenslab.problems import BUILTIN, measured
from queenslab.problems.defaults import HEURISTIC

BACKENDS = ("cpsat", "milp", "maxsat", "sat", "portfolio", "armies", "independent-search")
#: A few n near each kind's reach on 2 cores with a budget of seconds (docs/problems.md).
SIZES = {
    "domination": (9, 11, 13),
    "independent-domination": (9, 11, 13),
    "peaceable": (6, 7, 9, 10),
    "coloring": (7, 8, 10),
}
#: The frontier recipes docs/problems.md gives, as a user types them after ``queens
#: optimize N --problem KIND``: kind -> (its frontier n, the options).
LINES = "-b sat --model lines --symmetry lex-leader --from-heuristic"
RECIPES = {
    "coloring": (12, "-b sat --model exact-cover --from-heuristic"),
    "domination": (15, LINES),
    "independent-domination": (15, "-b independent-search"),
}
STARTS = ("none", HEURISTIC)
#: Wall seconds a run may take per CPU second of its budget (a backstop: the CPU limit
#: ends the run).
WALL = 10.0
TABLE = ROOT / "queenslab" / "problems" / "measured.py"


@dataclass(frozen=True)
class Measure:
    problem: str
    backend: str
    model: str | None  # None: the backend's own search
    symmetry: str | None
    start: str | None  # "none", HEURISTIC (graph-search first); None: its own search
    n: int
    status: str = ""
    seconds: float = 0.0
    cpu: float = 0.0
    why: str = ""  # a refusal's message

    @property
    def proven(self) -> bool:
        return self.status == "optimal"

    @property
    def setting(self) -> tuple[str | None, ...]:
        return (self.backend, self.model, self.symmetry, self.start)

    def same(self, other: Measure) -> bool:
        """The same setting on the same board, whatever came of it."""
        return (self.problem, self.n, self.setting) == (other.problem, other.n, other.setting)


def measure(asked: Measure, budget: float) -> Measure:
    """One run of the setting ``asked`` at its n; a setting the backend refuses reads
    'refused'."""
    try:
        result = ql.optimize(asked.n, kind=asked.problem, backend=asked.backend,
                             model=asked.model, symmetry=asked.symmetry or "none",
                             from_heuristic=asked.start == HEURISTIC, cpu_limit=budget,
                             time_limit=budget * WALL)  # fmt: skip
    except QueensError as refused:
        return replace(asked, status="refused", why=str(refused))
    return replace(asked, status=str(result.status), seconds=result.seconds,
                   cpu=result.cpu_seconds)  # fmt: skip


def resumed(path: str | None) -> dict[tuple, Measure]:
    """The runs a log (``--log``) holds, by (kind, n, setting): a run that stopped (a
    crash, Ctrl-C) goes on from them with ``--resume``. Refusals, which cost nothing,
    are run again."""
    if path is None:
        return {}
    with open(path) as log:
        runs = [json.loads(line) for line in log if line.strip()]
    fields = set(Measure.__dataclass_fields__)
    found = [Measure(**{k: v for k, v in run.items() if k in fields}) for run in runs]
    return {(m.problem, m.n, m.setting): m for m in found if m.status != "refused"}


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
                    for start in [None] if own else args.starts:
                        for n in sizes:
                            asked = Measure(problem, backend, model, symmetry, start, n)
                            key = (problem, n, asked.setting)
                            found = args.done.get(key) or measure(asked, args.budget)
                            yield found
                            if not found.proven:
                                break


def recipes() -> dict[str, Measure]:
    """Each kind's documented recipe as a setting at its frontier n, read by the CLI's
    parser: once, before any run (the parser imports every command)."""
    parser, found = build_parser(), {}
    for problem, (n, options) in RECIPES.items():
        args = parser.parse_args(["optimize", str(n), "--problem", problem, *options.split()])
        start = HEURISTIC if args.from_heuristic else "none"
        symmetry = args.symmetry
        if args.model is None and registry.backend_class(args.backend).searches_itself(
            Task.OPTIMIZE, problem
        ):  # a search of the backend's own: no model, symmetry or start, as the climb has it
            symmetry = start = None
        found[problem] = Measure(problem, args.backend, args.model, symmetry, start, n)
    return found


def chosen(best: dict, problem: str, n: int) -> Measure | None:
    """The setting the table ``best`` (BEST's form) chose for ``problem`` at ``n``; None
    where no setting proved any n."""
    row = next((row for row in best.get(problem, []) if row[0] <= n <= row[1]), None)
    return None if row is None else Measure(problem, *row[2:], n)


def frontier(args: argparse.Namespace, best: dict) -> Iterator[Measure]:
    """At each frontier n, the recipe and the setting ``best`` chose (once when they are
    the same)."""
    for problem, sizes in args.frontier.items():
        for n in sizes:
            asked = [replace(args.recipes[problem], n=n), chosen(best, problem, n)]
            for setting in dict.fromkeys(m for m in asked if m is not None):
                yield measure(setting, args.frontier_budget)


def beaten(runs: list[Measure], best: dict, recipes: dict[str, Measure]) -> Iterator[str]:
    """A line for each recipe run that beats the default ``best`` chose at its n: proven
    where the default was not, or in fewer CPU seconds (the default's run at that n among
    ``runs``)."""
    for run in runs:
        if run.problem not in recipes or run.setting != recipes[run.problem].setting:
            continue
        if not run.proven:
            continue
        default = chosen(best, run.problem, run.n)
        if default is not None and default.setting == run.setting:
            continue
        theirs = [m for m in runs if default is not None and m.same(default)]
        if theirs and theirs[0].proven and theirs[0].cpu <= run.cpu:
            continue
        name = "none" if default is None else " ".join(map(str, default.setting))
        took = f"{theirs[0].status} in {theirs[0].cpu:.1f} CPU s" if theirs else "not measured"
        yield (
            f"defaults.py: a recipe beats the default: `queens optimize {run.n} --problem "
            f"{run.problem} {RECIPES[run.problem][1]}` proved the optimum in {run.cpu:.1f} "
            f"CPU s; the default ({name}): {took}"
        )


Setting = tuple[str | None, ...]  # (backend, model, symmetry, start) or (model, ...)


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


def tables(rows: list[Measure], climbed: list[Measure]) -> tuple[dict, dict, dict]:
    """BEST and SETTINGS of every run in ``rows``; REACH of those ``climbed`` within the
    budget."""
    best, settings, reach = {}, {}, {}
    for problem in dict.fromkeys(m.problem for m in rows):
        runs = [m for m in rows if m.problem == problem]
        best[problem] = ranges(fastest(runs, ("backend", "model", "symmetry", "start")))
        settings[problem], reach[problem] = {}, {}
        for backend in dict.fromkeys(m.backend for m in runs):
            own = [m for m in runs if m.backend == backend]
            if any(m.proven and m.model is not None for m in own):
                key = ("model", "symmetry", "start")
                settings[problem][backend] = ranges(fastest(own, key))
            mine = [m for m in climbed if (m.problem, m.backend) == (problem, backend)]
            if mine:
                reach[problem][backend] = max((m.n for m in mine if m.proven), default=0)
    return best, settings, reach


def module(rows: list[Measure], climbed: list[Measure], source: str, budget: float) -> str:
    """The table module: this run's kinds, and every other kind kept from the table
    before (with the run that measured it and its budget), so one kind can be measured
    again alone."""
    best, settings, reach = tables(rows, climbed)
    sources = {problem: source for problem in best}
    budgets = {problem: budget for problem in best}
    for problem in measured.BEST:
        if problem not in best:
            best[problem] = measured.BEST[problem]
            sources[problem] = measured.SOURCES[problem]
            budgets[problem] = measured.BUDGET[problem]
        # the backends not measured now keep theirs (``--backends``)
        settings[problem] = {**measured.SETTINGS[problem], **settings.get(problem, {})}
        reach[problem] = {**measured.REACH[problem], **reach.get(problem, {})}
    return f'''"""The defaults measured by benchmarks/defaults.py: generated, never edited by hand.

Each run had the CPU seconds of its kind's BUDGET; proven runs are ranked by CPU seconds,
the frontier's too (SOURCES: ``--frontier``, with a budget of their own). Each kind's rows
come from the run named in SOURCES.
"""

from typing import Any

#: Kind -> the CPU seconds each run had: a backend's reach is the largest n it proved
#: within them.
BUDGET = {budgets!r}
#: Kind -> ((first n, last n, backend, model, symmetry, start), ...): the fastest setting
#: (start "heuristic": graph-search's answer first; model, symmetry and start None: the
#: backend's own search).
BEST: dict[str, list[tuple[Any, ...]]] = {best!r}
#: Kind -> backend -> ((first n, last n, model, symmetry, start), ...): its fastest setting.
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


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", nargs="+", type=sizes, help="kind:n,n (default: SIZES)")
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--symmetry", nargs="+", default=["none", "lex-leader"])
    parser.add_argument("--starts", nargs="+", choices=STARTS, default=list(STARTS))
    parser.add_argument("--budget", type=float, default=8.0, help="CPU seconds per run")
    parser.add_argument(
        "--frontier", nargs="*", type=sizes,
        help="kind:n, the frontier n where the recipe meets the default (default: each "
        "measured kind's RECIPES n; none given: none)",
    )  # fmt: skip
    parser.add_argument("--frontier-budget", type=float, default=900.0,
                        help="CPU seconds per frontier run")  # fmt: skip
    parser.add_argument("--check", action="store_true",
                        help="only the frontier, against the committed table")  # fmt: skip
    parser.add_argument("--log", help="append every run as a JSON line to this file")
    parser.add_argument("--resume", metavar="LOG",
                        help="take the climb's runs this log holds, not run again")  # fmt: skip
    parser.add_argument("--write", action="store_true", help=f"write {TABLE.relative_to(ROOT)}")
    smallest = {"n": [("domination", (3,))], "backends": ["sat"], "symmetry": ["none"],
                "frontier": []}  # fmt: skip
    args = parse_args(parser, smallest, argv)
    args.recipes, args.done = recipes(), resumed(args.resume)
    args.n = {} if args.check else dict(args.n) if args.n else SIZES
    if args.frontier is None:
        kinds = measured.BEST if args.check else args.n
        args.frontier = {kind: (RECIPES[kind][0],) for kind in kinds if kind in RECIPES}
    else:
        args.frontier = dict(args.frontier)
    return args


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    where = machine()
    print(where, file=sys.stderr, flush=True)
    rows: list[Measure] = []

    def told(m: Measure) -> Measure:
        rows.append(m)
        print(f"  {m.problem} {m.backend} {m.model} {m.symmetry} {m.start} n={m.n}: "
              f"{m.status} in {m.seconds:.2f} s ({m.cpu:.2f} CPU s) {m.why}", file=sys.stderr,
              flush=True)  # fmt: skip
        if args.log:
            with open(args.log, "a") as log:
                log.write(json.dumps({**asdict(m), "machine": where}) + "\n")
        return m

    climbed = [told(m) for m in climb(args)]
    best = {**measured.BEST, **tables(climbed, climbed)[0]}
    for m in frontier(args, best):
        told(m)
    best = {**best, **tables(rows, climbed)[0]} if climbed else best
    failures = list(beaten(rows, best, args.recipes))
    for line in failures:
        print(line, file=sys.stderr)
    if failures:
        raise SystemExit(1)
    if not climbed:
        return
    importlib.reload(measured)  # the kinds kept as the table is now (another run wrote it)
    command = " ".join(["python benchmarks/defaults.py", *(argv or sys.argv[1:])])
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    text = module(rows, climbed, f"{command} on {where}, {when}", args.budget)
    if args.write:
        TABLE.write_text(text)
        subprocess.run(["ruff", "format", "--quiet", str(TABLE)], check=True)
    print(text)


if __name__ == "__main__":
    main()
