"""Cross-validation of a problem kind: every backend against each other and the published values.

The tables follow from what the kind and the backends declare. Where answers differ in
value (the kind's model has an objective), one table holds the optimum each complete
backend proves and the value each heuristic reaches (it may equal the optimum, never beat
it), against the kind's ``value_sequences``; another the number of optimal answers each
counting backend finds, against its ``count_sequences``. Where every answer is as good as
another (placement without weights), only the count is compared (A000170 for placement),
and each heuristic's answer, which the api checks, stands beside it wherever an answer
may exist. With blocked cells nothing is published and the backends must agree with each
other; with ``symmetry="lex-leader"`` the counts are classes, compared with each other only.

A disagreement anywhere, or an answer a backend could not back, fails the report. Sizes a
backend is not asked about are listed as skipped, never silently left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from queenslab import api, registry
from queenslab.boards import DEFAULT_VARIANT, Cell
from queenslab.core.backend import Family, Task
from queenslab.core.errors import BackendBug, UsageError
from queenslab.core.kind import ProblemKind, check_symmetry
from queenslab.core.model import Sense
from queenslab.core.problem import Problem
from queenslab.core.result import Status
from queenslab.core.run import ProgressCallback
from queenslab.core.stats import primary_effort
from queenslab.lab import reference
from queenslab.problems import DEFAULT_KIND, kind

#: Largest n each backend is asked to count every answer of a question with nothing to
#: optimise at (minutes beyond).
MAX_COUNT_N: dict[str, int] = {
    "backtrack": 11,
    "milp": 10,
    "sat": 10,
    "cpsat": 11,
    "sharpsat": 13,
    "bitmask": 18,
}
DEFAULT_MAX_COUNT_N = 10  # for counters not in the table
#: Largest n each backend is asked to count the optimal answers at: the count must also
#: prove that no other answer reaches the optimum. Optimising is asked at every n given.
MAX_OPTIMA_N: dict[str, int] = {"sat": 9, "cpsat": 8}
DEFAULT_MAX_OPTIMA_N = 8
#: The text table's width: a wider one is cut into blocks, each led by n and OEIS.
TEXT_WIDTH = 100
KEY_COLUMNS = 2
TIME_LIMIT = 120.0  # seconds per call
SEED = 0  # heuristics are seeded so a failure can be replayed


@dataclass
class Answer:
    """One backend's answer for one n: a count (or ``ok`` for a heuristic) or a note."""

    value: int | None = None
    seconds: float | None = None
    note: str = ""  # "skipped (n too large)", "limit", "gave up", "error: ...", "invalid ..."
    failed: bool = False
    stats: Mapping[str, Any] = field(default_factory=dict)  # the run's statistics

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
        return {**record, "stats": dict(self.stats)} if stats else record


@dataclass
class Row:
    n: int
    oeis: int | None
    counts: dict[str, Answer] = field(default_factory=dict)
    heuristics: dict[str, Answer] = field(default_factory=dict)

    @property
    def known(self) -> set[int]:
        """The totals the counters gave and the published value."""
        totals = {cell.value for cell in self.counts.values() if cell.value is not None}
        return totals if self.oeis is None else {*totals, self.oeis}

    @property
    def disagrees(self) -> bool:
        """Two different totals among the counters and the published value."""
        return len(self.known) > 1

    @property
    def ok(self) -> bool:
        cells = [*self.counts.values(), *self.heuristics.values()]
        return not self.disagrees and not any(cell.failed for cell in cells)


@dataclass
class Table:
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
        blocks = _blocks(widths, KEY_COLUMNS, TEXT_WIDTH)
        if len(blocks) > 1 and len(blocks[-1]) == KEY_COLUMNS + 1:  # the verdict alone:
            blocks[-1].insert(KEY_COLUMNS, blocks[-2].pop())  # beside the last answers
        for columns in blocks:
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


@dataclass
class CrosscheckReport:
    """The tables of one kind: ``values`` (the optimum; None where answers do not differ in
    value) and ``counts`` (of the optimal answers, or of every answer)."""

    problem: str
    counts: Table
    values: Table | None = None

    @property
    def tables(self) -> dict[str, Table]:
        """Each table under its JSON key, in the order shown."""
        named = {"values": self.values, "counts": self.counts}
        return {key: table for key, table in named.items() if table is not None}

    @property
    def ok(self) -> bool:
        return all(table.ok for table in self.tables.values())

    def to_json(self, stats: bool = False) -> dict[str, Any]:
        """The report; ``stats`` adds each answer's statistics."""
        tables = {key: table.to_json(stats) for key, table in self.tables.items()}
        return {"ok": self.ok, "problem": self.problem, **tables}

    def to_text(self, stats: bool = False) -> str:
        """Each table under a title line; ``stats`` adds each answer's effort figure."""
        counted = "how many optimal answers" if self.values else "how many answers"
        titles = {"values": "the optimum", "counts": counted}
        return "\n\n".join(
            f"{self.problem}: {titles[key]}\n{table.to_text(stats)}"
            for key, table in self.tables.items()
        )

    def _repr_html_(self) -> str:
        return "".join(table._repr_html_() for table in self.tables.values())


def crosscheck(
    ns: Sequence[int],
    backends: Sequence[str] | None = None,
    *,
    problem: str = DEFAULT_KIND,
    variant: str = DEFAULT_VARIANT,
    blocked: Sequence[Cell] = (),
    model: str | None = None,
    symmetry: str = "none",
    progress: ProgressCallback | None = None,
) -> CrosscheckReport:
    """Every n of problem kind ``problem`` with every chosen backend that can take part
    (None: every one that takes the board), in the tables the kind calls for.

    ``model`` and ``symmetry`` shape the models the complete backends build; heuristics
    build none. Sizes no backend of the cross-check is asked about are refused.
    """
    question = kind(problem)
    question.model_name(model)  # a one-line UsageError for an unknown model
    how = {"model": model, "symmetry": check_symmetry(symmetry)}
    problems = [api.make_problem(n, variant=variant, blocked=blocked, kind=problem)
                for n in ns]  # fmt: skip
    optimises = _optimises(question, problems[0])
    native = model is None and symmetry == "none"
    solvers, heuristics, counters = _split(backends, problems[-1], optimises, native)
    reach = MAX_OPTIMA_N if optimises else MAX_COUNT_N
    default_reach = DEFAULT_MAX_OPTIMA_N if optimises else DEFAULT_MAX_COUNT_N
    reaches = {name: reach.get(name, default_reach) for name in counters}
    if not solvers and not heuristics:
        unchecked = [n for n in ns if n > max(reaches.values(), default=0)]
        if unchecked:
            raise UsageError(
                f"nothing in this cross-check can check n={unchecked[0]} "
                f"(its counters reach n={max(reaches.values(), default=0)})"
            )
    counts, values = _tables(problems, solvers, heuristics, counters, optimises, symmetry)
    total = len(ns) * (len(solvers) + len(heuristics) + len(counters))
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total)

    value_rows = values.rows if values else [None] * len(problems)
    for instance, row, value_row in zip(problems, counts.rows, value_rows, strict=True):
        for name in counters:
            row.counts[name] = _count(name, instance, how, reaches[name])
            tick()
        if value_row is None:  # the heuristics' answers, checked, beside the count
            for name in heuristics:
                if _may_have_answers(row):
                    row.heuristics[name] = _validate(name, instance)
                tick()
            continue
        for name in solvers:
            value_row.counts[name] = _optimum(name, instance, how)
            tick()
        for name in heuristics:
            value_row.heuristics[name] = _reached(name, instance, question.goal(), value_row)
            tick()
    return CrosscheckReport(problem, counts, values)


def _optimises(question: ProblemKind[Any], problem: Problem) -> bool:
    """Whether answers differ in value: the kind's model has an objective (placement
    without weights has none, every placement being as good). Built on the first board."""
    return bool(question.build(problem.board, question.model_name(None)).objective)


def _tables(
    problems: Sequence[Problem],
    solvers: list[str],
    heuristics: list[str],
    counters: list[str],
    optimises: bool,
    symmetry: str,
) -> tuple[Table, Table | None]:
    """The empty count table and, where answers differ in value, the optimum's, each row
    with its published value: none on blocked boards, nor for counts of classes."""
    kind_name, variant = problems[0].kind, problems[0].variant
    published = not problems[0].blocked
    counted = published and symmetry == "none"
    counts = Table(counters, [] if optimises else heuristics, [
        Row(p.n, reference.optima(kind_name, p.n, variant) if counted else None)
        for p in problems
    ], variant)  # fmt: skip
    if not optimises:
        return counts, None
    values = Table(solvers, heuristics, [
        Row(p.n, reference.optimum(kind_name, p.n, variant) if published else None)
        for p in problems
    ], variant)  # fmt: skip
    return counts, values


def _split(
    backends: Sequence[str] | None, problem: Problem, optimises: bool, native: bool
) -> tuple[list[str], list[str], list[str]]:
    """Complete optimisers, heuristics and counters: the chosen backends, or every one that
    takes the board (``native`` False: a model was asked for, which model backends build).
    Where answers do not differ in value, heuristics solve instead."""
    needs = registry.needs(problem)
    optimisers = registry.able(Task.OPTIMIZE, problem, needs, native) if optimises else []
    searching = optimisers if optimises else registry.able(Task.SOLVE, problem, needs, native)
    heuristics = [n for n in searching if registry.info(n).family is Family.HEURISTIC]
    solvers = [n for n in optimisers if n not in heuristics]
    counters = registry.able(Task.COUNT, problem, needs, native)
    if backends is None:
        return solvers, heuristics, counters
    chosen = list(dict.fromkeys(backends))
    for name in chosen:
        registry.info(name)  # UsageError for an unknown name
        if name not in {*solvers, *heuristics, *counters}:
            doing = (
                "optimises nor counts it" if optimises else "counts it nor solves it as a heuristic"
            )
            raise UsageError(
                f"backend {name!r} takes no part in a cross-check of the {problem.kind} "
                f"problem on this board ({problem.describe()}): it neither {doing}"
            )
    return (
        [n for n in chosen if n in solvers],
        [n for n in chosen if n in heuristics],
        [n for n in chosen if n in counters],
    )


def _may_have_answers(row: Row) -> bool:
    """False where the published count, or the counters, agree there is none: a heuristic
    cannot prove that, and would search until its time limit."""
    return row.known != {0}


def _count(name: str, problem: Problem, how: dict[str, Any], reach: int) -> Answer:
    if problem.n > reach:
        return Answer(note="skipped (n too large)")
    if not registry.info(name).available:
        return Answer(note="unavailable")
    try:
        result = api.count(problem, backend=name, time_limit=TIME_LIMIT, **how)
    except Exception as exc:  # a crosscheck reports every failure instead of stopping
        return Answer(note=f"error: {exc}", failed=True)
    if result.status is Status.LIMIT or result.total is None:
        return Answer(seconds=result.seconds, note=str(result.status), stats=result.stats)
    return Answer(result.total, result.seconds, stats=result.stats)


def _optimum(name: str, problem: Problem, how: dict[str, Any]) -> Answer:
    """The optimum a complete backend proves (a limit or a bound is a note)."""
    result = _optimize(name, problem, how)
    if isinstance(result, Answer):
        return result
    if result.status is Status.OPTIMAL:
        return Answer(result.objective, result.seconds, stats=result.stats)
    if result.status is Status.INFEASIBLE:
        return Answer(note="infeasible", seconds=result.seconds, stats=result.stats)
    best = "" if result.objective is None else f" {result.objective}, bound {result.bound}"
    return Answer(seconds=result.seconds, note=f"{result.status}{best}", stats=result.stats)


def _reached(name: str, problem: Problem, sense: Sense, row: Row) -> Answer:
    """A heuristic's value: it may equal the optimum, never beat it. It builds no model:
    the run's model and symmetry are not its to take."""
    result = _optimize(name, problem, {"seed": SEED})
    if isinstance(result, Answer):
        return result
    if result.objective is None:
        return Answer(seconds=result.seconds, note=f"no answer ({result.status})")
    beats = any(sense.better(result.objective, best) for best in row.known)
    return Answer(result.objective, result.seconds, failed=beats, stats=result.stats,
                  note="beats the optimum" if beats else "")  # fmt: skip


def _optimize(name: str, problem: Problem, how: dict[str, Any]) -> Any:
    """``api.optimize``'s result, or the Answer that says why there is none."""
    if not registry.info(name).available:
        return Answer(note="unavailable")
    try:
        return api.optimize(problem, backend=name, time_limit=TIME_LIMIT, **how)
    except BackendBug as exc:
        return Answer(note=f"wrong answer: {exc}", failed=True)
    except Exception as exc:  # a crosscheck reports every failure instead of stopping
        return Answer(note=f"error: {exc}", failed=True)


def _validate(name: str, problem: Problem) -> Answer:
    """``api.solve`` raises BackendBug on an invalid answer or a moved queen."""
    if not registry.info(name).available:
        return Answer(note="unavailable")
    try:
        result = api.solve(problem, backend=name, seed=SEED, time_limit=TIME_LIMIT)
    except BackendBug as exc:
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
