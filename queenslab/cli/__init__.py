"""The ``queens`` command: solve, count, enumerate and study N-queens from the shell.

Each command is one module here with ``HELP``, ``EXAMPLES``, ``add_arguments(parser)`` and
``run(args) -> exit code``; ``COMMANDS`` lists them. Exit codes: 0 success; 1 proven
"no solution" (or a cross-check disagreement); 2 bad usage or input (one line on stderr);
3 a limit was reached before an answer (or a method gave up); 130 interrupted (Ctrl-C);
143 terminated (SIGTERM).
The codes are one table, ``core.errors.ExitCode``.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import importlib
import os
import re
import signal
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from queenslab import __version__
from queenslab.core.errors import ExitCode, QueensError, Terminated, UsageError
from queenslab.runtime import progress

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: Command name -> module. A new command is a module and one line here.
COMMANDS: dict[str, str] = {
    "solve": "queenslab.cli.solve",
    "count": "queenslab.cli.count",
    "enumerate": "queenslab.cli.enumerate",
    "optimize": "queenslab.cli.optimize",
    "decide": "queenslab.cli.decide",
    "check": "queenslab.cli.check",
    "check-proof": "queenslab.cli.check_proof",
    "check-exercise": "queenslab.cli.check_exercise",
    "cnf": "queenslab.cli.cnf",
    "export": "queenslab.cli.export",
    "crosscheck": "queenslab.cli.crosscheck",
    "lv-study": "queenslab.cli.lv_study",
    "generate": "queenslab.cli.generate",
    "sweep": "queenslab.cli.sweep",
    "hardness-study": "queenslab.cli.hardness_study",
    "trace": "queenslab.cli.trace",
    "estimate": "queenslab.cli.estimate",
    "backends": "queenslab.cli.backends",
    "problems": "queenslab.cli.problems",
    "warm": "queenslab.cli.warm",
}

#: Flags accepted before or after the command.
_GLOBAL_FLAGS = (("--quiet", "-q", "no progress bars"), ("--verbose", "-v", "statistics on stderr"))


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage in one line and exits 2, reads ``-1:0`` as a value
    (a cell that its type then refuses), and lets a failed write of --help show."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # argparse takes "-1:0" for an option ("--given: expected one argument")
        self._negative_number_matcher = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d+:")

    def error(self, message: str) -> NoReturn:
        """One prefix for every error, the parsers' and the runs' (``queens solve: error``
        and ``queens: error`` were both seen)."""
        print(f"queens: error: {message}", file=sys.stderr)
        raise SystemExit(ExitCode.USAGE)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """--help and --version: argparse drops a failed write (``--help > /dev/full``
        exited 0); here it reaches ``main`` as any failed output does."""
        if message:
            stream = file or sys.stderr
            stream.write(message)
            getattr(stream, "flush", lambda: None)()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or, with ``only``, the part one command needs: importing
    every command module (and the packages they name) is most of a small run's start-up."""
    parser = _Parser(
        prog="queens",
        description="N-queens through CP-SAT, SAT and MILP models, exact counters and heuristics.",
        epilog="Exit codes: 0 ok, 1 no solution / disagreement, 2 bad input, 3 limit reached, "
        "130 interrupted (Ctrl-C), 143 terminated (SIGTERM).",
    )
    parser.add_argument("--version", action="version", version=f"queenslab {__version__}")
    for flag, short, text in _GLOBAL_FLAGS:
        parser.add_argument(flag, short, action="store_true", help=text)
    commands = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )
    for name, module_name in COMMANDS.items():
        if only is not None and name != only:
            continue
        module = importlib.import_module(module_name)
        sub = commands.add_parser(
            name,
            help=module.HELP,
            description=module.HELP,
            epilog=module.EXAMPLES,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(handler=module.run)
        # Also accepted after the command; SUPPRESS keeps the main parser's value otherwise.
        for flag, short, text in _GLOBAL_FLAGS:
            sub.add_argument(flag, short, action="store_true", default=argparse.SUPPRESS, help=text)
        module.add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    named = next((word for word in words if not word.startswith("-")), None)
    try:
        _handle_sigterm()
        if named is not None and named not in COMMANDS:
            raise UsageError(_unknown_command(named))
        args = build_parser(named).parse_args(argv)
        progress.set_enabled(not args.quiet)
        progress.announce_compiling()
        code: int = args.handler(args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return code
    except QueensError as exc:
        print(f"queens: error: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    except Terminated:
        print("queens: terminated", file=sys.stderr)
        return ExitCode.TERMINATED
    except KeyboardInterrupt:
        print("queens: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except MemoryError:
        print("queens: error: out of memory", file=sys.stderr)
        return ExitCode.USAGE
    except BrokenPipeError:
        _silence_stdout()  # the reader went away (e.g. `| head`): not an error
        return ExitCode.OK
    except OSError as exc:
        _silence_stdout()
        print(f"queens: error: {_describe(exc)}", file=sys.stderr)
        return ExitCode.USAGE
    finally:
        with contextlib.suppress(OSError, ValueError):  # a closed stderr: nothing to say
            progress.say_compiled()


def entry() -> NoReturn:
    """The ``queens`` command: ``main()``, then an exit without the interpreter's teardown.

    Tearing down the objects of numba and LLVM takes a count about 0.1 s, often more than
    its search. By then every output is written and closed (stdout is flushed again
    here), and the exit hooks (atexit: logging, multiprocessing, Dask) still run; only
    the freeing of memory that the process gives back anyway is skipped. While another
    non-daemon thread runs, the exit is the normal one, which waits for it.
    """
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: main() has said so
            stream.flush()
    if any(not t.daemon and t is not threading.main_thread() for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(code)


def _unknown_command(word: str) -> str:
    """The error for a command that does not exist, with the nearest ones (a typo)."""
    import difflib

    close = difflib.get_close_matches(word, COMMANDS, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}?" if close else f"commands: {', '.join(COMMANDS)}"
    return f"unknown command {word!r}; {hint}"


def _handle_sigterm() -> None:
    """SIGTERM ends the run cleanly from here on (``_terminate``); the first thing ``main``
    does, before the imports of the commands, so that no early SIGTERM ends the process
    without a word. A SIGTERM held back by a blocked mask (a caller that started this
    process with it blocked) arrives now, and is handled the same way."""
    signal.signal(signal.SIGTERM, functools.partial(_terminate, os.getpid()))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


def _terminate(main_pid: int, signum: int, _frame: object) -> None:
    """SIGTERM ends the run like Ctrl-C, every cleanup done; later ones are ignored.

    GNU ``timeout`` sends SIGTERM to the process and then to its group: a second signal
    that killed at once left multi-gigabyte temporary files and unreaped solver processes
    behind. SIGKILL still ends a cleanup that hangs. A forked worker inherits this
    handler: there, SIGTERM is its parent ending it, so it ends at once and quietly, as
    without a handler.
    """
    if os.getpid() != main_pid:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    signal.signal(signum, signal.SIG_IGN)
    raise Terminated


def _describe(exc: OSError) -> str:
    """One line for an OSError that reached the top: almost always a failed write."""
    import errno

    reason = exc.strerror or str(exc)
    if exc.filename:
        return f"{reason}: {exc.filename}"
    if exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO):
        return f"cannot write the output: {reason}"
    return reason


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush raises nothing more."""

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
