"""What the commands share: argument types, the board and run arguments, backend options.

Backend options are not listed here: every option a backend declares (``Backend.options``)
becomes a flag of each command whose capability that backend has, with the backends'
own help texts. Numbers are read as ASCII digits only: "８" (a fullwidth digit) is refused
rather than read as 8, so what a user typed is what the lab ran.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import Any, TypedDict

from queenslab import boards
from queenslab.core.backend import Backend, Option, Task, non_negative_int, positive_int
from queenslab.core.errors import UsageError
from queenslab.core.problem import MAX_N, Problem
from queenslab.core.run import MIN_TIME_LIMIT

#: A blocked-cells file larger than this is refused rather than read (e.g. /dev/zero).
MAX_CELL_FILE_BYTES = 64 << 20


def whole_number(text: str, what: str, low: int = 0, high: int | None = None) -> int:
    """An integer written with ASCII digits (one leading minus at most), within [low,
    high]; else a usage error. Spaces are refused, not stripped (" 6" is not N), as by
    every number the command line reads."""
    if not (text.isascii() and text.removeprefix("-").isdigit()):
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}")
    if len(text) > 30:  # int() of a huge string is slow, and no count needs 31 digits
        raise argparse.ArgumentTypeError(f"{what} must have at most 30 digits, got {text!r}")
    value = int(text)
    if value < low or (high is not None and value > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise argparse.ArgumentTypeError(f"{what} must be {bound}, got {text!r}")
    return value


def non_empty(what: str):  # type: ignore[no-untyped-def]
    """An argument type for names and paths: an empty one is refused, never taken as unset."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{what} must not be empty")
        return text

    return parse


def board_size(text: str) -> int:
    return whole_number(text, "N", 1, MAX_N)


def cell(text: str) -> tuple[int, int]:
    """``R:C``, 0-based row and column."""
    parts = text.split(":")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"a cell must look like ROW:COL, got {text!r}")
    return whole_number(parts[0], "ROW"), whole_number(parts[1], "COL")


def seconds(text: str) -> float:
    """A time in seconds, ASCII digits without spaces."""
    try:  # float() would forgive spaces (" 3") and read "８" as 8
        value = float(text) if text.isascii() and text == text.strip() else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= MIN_TIME_LIMIT):
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds >= {MIN_TIME_LIMIT}, got {text!r}"
        )
    return value


def n_range(text: str) -> range:
    """``8`` or ``1-10`` (inclusive)."""
    low, dash, high = text.partition("-")
    if dash and not high:
        raise argparse.ArgumentTypeError(f"expected N or FIRST-LAST, got {text!r}")
    first = whole_number(low, "FIRST", 1, MAX_N)
    last = whole_number(high, "LAST", 1, MAX_N) if dash else first
    if first > last:
        raise argparse.ArgumentTypeError(f"expected FIRST <= LAST, got {text!r}")
    return range(first, last + 1)


def read_cells(path: str) -> list[tuple[int, int]]:
    """Cells from a file with one ``R C`` (or ``R:C``) per line; ``#`` starts a comment."""
    from queenslab.io.textfiles import read_text

    text = read_text(path, MAX_CELL_FILE_BYTES, "cells file")
    cells = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].replace(":", " ").split()
        if not words:
            continue
        try:
            if len(words) != 2:
                raise argparse.ArgumentTypeError("expected two numbers, ROW COL")
            cells.append((whole_number(words[0], "ROW"), whole_number(words[1], "COL")))
        except argparse.ArgumentTypeError as exc:
            raise UsageError(f"{path}, line {number}: {exc}") from None
    return cells


class _Once(argparse.Action):
    """An option given at most once: a second value replaced the first without a word
    (``--instance A --instance B`` solved B alone)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, self.dest) is not None:
            parser.error(f"{option_string} is given twice: give it once")
        setattr(namespace, self.dest, values)


# -- argument groups --------------------------------------------------------------------


def add_board(parser: argparse.ArgumentParser) -> None:
    """N, the variant, blocked cells and given queens: what every one-board command takes."""
    parser.add_argument("n", type=board_size, nargs="?", metavar="N", help="board size")
    add_board_rules(parser)
    parser.add_argument(
        "--given",
        type=cell,
        action="append",
        default=[],
        metavar="R:C",
        help="a queen placed in advance at row R, column C (0-based); repeatable",
    )
    parser.add_argument(
        "--instance",
        metavar="FILE",
        action=_Once,
        help="the board of an instance file (queens generate): N, blocked cells and givens",
    )


def add_board_rules(
    parser: argparse.ArgumentParser, variant_default: str | None = boards.DEFAULT_VARIANT
) -> None:
    """The variant and blocked cells (also taken by commands over many sizes)."""
    parser.add_argument(
        "--variant",
        default=variant_default,
        choices=list(boards.VARIANTS),
        help="rules of attack: "
        + "; ".join(f"{name}: {v.summary}" for name, v in boards.VARIANTS.items()),
    )
    parser.add_argument(
        "--blocked",
        type=cell,
        action="append",
        default=[],
        metavar="R:C",
        help="a cell that may not hold a queen; repeatable",
    )
    parser.add_argument(
        "--blocked-file",
        metavar="FILE",
        action="append",
        default=[],
        help="blocked cells, one 'R C' per line; repeatable",
    )


def add_run(parser: argparse.ArgumentParser, *, seed: bool = False) -> None:
    parser.add_argument(
        "--backend",
        "-b",
        type=non_empty("the backend name"),
        help="backend name (see `queens backends`)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        metavar="SEC",
        help="stop after SEC seconds, start-up and model building included (exit 3)",
    )
    parser.add_argument(
        "--cpu-limit", type=seconds, metavar="SEC",
        help="stop after SEC CPU seconds, worker processes included (exit 3)",
    )  # fmt: skip
    if seed:
        parser.add_argument(
            "--seed",
            type=lambda t: whole_number(t, "--seed"),
            help="random seed (same seed, same answer)",
        )


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``; 0 where unknown): the
    interpreter's and the command's start-up, which a limit on the whole run covers."""
    import os

    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22: starttime
            now = float(uptime.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return max(0.0, now - started / os.sysconf("SC_CLK_TCK"))


class RunLimits(TypedDict):
    """The API's limits on a whole run, as keywords."""

    time_limit: float | None
    cpu_limit: float | None


def whole_run_limits(args: argparse.Namespace) -> RunLimits:
    """``time_limit`` and ``cpu_limit`` for the API, less what the process has spent on
    starting up (at least ``MIN_TIME_LIMIT`` each, so a spent limit stops at once)."""
    from queenslab.core.run import cpu_seconds

    def less(limit: float | None, spent: float) -> float | None:
        return None if limit is None else max(MIN_TIME_LIMIT, limit - spent)

    return {
        "time_limit": less(args.time_limit, process_age()),
        "cpu_limit": less(args.cpu_limit, cpu_seconds()),
    }


def add_problem(parser: argparse.ArgumentParser) -> None:
    """``--problem``, ``--model`` and ``--symmetry``: the question asked of the board."""
    from queenslab.core.kind import SYMMETRY_CHOICES
    from queenslab.problems import BUILTIN, DEFAULT_KIND

    parser.add_argument(
        "--problem",
        default=DEFAULT_KIND,
        type=non_empty("the problem"),
        metavar="P",
        help="the question (or a plug-in's, `queens problems`): "
        + "; ".join(f"{k.name}: {k.question}" for k in BUILTIN.values()),
    )
    parser.add_argument(
        "--model",
        type=non_empty("the model"),
        help="the problem's 0-1 formulation (default: a backend's own search for placement, "
        "else the one measured fastest at this n, else the problem's first): "
        + "; ".join(f"{k.name}: {', '.join(k.formulations())}" for k in BUILTIN.values()),
    )
    parser.add_argument(
        "--symmetry",
        default="none",
        choices=SYMMETRY_CHOICES,
        help="none: every optimal answer; lex-leader: one per class of the board's symmetries",
    )


def kind_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The ``kind``, ``model`` and ``symmetry`` keywords of the API, from ``add_problem``."""
    return {"kind": args.problem, "model": args.model, "symmetry": args.symmetry}


def refuse_kind_model(args: argparse.Namespace) -> None:
    """Placement runs on the backends' own models: a kind's --model or --symmetry is refused."""
    if args.model is not None or args.symmetry != "none":
        raise UsageError("--model and --symmetry choose a problem kind's model (--problem)")


def add_plot(parser: argparse.ArgumentParser, what: str, default: str) -> None:
    """``--plot [FILE]``: the figure's file, checked before the run (``--plot`` alone writes
    ``default`` here); ``wrote_plot`` says where it went."""
    from queenslab.io.figures import plot_path

    parser.add_argument(
        "--plot", nargs="?", const=default, type=plot_path, metavar="FILE",
        help=f"draw {what} (.png, .svg or .pdf; --plot alone: {default})",
    )  # fmt: skip


def wrote_plot(path: str) -> None:
    """One line on stderr naming the figure just written (stdout stays the answer)."""
    print(f"queens: plot written to {path}", file=sys.stderr)


def add_backend_options(
    parser: argparse.ArgumentParser, task: Task, besides: tuple[str, ...] = ()
) -> None:
    """A flag for every option declared by a backend that does ``task`` (on any kind),
    but those ``besides``, which the command defines itself."""
    from queenslab.core.backend import options_table
    from queenslab.registry import backend_class, names

    able = {}
    for name in names():
        try:
            cls = backend_class(name)
        except UsageError:
            continue  # a broken plug-in: `queens backends` says so
        if any(task in tasks for tasks in cls.tasks.values()):
            able[name] = cls
    group = parser.add_argument_group("backend options")
    for option_name, offered in options_table(able).items():
        if option_name in besides:
            continue
        declared = [(b, option) for b, option in offered if _applies(able[b], option, task)]
        if not declared:
            continue
        helps = []
        for backend, option in declared:
            choices = f" ({', '.join(option.choices)})" if option.choices else ""
            default = "" if option.default is None else f" [default {option.default}]"
            helps.append(f"{backend}: {option.help}{choices}{default}")
        option = declared[0][1]
        group.add_argument(
            option.flag,
            type=_option_type(option),
            dest=f"option_{option_name}",
            metavar=option.metavar or option_name.upper(),
            help="; ".join(helps).replace("%", "%%"),
        )


def _applies(cls: type[Backend], option: Option, task: Task) -> bool:
    """Whether ``option`` does something for ``task`` on some kind: one a backend uses
    only when counting (bitmask's --checkpoint and --scheduler) was offered by solve,
    enumerate and optimize, and ignored."""
    return any(cls.ignores(option.name, task, own) is None for own in (True, False))


def _option_type(option: Option) -> Any:
    """How the command line reads an option: whole numbers as ints (the API takes no
    strings for them), anything else as non-empty text."""
    lows: dict[Callable[[Any], Any], int] = {positive_int: 1, non_negative_int: 0}
    low = lows.get(option.convert)
    if low is None:
        return non_empty(option.flag)
    return lambda text: whole_number(text, option.flag, low)


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """The backend options the user set (the rest keep the backend's defaults)."""
    prefix = "option_"
    return {
        key[len(prefix) :]: value
        for key, value in vars(args).items()
        if key.startswith(prefix) and value is not None
    }


def blocked_cells(args: argparse.Namespace) -> list[tuple[int, int]]:
    """--blocked cells and those of every --blocked-file (a cell listed twice is refused)."""
    cells = list(args.blocked)
    for path in args.blocked_file:
        cells += read_cells(path)
    return cells


def problem(args: argparse.Namespace) -> Problem:
    """The board of the arguments; with --instance, the file's board plus any cells given here."""
    if args.instance is None:
        if args.n is None:
            raise UsageError("give the board size N (or --instance FILE)")
        return Problem(args.n, tuple(args.given), args.variant, tuple(blocked_cells(args)))
    from queenslab.io.instance import read

    base = read(args.instance).problem
    if args.n is not None and args.n != base.n:
        raise UsageError(f"N is {args.n} but {args.instance} has n={base.n}: give one of them")
    if args.variant not in (boards.DEFAULT_VARIANT, base.variant):
        raise UsageError(f"--variant {args.variant} but {args.instance} is {base.variant}")
    extra = Problem(base.n, tuple(args.given), base.variant, tuple(blocked_cells(args)))
    return Problem(base.n, base.givens + extra.givens, base.variant, base.blocked + extra.blocked)


def say(args: argparse.Namespace, message: str) -> None:
    """Details for --verbose, on stderr so stdout stays the answer."""
    if args.verbose:
        print(message, file=sys.stderr)


def say_result(args: argparse.Namespace, result: Any) -> None:
    """The ``-v`` line of a result: backend, status, time and its statistics."""
    from queenslab.core.stats import summary

    line = f"{result.backend}: {result.status} in {result.seconds:.3f} s"
    say(args, f"{line}; {summary(result.stats)}")


def by_whom(result: Any) -> str:
    """Who answered: the backend, and the solver's own words when it failed (milp)."""
    said = result.stats.get("solver_said")
    return f"{result.backend}: {said}" if said else result.backend


def refuse_unused_seed(args: argparse.Namespace) -> None:
    """--seed with a backend named by --backend whose answer does not depend on it: a
    one-line error before the run, like any option the backend does not take."""
    from queenslab.registry import backend_class

    if args.seed is not None and args.backend and not backend_class(args.backend).uses_seed:
        raise UsageError(f"backend {args.backend!r} is deterministic: it takes no --seed")


def note_unused_seed(args: argparse.Namespace, backend: str) -> None:
    """A one-line note when --seed is given and the backend chosen by default does not
    depend on it (a backend named is refused first, ``refuse_unused_seed``)."""
    from queenslab.registry import backend_class

    if getattr(args, "seed", None) is not None and not backend_class(backend).uses_seed:
        print(f"queens: note: backend {backend!r} is deterministic; --seed does not apply",
              file=sys.stderr)  # fmt: skip
