"""Proof files are read line by line (they reach gigabytes), the bytes read reported as
they go, so a long check can draw a progress bar."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

#: Lines between two reports.
REPORT_EVERY = 4096


def reported(
    lines: Iterable[str], total: int, report: Callable[[int, int | None], None] | None
) -> Iterator[str]:
    """``lines``, with ``report(bytes read, total)`` called every few thousand of them."""
    done = 0
    for count, line in enumerate(lines):
        done += len(line)
        if report is not None and count % REPORT_EVERY == 0:
            report(done, total)
        yield line
    if report is not None:
        report(total, total)
