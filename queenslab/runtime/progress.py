"""Progress bars for long work, a live line for an anytime search, and a word when
kernels compile: on a terminal only.

A bar is drawn on stderr when it is a terminal, never when output is piped, and never
beside solutions streaming to the same terminal. The first run of a command compiles its
Numba kernels (up to a minute without a sign of life): ``announce_compiling`` says so
once, on a terminal or not, and ``say_compiled`` how long it took.

A bar is redrawn by the thread that reports progress, at most ``REFRESH_SECONDS`` apart,
never by a refresh thread of its own: the run's pool may fork worker processes after the
bar opens, and a fork must not copy a thread holding the terminal's lock.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from queenslab.compiled import first_compile
from queenslab.core.run import ProgressCallback

REFRESH_SECONDS = 0.1

_enabled = True
COMPILING = "queens: compiling kernels (first run only)"


def set_enabled(enabled: bool) -> None:
    """``--quiet`` turns bars off for the whole run."""
    global _enabled
    _enabled = enabled


def is_interactive() -> bool:
    return _enabled and sys.stderr.isatty()


def announce_compiling() -> None:
    """From now on, the first kernel this process compiles is announced on stderr, piped
    or not (a minute without a word looked hung); ``say_compiled`` then gives its time."""
    first_compile.announce_with(_say_compiling)


def _say_compiling() -> None:
    if _enabled:
        print(COMPILING, file=sys.stderr, flush=True)


def say_compiled() -> None:
    """The time the run spent compiling, after ``announce_compiling`` said it began."""
    spent = first_compile.spent()
    if _enabled and spent:
        print(f"queens: kernels compiled in {spent:.1f} s; later runs load them", file=sys.stderr,
              flush=True)  # fmt: skip


@contextmanager
def progress_bar(
    description: str, *, output_streams: bool = False
) -> Iterator[ProgressCallback | None]:
    """Yield a ``callback(done, total)`` drawing a bar on stderr, or None when not a TTY.

    The bar appears at the first report: drawn at once, its clock stood at 0:00:00 while
    the run compiled its kernels or a solver worked without reporting.

    ``output_streams``: the command writes its answers to stdout as it goes; when stdout
    is a terminal too, a bar would be drawn among them (``enumerating ━━ 0/? {"cols":
    ...}``), so none is.
    """
    if not is_interactive() or (output_streams and sys.stdout.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(f"{task.speed:.1f}/s" if task.speed else "")

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    bar = Progress(*columns, console=Console(stderr=True), transient=True, auto_refresh=False)
    task = bar.add_task(description, total=None)  # its clock starts here
    drawn = [0.0]

    def update(done: int, total: int | None) -> None:
        if not bar.live.is_started:  # drawn at the first report, not at 0:00:00 meanwhile
            bar.start()
        bar.update(task, completed=done, total=total)
        now = time.monotonic()
        if now - drawn[0] >= REFRESH_SECONDS or done == total:
            drawn[0] = now
            bar.refresh()

    try:
        yield update
    finally:
        bar.stop()


@contextmanager
def live_line() -> Iterator[Callable[[str], None] | None]:
    """Yield a ``callback(text)`` that redraws one line of text on stderr (an anytime
    search's incumbent and bound), or None when not a terminal; the line goes at the end.
    Redrawn at most ``REFRESH_SECONDS`` apart, by the caller's thread (as the bars)."""
    if not is_interactive():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, TextColumn

    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), console=console, transient=True,
                  auto_refresh=False) as line:  # fmt: skip
        task = line.add_task("")
        drawn = [0.0]

        def show(text: str) -> None:
            now = time.monotonic()
            if now - drawn[0] >= REFRESH_SECONDS:
                drawn[0] = now
                line.update(task, description=text)
                line.refresh()

        yield show
