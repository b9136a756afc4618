"""Progress bars for long work: drawn on a terminal, silent when output is piped."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from queenslab.core.run import ProgressCallback

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
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total)

        yield update
