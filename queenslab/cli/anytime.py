"""Watching an anytime optimisation: a live line on the terminal, a log of improvements.

A long optimisation is silent for minutes between its start and its proof; what it knows
meanwhile (its best answer, the bound, the gap, and which model it runs) is what a person
wants to see, and what a script wants recorded. The live line is drawn on stderr only when
it is a terminal (``runtime.progress.live_line``); ``--log FILE`` writes one JSON object
per event, ``{"t": seconds, "event": "solution" | "bound" | "end", "incumbent": value,
"bound": value}`` (and ``"chosen"`` with the ``setting`` a rule chose: model, symmetry,
backend, why), each line whole and flushed as it happens, so ``tail -f`` follows the run.
The log is written in place (a run is watched while it goes), kept after a limit or Ctrl-C
(it is their record) and removed when the run fails with an error.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from queenslab.core.errors import QueensError, UsageError
from queenslab.core.run import News


def describe(news: News, seconds: float) -> str:
    """``incumbent 5  bound 3  gap 2  12.3 s  (lines + lex-leader on sat: measured ...)``;
    ``-`` for what is not known yet, the setting once a rule chose it."""

    def shown(value: int | None) -> str:
        return "-" if value is None else str(value)

    gap = None
    if news.objective is not None and news.bound is not None:
        gap = abs(news.objective - news.bound)
    setting = "" if news.setting is None else f"  ({news.setting})"
    return (
        f"incumbent {shown(news.objective)}  bound {shown(news.bound)}  gap {shown(gap)}  "
        f"{seconds:.1f} s{setting}"
    )


def log_line(event: str, news: News, seconds: float, **more: str) -> str:
    record = {"t": round(seconds, 3), "event": event, "incumbent": news.objective,
              "bound": news.bound, **more}  # fmt: skip
    return json.dumps(record) + "\n"


class Watch:
    """Where the news of one run go: the live line (None: not a terminal), the log."""

    def __init__(self, line: Callable[[str], None] | None, log: IO[str] | None) -> None:
        self._line = line
        self._log = log
        self._start = time.perf_counter()  # the run's own clock starts a moment later

    def news(self, event: str, news: News, seconds: float) -> None:
        """A ``core.run.NewsCallback``."""
        if self._line is not None:
            self._line(describe(news, seconds))
        if self._log is not None and event == "chosen":
            self._log.write(log_line(event, news, seconds, setting=news.setting or ""))
            self._log.flush()
        elif self._log is not None and event != "tick":
            self._log.write(log_line(event, news, seconds))
            self._log.flush()

    def end(self, status: str, news: News) -> None:
        """The log's last line: the final answer's value and bound, with the status."""
        if self._log is not None:
            seconds = time.perf_counter() - self._start
            self._log.write(log_line("end", news, seconds, status=status))
            self._log.flush()


@contextmanager
def log_file(path: str | None) -> Iterator[IO[str] | None]:
    """The log at ``path`` (None: no log), opened before the run: a bad path fails first,
    leaving nothing; removed again when the run fails with an error."""
    if path is None:
        yield None
        return
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"cannot write {path}: it is a directory")
    try:
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with handle:
            yield handle
    except QueensError:
        target.unlink(missing_ok=True)
        raise
