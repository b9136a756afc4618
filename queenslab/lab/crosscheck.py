"""Cross-validation: every counting backend against each other and against OEIS.

The published count is the variant's own sequence (A000170 standard, A051906 toroidal,
A051223 super-queens); with blocked cells the counters must agree with each other. A
disagreement anywhere (two backends, or a backend and the published value) makes the
report fail. Heuristic backends cannot count, so for each n >= 4 their placement goes
through the harness (``api.solve`` validates every board) and must come back valid.
Backends too slow for an n are listed as skipped, never silently left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from queenslab import api, boards
from queenslab.boards import DEFAULT_VARIANT, Cell
from queenslab.core.backend import Family, Feature, Task
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.core.result import Status
from queenslab.core.run import ProgressCallback
from queenslab.core.stats import primary_effort
from queenslab.lab import reference
from queenslab.registry import backend_class, info, names

#: Largest n each counter is asked to count here (it would take minutes beyond).
MAX_COUNT_N: dict[str, int] = {
    "backtrack": 11,
    "milp": 10,
    "sat": 10,
    "cpsat": 11,
    "sharpsat": 13,
    "bitmask": 18,
}
DEFAULT_MAX_COUNT_N = 10  # for counters not in the table
#: The text table's width: a wider one is cut into blocks, each led by n and OEIS.
TEXT_WIDTH = 100
KEY_COLUMNS = 2
TIME_LIMIT = 120.0  # seconds per count or solve
SEED = 0  # heuristics are seeded so a failure can be replayed


@dataclass
class Answer:
    """One backend's answer for one n: a count (or ``ok`` for a heuristic) or a note."""

    value: int | None = None
    seconds: float | None = None
    note: str = ""  # "skipped (n too large)", "limit", "gave up", "error: ...", "invalid ..."
    failed: bool = False
    stats: dict[str, Any] = field(default_factory=dict)  # the run's statistics

    def text(self, stats: bool = False) -> str:
        """The answer and its time; with ``stats``, also the figure that stands for its effort."""
        if self.value is None and self.note:
            return self.note
        answer = "ok" if self.value is None else str(self.value)
        if self.seconds is None:
            return answer
        effort = primary_effort(self.stats) if stats else None
        extra = f", {self.stats[effort]:,} {effort}" if effort else ""
        return f"{answer} ({self.seconds:.2f}s{extra})"

    def to_json(self, stats: bool = False) -> dict[str, Any]:
        seconds = None if self.seconds is None else round(self.seconds, 6)
        record = {"value": self.value, "seconds": seconds, "note": self.note or None}
        return {**record, "stats": self.stats} if stats else record


@dataclass
class Row:
    n: int
    oeis: int | None
    counts: dict[str, Answer] = field(default_factory=dict)
    heuristics: dict[str, Answer] = field(default_factory=dict)

    @property
    def disagrees(self) -> bool:
        """Two different totals among the counters and the published value."""
        totals = {cell.value for cell in self.counts.values() if cell.value is not None}
        if self.oeis is not None:
            totals.add(self.oeis)
        return len(totals) > 1

    @property
    def ok(self) -> bool:
        cells = [*self.counts.values(), *self.heuristics.values()]
        return not self.disagrees and not any(cell.failed for cell in cells)


@dataclass
class CrosscheckReport:
    counters: list[str]
    heuristics: list[str]
    rows: list[Row]
    variant: str = DEFAULT_VARIANT

    @property
    def ok(self) -> bool:
        return all(row.ok for row in self.rows)

    def to_json(self, stats: bool = False) -> dict[str, Any]:
        """The report; ``stats`` adds each answer's statistics."""
        return {
            "ok": self.ok,
            "variant": self.variant,
            "counters": self.counters,
            "heuristics": self.heuristics,
            "rows": [
                {
                    "n": row.n,
                    "oeis": row.oeis,
                    "ok": row.ok,
                    "counts": {name: cell.to_json(stats) for name, cell in row.counts.items()},
                    "heuristics": {
                        name: cell.to_json(stats) for name, cell in row.heuristics.items()
                    },
                }
                for row in self.rows
            ],
        }

    def _repr_html_(self) -> str:
        """Jupyter shows the report as a table: one row per n, one column per backend,
        disagreements in red."""
        from html import escape

        names = [*self.counters, *self.heuristics]
        head = "".join(f"<th>{escape(h)}</th>" for h in ["n", "OEIS", *names, ""])
        rows = []
        for row in self.rows:
            cells = [str(row.n), "?" if row.oeis is None else str(row.oeis)]
            cells += [row.counts[name].text() for name in self.counters]
            cells += [
                row.heuristics[h].text() if h in row.heuristics else "-" for h in self.heuristics
            ]
            verdict = "" if row.ok else "disagree" if row.disagrees else "failed"
            style = "" if row.ok else ' style="color:#d32f2f;font-weight:bold"'
            body = "".join(f"<td>{escape(cell)}</td>" for cell in [*cells, verdict])
            rows.append(f"<tr{style}>{body}</tr>")
        summary = "all agree" if self.ok else "DISAGREEMENT: see the rows in red"
        return (
            f"<table><caption>cross-check, {escape(self.variant)}: {summary}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )

    def to_text(self, stats: bool = False) -> str:
        """A plain table (pipe-friendly); ``!!`` marks a row where something disagrees.

        ``stats`` adds each answer's effort figure (nodes, conflicts, branches...).
        """
        names = [*self.counters, *self.heuristics]
        header = ["n", "OEIS", *names, ""]
        body = [
            [
                str(row.n),
                "?" if row.oeis is None else str(row.oeis),
                *(row.counts[name].text(stats) for name in self.counters),
                *(
                    row.heuristics.get(name, Answer(note="-")).text(stats)
                    for name in self.heuristics
                ),
                "" if row.ok else "!! disagree" if row.disagrees else "!! failed",
            ]
            for row in self.rows
        ]
        table = [header, *body]
        widths = [max(len(line[i]) for line in table) for i in range(len(header))]
        parts = []
        for columns in _blocks(widths, KEY_COLUMNS, TEXT_WIDTH):
            lines = [
                "  ".join(line[i].ljust(widths[i]) for i in columns).rstrip() for line in table
            ]
            lines.insert(1, "-" * len(lines[0]))
            parts.append("\n".join(lines))
        verdict = "all agree" if self.ok else "DISAGREEMENT: see the rows marked !!"
        return "\n\n".join(parts) + "\n" + verdict


def _blocks(widths: Sequence[int], keys: int, limit: int) -> list[list[int]]:
    """The columns of each block of a text table ``limit`` characters wide at most (one
    column wider than that alone): the ``keys`` first columns begin every block. The
    default cross-check's one table was 198 columns wide."""
    blocks: list[list[int]] = []
    block = list(range(keys))
    used = sum(widths[:keys]) + 2 * keys
    for column in range(keys, len(widths)):
        if len(block) > keys and used + widths[column] > limit:
            blocks.append(block)
            block, used = list(range(keys)), sum(widths[:keys]) + 2 * keys
        block.append(column)
        used += widths[column] + 2
    return [*blocks, block]


def crosscheck(
    ns: Sequence[int],
    backends: Sequence[str] | None = None,
    *,
    variant: str = DEFAULT_VARIANT,
    blocked: Sequence[Cell] = (),
    progress: ProgressCallback | None = None,
) -> CrosscheckReport:
    """Count every n with every chosen counter and validate every heuristic's board.

    With blocked cells there is no published count: the counters must agree with each
    other (backtracking among them). Sizes no counter is asked to count are refused.
    """
    boards.variant(variant)
    sample = Problem(max(ns), variant=variant, blocked=tuple(blocked))
    counters, heuristics = _split(backends, sample)
    reachable = max((MAX_COUNT_N.get(name, DEFAULT_MAX_COUNT_N) for name in counters), default=0)
    unchecked = [n for n in ns if n > reachable and not (heuristics and n >= 4)]
    if unchecked:
        raise UsageError(
            f"nothing in this cross-check can check n={unchecked[0]} "
            f"(its counters reach n={reachable})"
        )
    problems = [Problem(n, variant=variant, blocked=tuple(blocked)) for n in ns]
    rows = [Row(p.n, None if p.blocked else reference.total(p.n, variant)) for p in problems]
    total = len(rows) * (len(counters) + len(heuristics))
    done = 0
    for problem, row in zip(problems, rows, strict=True):
        for name in counters:
            row.counts[name] = _count(name, problem)
            done += 1
            if progress:
                progress(done, total)
        for name in heuristics:
            if row.n >= 4:
                row.heuristics[name] = _validate(name, problem)
            done += 1
            if progress:
                progress(done, total)
    return CrosscheckReport(counters, heuristics, rows, variant)


def _split(backends: Sequence[str] | None, problem: Problem) -> tuple[list[str], list[str]]:
    """Counters and heuristics to run: the chosen ones, or every one that takes the board."""
    chosen = list(dict.fromkeys(backends)) if backends is not None else names()
    counters, heuristics = [], []
    for name in chosen:
        cls = backend_class(name)  # UsageError for an unknown name
        takes = problem.variant in cls.variants and (
            not problem.blocked or Feature.BLOCKED in cls.features
        )
        if not takes:
            if backends is not None:
                raise UsageError(
                    f"backend {name!r} does not handle this board ({problem.describe()})"
                )
            continue
        if Task.COUNT in cls.tasks:
            counters.append(name)
        elif cls.family is Family.HEURISTIC and Task.SOLVE in cls.tasks:
            heuristics.append(name)
        elif backends is not None:
            raise UsageError(f"backend {name!r} can neither count nor be validated by solving")
    return counters, heuristics


def _count(name: str, problem: Problem) -> Answer:
    if problem.n > MAX_COUNT_N.get(name, DEFAULT_MAX_COUNT_N):
        return Answer(note="skipped (n too large)")
    if not info(name).available:
        return Answer(note="unavailable")
    try:
        result = api.count(problem, name, time_limit=TIME_LIMIT)
    except Exception as exc:  # a crosscheck reports every failure instead of stopping
        return Answer(note=f"error: {exc}", failed=True)
    if result.status is Status.LIMIT or result.total is None:
        return Answer(seconds=result.seconds, note="limit", stats=result.stats)
    return Answer(result.total, result.seconds, stats=result.stats)


def _validate(name: str, problem: Problem) -> Answer:
    """``api.solve`` raises BackendBug on an invalid board or a moved queen."""
    if not info(name).available:
        return Answer(note="unavailable")
    try:
        result = api.solve(problem, name, seed=SEED, time_limit=TIME_LIMIT)
    except api.BackendBug as exc:
        return Answer(note=f"invalid board: {exc}", failed=True)
    except UsageError:  # a construction that does not cover n says so: not a failure
        return Answer(note="n not covered")
    except Exception as exc:  # a crosscheck reports every failure instead of stopping
        return Answer(note=f"error: {exc}", failed=True)
    if result.status is Status.SOLVED:
        return Answer(seconds=result.seconds, stats=result.stats)
    if result.status is Status.INFEASIBLE:
        return Answer(note="claimed infeasible", failed=True)
    return Answer(seconds=result.seconds, note=f"gave up ({result.status})", stats=result.stats)
