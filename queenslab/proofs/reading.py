"""Proof files are read line by line (they reach gigabytes), the bytes read reported as
they go, so a long check can draw a progress bar, and handed to the Numba readers in
batches of lines."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

import numpy as np

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


def batches(lines: Iterable[str], size: int) -> Iterator[tuple[list[str], np.ndarray]]:
    """``lines`` by ``size`` at a time, each batch with its text joined by newlines as
    bytes, the way the Numba readers take it (a line not ASCII reads as malformed)."""
    lines = iter(lines)
    while batch := list(itertools.islice(lines, size)):
        yield batch, np.frombuffer("\n".join(batch).encode("ascii", "replace"), np.uint8)


def line_at(batch: list[str], offset: int) -> int:
    """The index of the line of ``batch`` that holds byte ``offset`` of its text."""
    index, end = 0, len(batch[0].encode("ascii", "replace")) + 1
    while end <= offset:
        index += 1
        end += len(batch[index].encode("ascii", "replace")) + 1
    return index
