"""The ``queens`` command: solve, count, enumerate and study N-queens from the shell.

Exit codes: 0 success; 1 proven "no solution" (or a cross-check disagreement); 2 bad
usage or input (one line on stderr); 3 a limit was reached before an answer.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from queenslab import __version__, api, progress, render
from queenslab.backend import Capability
from queenslab.deadline import LimitReached
from queenslab.errors import QueensError, UsageError
from queenslab.output import atomic_output, atomic_path
from queenslab.problem import Problem, parse_given
from queenslab.result import Status

EXIT_OK, EXIT_NO_SOLUTION, EXIT_USAGE, EXIT_LIMIT = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C

#: Backend options offered on the command line; each reaches the backend only when set.
BACKEND_OPTIONS: dict[str, dict[str, Any]] = {
    "workers": {"type": int, "help": "parallel workers (threads or processes)"},
    "scheduler": {"help": "Dask scheduler address, e.g. tcp://127.0.0.1:8786"},
    "checkpoint": {"help": "SQLite file recording finished subproblems (resumable)"},
    "formulation": {"help": "cpsat model: integer or boolean"},
    "encoding": {"help": "sat cardinality encoding, e.g. pairwise, seqcounter, totalizer"},
    "solver": {"help": "solver inside the backend (sat: cadical195, ...; milp: highs, ...)"},
    "step": {"type": int, "help": "las-vegas: rows placed at random before backtracking"},
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage in one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _board_size(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N must be a positive integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"N must be a positive integer, got {text!r}")
    return n


def _given(text: str) -> tuple[int, int]:
    try:
        return parse_given(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def _n_range(text: str) -> range:
    """``8`` or ``1-10`` (inclusive)."""
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N or FIRST-LAST, got {text!r}") from None
    if not 1 <= first <= last:
        raise argparse.ArgumentTypeError(f"expected 1 <= FIRST <= LAST, got {text!r}")
    return range(first, last + 1)


def _add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """N and the queens placed in advance: what every command about one board takes."""
    parser.add_argument("n", type=_board_size, metavar="N", help="board size")
    parser.add_argument(
        "--given",
        type=_given,
        action="append",
        default=[],
        metavar="R:C",
        help="a queen placed in advance at row R, column C (0-based); repeatable",
    )


def _add_problem_arguments(parser: argparse.ArgumentParser, *, seed: bool = False) -> None:
    _add_board_arguments(parser)
    parser.add_argument("--backend", "-b", help="backend name (see `queens backends`)")
    parser.add_argument(
        "--time-limit", type=_positive_float, metavar="SEC", help="stop after SEC seconds (exit 3)"
    )
    if seed:
        parser.add_argument("--seed", type=int, help="random seed (same seed, same answer)")


def _add_backend_options(parser: argparse.ArgumentParser, names: Sequence[str]) -> None:
    group = parser.add_argument_group("backend options")
    for name in names:
        group.add_argument(f"--{name}", **BACKEND_OPTIONS[name])


def _backend_options(args: argparse.Namespace) -> dict[str, Any]:
    return {k: getattr(args, k) for k in BACKEND_OPTIONS if getattr(args, k, None) is not None}


def _problem(args: argparse.Namespace) -> Problem:
    return Problem(args.n, tuple(args.given), getattr(args, "seed", None), args.time_limit)


def _say(args: argparse.Namespace, message: str) -> None:
    """Details for --verbose, on stderr so stdout stays the answer."""
    if args.verbose:
        print(message, file=sys.stderr)


# -- commands ---------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    problem = _problem(args)
    if args.format == "png" and not args.output:
        raise UsageError("--format png needs --output FILE")
    try:
        with _solve_output(args) as write:
            result = api.solve(problem, args.backend, **_backend_options(args))
            if result.placement is None and args.format != "json":
                raise _NoBoard(result)  # nothing to draw: no file either
            write(result)
    except _NoBoard as nothing:
        result = nothing.result
    _say(args, f"{result.backend}: {result.status} in {result.seconds:.3f} s")
    if result.status is Status.INFEASIBLE:
        print(f"no solution for n={problem.n} with these queens", file=sys.stderr)
    elif result.placement is None:
        print(f"no answer: {result.status} ({result.backend})", file=sys.stderr)
    return result.status.exit_code


def _solve_output(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """A context manager yielding ``write(result)`` for the chosen format and target."""
    from contextlib import contextmanager

    @contextmanager
    def png():  # type: ignore[no-untyped-def]
        with atomic_path(args.output) as temp:
            yield lambda result: render.write_png(result.placement, temp)

    @contextmanager
    def textual():  # type: ignore[no-untyped-def]
        with atomic_output(args.output) as out:
            yield lambda result: _write_solve(args.format, result, out)

    return png() if args.format == "png" else textual()


class _NoBoard(Exception):
    """The run ended without a board: in a drawing format there is nothing to write."""

    def __init__(self, result: Any) -> None:
        self.result = result


def _write_solve(fmt: str, result: Any, out: Any) -> None:
    placement = result.placement
    if fmt == "json":
        record = result.to_json()
        cols = None if placement is None else placement.as_array()
        render.write_json(record, out, cols)
    elif fmt == "leetcode":
        out.write(render.to_leetcode(placement) + "\n")
    elif fmt == "svg":
        out.write(render.to_svg(placement) + "\n")
    else:
        out.write(render.to_text(placement, fmt) + "\n")


def cmd_count(args: argparse.Namespace) -> int:
    problem = _problem(args)
    with progress.progress_bar(f"counting n={problem.n}") as bar:
        result = api.count(
            problem, args.backend, unique=args.unique, progress=bar, **_backend_options(args)
        )
    _say(args, f"{result.backend}: {result.seconds:.3f} s {result.stats or ''}")
    if result.status is Status.LIMIT:
        print(f"time limit reached before the count finished ({result.backend})", file=sys.stderr)
        if args.format == "json":
            print(json.dumps(result.to_json()))
        return EXIT_LIMIT
    if args.format == "json":
        print(json.dumps(result.to_json()))
    elif args.unique:
        print(f"total  {result.total}\nunique {result.unique}")
    else:
        print(result.total)
    return EXIT_OK


def cmd_enumerate(args: argparse.Namespace) -> int:
    problem = _problem(args)
    if args.limit is not None and args.limit < 0:
        raise UsageError(f"--limit must be >= 0, got {args.limit}")
    solutions = api.enumerate_solutions(problem, args.backend, **_backend_options(args))
    if args.limit is not None:
        solutions = itertools.islice(solutions, args.limit)
    write = {
        "jsonl": lambda p: json.dumps({"cols": p.to_list()}) + "\n",
        "leetcode": lambda p: render.to_leetcode(p) + "\n",
        "text": lambda p: render.to_text(p) + "\n\n",
        "matrix": lambda p: render.to_text(p, "matrix") + "\n\n",
    }[args.format]
    found = 0
    # A bar only when the solutions go to a file or a pipe, so it never mixes with them.
    show_bar = args.output is not None or not sys.stdout.isatty()
    try:
        with atomic_output(args.output) as out, progress.progress_bar("enumerating") as bar:
            if args.format == "leetcode":
                solutions = iter(sorted(solutions))  # LeetCode 51 lists them in order
            for placement in solutions:
                out.write(write(placement))
                found += 1
                if bar and show_bar and found % 1024 == 0:
                    bar(found, None)
    except LimitReached:
        # Not an answer: stdout got what was found, a --output file is not written.
        print(f"time limit reached after {found} solutions", file=sys.stderr)
        return EXIT_LIMIT
    if found == 0 and args.limit != 0:
        print(f"no solution for n={problem.n} with these queens", file=sys.stderr)
        return EXIT_NO_SOLUTION
    return EXIT_OK


def cmd_optimize(args: argparse.Namespace) -> int:
    from queenslab.weights import load_weights

    problem = _problem(args)
    weights = load_weights(args.weights, problem.n)
    result = api.optimize(problem, weights, args.backend, **_backend_options(args))
    _say(args, f"{result.backend}: {result.status} in {result.seconds:.3f} s")
    if args.format == "json":
        print(json.dumps(result.to_json()))
    elif result.placement is not None:
        print(f"objective {result.objective}\n{render.to_text(result.placement)}")
    if result.placement is None:
        print(f"no optimum: {result.status} ({result.backend})", file=sys.stderr)
    return result.status.exit_code


def cmd_crosscheck(args: argparse.Namespace) -> int:
    from queenslab.crosscheck import crosscheck

    with progress.progress_bar("cross-checking") as bar:
        report = crosscheck(args.n, args.backend, progress=bar)
    print(json.dumps(report.to_json()) if args.format == "json" else report.to_text())
    return EXIT_OK if report.ok else EXIT_NO_SOLUTION


def cmd_lv_study(args: argparse.Namespace) -> int:
    from queenslab.heuristics.lv_study import print_study, run_study, write_plot

    results = []
    with progress.progress_bar("Las Vegas study") as bar:
        for done, n in enumerate(args.n):
            if bar:
                bar(done, len(args.n))
            results.append(run_study(n, args.repeat, args.seed, args.exact))
            print_study(results[-1], args.format)
    if args.plot:
        with atomic_path(args.plot) as path:
            write_plot(results, path)
    return EXIT_OK


def cmd_backends(args: argparse.Namespace) -> int:
    from queenslab.registry import backends

    rows = backends()
    if args.format == "json":
        print(
            json.dumps(
                [
                    {
                        "name": b.name,
                        "family": str(b.family),
                        "capabilities": sorted(str(c) for c in b.capabilities),
                        "available": b.available,
                        "missing": list(b.missing),
                        "summary": b.summary,
                    }
                    for b in rows
                ]
            )
        )
        return EXIT_OK
    order = list(Capability)
    header = f"{'backend':<15} {'family':<10} {'capabilities':<46} available"
    print(header)
    print("-" * len(header))
    for b in rows:
        caps = ",".join(str(c) for c in order if c in b.capabilities)
        state = "yes" if b.available else f"no (pip install {' '.join(b.missing)})"
        print(f"{b.name:<15} {b.family!s:<10} {caps:<46} {state}")
    return EXIT_OK


def cmd_cnf(args: argparse.Namespace) -> int:
    from queenslab.models.cnf import write_dimacs

    problem = Problem(args.n, tuple(args.given))
    write_dimacs(problem, args.encoding, sys.stdout)
    return EXIT_OK


# -- parser -----------------------------------------------------------------------------

_EXAMPLES = {
    "solve": """examples:
  queens solve 8
  queens solve 8 --format leetcode
  queens solve 12 --format png --output board.png
  queens solve 24 --backend cpsat --given 0:3 --given 5:10
  queens solve 1000000 --backend min-conflicts --seed 1 --format json --output board.json""",
    "count": """examples:
  queens count 12 --unique
  queens count 16 --workers 2 --checkpoint n16.sqlite
  queens count 17 --scheduler tcp://10.0.0.5:8786
  queens count 10 --backend sat --encoding seqcounter""",
    "enumerate": """examples:
  queens enumerate 4 --format leetcode
  queens enumerate 8 --backend sat --format jsonl --output all8.jsonl
  queens enumerate 10 --given 0:0 --limit 5""",
    "optimize": """examples:
  queens optimize 8 --weights weights.json
  queens optimize 10 --weights weights.csv --backend milp --solver highs --format json""",
    "crosscheck": """examples:
  queens crosscheck
  queens crosscheck --n 1-9 --backend bitmask --backend milp --format json""",
    "lv-study": """examples:
  queens lv-study --n 8 --exact --format json
  queens lv-study --n 8-20 --repeat 1000 --seed 0 --plot lv.png""",
    "backends": """examples:
  queens backends
  queens backends --format json""",
    "cnf": """examples:
  queens cnf 8 > eight.cnf
  queens cnf 8 --encoding seqcounter --given 0:0""",
}


#: Flags accepted before or after the command.
_GLOBAL_FLAGS = (("--quiet", "-q", "no progress bars"), ("--verbose", "-v", "timings on stderr"))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="queens",
        description="N-queens through CP-SAT, SAT and MILP models, exact counters and heuristics.",
        epilog="Exit codes: 0 ok, 1 no solution / disagreement, 2 bad input, 3 limit reached, "
        "130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"queenslab {__version__}")
    for flag, short, text in _GLOBAL_FLAGS:
        parser.add_argument(flag, short, action="store_true", help=text)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, handler: Callable[[argparse.Namespace], int], help_text: str):  # type: ignore[no-untyped-def]
        sub = commands.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=_EXAMPLES.get(name),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(handler=handler)
        # Also accepted after the command; SUPPRESS keeps the main parser's value otherwise.
        for flag, short, text in _GLOBAL_FLAGS:
            sub.add_argument(flag, short, action="store_true", default=argparse.SUPPRESS, help=text)
        return sub

    solve = command("solve", cmd_solve, "find one placement of N queens")
    _add_problem_arguments(solve, seed=True)
    solve.add_argument(
        "--format",
        choices=["text", "unicode", "matrix", "json", "leetcode", "svg", "png"],
        default="text",
    )
    solve.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    _add_backend_options(solve, ["workers", "formulation", "encoding", "solver", "step"])

    count = command("count", cmd_count, "count all solutions (and unique ones with --unique)")
    _add_problem_arguments(count)
    count.add_argument("--unique", action="store_true", help="also count up to symmetry")
    count.add_argument("--format", choices=["text", "json"], default="text")
    _add_backend_options(
        count, ["workers", "scheduler", "checkpoint", "formulation", "encoding", "solver"]
    )

    enum = command("enumerate", cmd_enumerate, "stream every solution")
    _add_problem_arguments(enum)
    enum.add_argument("--limit", type=int, help="stop after this many solutions")
    enum.add_argument("--format", choices=["jsonl", "leetcode", "text", "matrix"], default="jsonl")
    enum.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    _add_backend_options(enum, ["workers", "formulation", "encoding", "solver"])

    optimize = command("optimize", cmd_optimize, "maximise the total weight of occupied cells")
    _add_problem_arguments(optimize)
    optimize.add_argument(
        "--weights", required=True, metavar="FILE", help="n x n integers, JSON or CSV"
    )
    optimize.add_argument("--format", choices=["text", "json"], default="text")
    _add_backend_options(optimize, ["workers", "formulation", "encoding", "solver"])

    check = command("crosscheck", cmd_crosscheck, "all counting backends vs each other and OEIS")
    check.add_argument(
        "--n", type=_n_range, default=range(1, 11), metavar="FIRST-LAST", help="sizes (1-10)"
    )
    check.add_argument("--backend", "-b", action="append", help="only these (repeatable)")
    check.add_argument("--format", choices=["text", "json"], default="text")

    cnf = command("cnf", cmd_cnf, "write the N-queens CNF in DIMACS format to stdout")
    _add_board_arguments(cnf)
    cnf.add_argument("--encoding", default="pairwise", help="cardinality encoding (pairwise)")

    study = command("lv-study", cmd_lv_study, "Las Vegas + backtracking: p, s, e, t per step")
    study.add_argument(
        "--n", type=_n_range, default=range(8, 9), metavar="FIRST-LAST", help="sizes (8)"
    )
    study.add_argument("--repeat", type=int, default=1000, help="Monte Carlo trials per step")
    study.add_argument("--exact", action="store_true", help="enumerate every random choice")
    study.add_argument("--seed", type=int, help="random seed for the Monte Carlo trials")
    study.add_argument("--format", choices=["text", "json"], default="text")
    study.add_argument("--plot", metavar="FILE", help="PNG of t (and p) per step")

    listing = command("backends", cmd_backends, "list backends, capabilities, availability")
    listing.add_argument("--format", choices=["text", "json"], default="text")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    progress.set_enabled(not args.quiet)
    try:
        return args.handler(args)
    except QueensError as exc:
        print(f"queens: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("queens: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): not an error
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
