"""Progress bars for long work: drawn on a terminal, silent when output is piped.

A bar is redrawn by the thread that reports progress, at most ``REFRESH_SECONDS`` apart,
never by a refresh thread of its own: the run's pool may fork worker processes after the
bar opens, and a fork must not copy a thread holding the terminal's lock.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from queenslab.core.run import ProgressCallback

REFRESH_SECONDS = 0.1

_enabled = True


def set_enabled(enabled: bool) -> None:
    """``--quiet`` turns bars off for the whole run."""
    global _enabled
    _enabled = enabled


def is_interactive() -> bool:
    return _enabled and sys.stderr.isatty()


@contextmanager
def progress_bar(description: str) -> Iterator[ProgressCallback | None]:
    """Yield a ``callback(done, total)`` drawing a bar on stderr, or None when not a TTY."""
    if not is_interactive():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task) -> Text:  # type: ignore[no-untyped-def]
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
    console = Console(stderr=True)
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task(description, total=None)
        drawn = [0.0]

        def update(done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total)
            now = time.monotonic()
            if now - drawn[0] >= REFRESH_SECONDS or done == total:
                drawn[0] = now
                bar.refresh()

        yield update
