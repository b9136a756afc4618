"""Cross-validation of a problem kind: every paradigm's optimum and count of optima
against each other and against the published values (OEIS, for validation only).

Two tables, each a ``CrosscheckReport``: the optimum each complete backend proves (and the
value each heuristic reaches, which may not beat it), and the number of optimal answers
each counting backend finds. A disagreement in either, or an answer a backend could not
back, fails the report. Sizes a backend is not asked about are listed as skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from queenslab import api, boards
from queenslab.boards import DEFAULT_VARIANT, Cell
from queenslab.core.backend import Family, Feature, Task
from queenslab.core.errors import UsageError
from queenslab.core.model import Sense
from queenslab.core.problem import Problem
from queenslab.core.result import Status
from queenslab.core.run import ProgressCallback
from queenslab.lab import reference
from queenslab.lab.crosscheck import TIME_LIMIT, Answer, CrosscheckReport, Row
from queenslab.problems import kind
from queenslab.registry import backend_class, info, names

#: Largest n each backend is asked to count the optima of (minutes beyond: the count must
#: prove that no other answer reaches the optimum); optimising is asked at every n given.
MAX_COUNT_N: dict[str, int] = {"sat": 9, "cpsat": 8}
DEFAULT_MAX_COUNT_N = 8


@dataclass
class KindCrosscheck:
    problem: str
    values: CrosscheckReport  # "counters" here: the backends proving the optimum
    optima: CrosscheckReport  # the backends counting the optimal answers

    @property
    def ok(self) -> bool:
        return self.values.ok and self.optima.ok

    def to_json(self, stats: bool = False) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problem": self.problem,
            "values": self.values.to_json(stats),
            "counts": self.optima.to_json(stats),
        }

    def to_text(self, stats: bool = False) -> str:
        return (
            f"{self.problem}: the optimum\n{self.values.to_text(stats)}\n\n"
            f"{self.problem}: how many optimal answers\n{self.optima.to_text(stats)}"
        )

    def _repr_html_(self) -> str:
        return self.values._repr_html_() + self.optima._repr_html_()


def crosscheck_kind(
    problem: str,
    ns: Sequence[int],
    backends: Sequence[str] | None = None,
    *,
    variant: str = DEFAULT_VARIANT,
    blocked: Sequence[Cell] = (),
    model: str | None = None,
    symmetry: str = "none",
    progress: ProgressCallback | None = None,
) -> KindCrosscheck:
    """Optimise every n with every backend that can, and count the optima with every
    backend that counts them, for problem kind ``problem`` (with ``symmetry``
    lex-leader, the classes of optima: no count is published for them)."""
    question = kind(problem)
    boards.variant(variant)
    sample = Problem(max(ns), variant=variant, blocked=tuple(blocked), kind=problem)
    solvers, heuristics, counters = _split(backends, sample)
    problems = [Problem(n, variant=variant, blocked=tuple(blocked), kind=problem) for n in ns]
    published = not blocked
    values = [Row(n, reference.optimum(problem, n, variant) if published else None) for n in ns]
    counted = published and symmetry == "none"
    optima = [Row(n, reference.optima(problem, n, variant) if counted else None) for n in ns]
    how = {"model": model, "symmetry": symmetry}
    total = len(ns) * (len(solvers) + len(heuristics) + len(counters))
    done = 0
    for instance, value_row, count_row in zip(problems, values, optima, strict=True):
        for name in solvers:
            value_row.counts[name] = _optimum(name, instance, how)
        for name in heuristics:
            value_row.heuristics[name] = _reached(name, instance, question.sense, value_row)
        for name in counters:
            count_row.counts[name] = _count(name, instance, how)
        done += len(solvers) + len(heuristics) + len(counters)
        if progress:
            progress(done, total)
    return KindCrosscheck(
        problem,
        CrosscheckReport(solvers, heuristics, values, variant),
        CrosscheckReport(counters, [], optima, variant),
    )


def _split(
    backends: Sequence[str] | None, problem: Problem
) -> tuple[list[str], list[str], list[str]]:
    """Complete optimisers, heuristics and counters of the kind: the chosen backends, or
    every one that takes the board."""
    chosen = list(dict.fromkeys(backends)) if backends is not None else names()
    solvers, heuristics, counters = [], [], []
    for name in chosen:
        cls = backend_class(name)  # UsageError for an unknown name
        takes = (
            problem.kind in cls.kinds
            and problem.variant in cls.variants
            and (not problem.blocked or Feature.BLOCKED in cls.features)
        )
        if takes and cls.does(Task.OPTIMIZE, problem.kind):
            (heuristics if cls.family is Family.HEURISTIC else solvers).append(name)
        if takes and cls.does(Task.COUNT, problem.kind):
            counters.append(name)
        if backends is not None and not (takes and cls.does(Task.OPTIMIZE, problem.kind)):
            raise UsageError(
                f"backend {name!r} does not optimise the {problem.kind} problem on this board"
            )
    return solvers, heuristics, counters


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
    the run's --model and --symmetry are not its to take."""
    result = _optimize(name, problem, {})
    if isinstance(result, Answer):
        return result
    if result.objective is None:
        return Answer(seconds=result.seconds, note=f"no answer ({result.status})")
    known = {a.value for a in row.counts.values() if a.value is not None}
    if row.oeis is not None:
        known.add(row.oeis)
    beats = any(
        (result.objective < best) if sense is Sense.MIN else (result.objective > best)
        for best in known
    )
    return Answer(result.objective, result.seconds, failed=beats, stats=result.stats,
                  note="beats the optimum" if beats else "")  # fmt: skip


def _optimize(name: str, problem: Problem, how: dict[str, Any]) -> Any:
    if not info(name).available:
        return Answer(note="unavailable")
    try:
        return api.optimize(problem, backend=name, time_limit=TIME_LIMIT, **how)
    except api.BackendBug as exc:
        return Answer(note=f"wrong answer: {exc}", failed=True)
    except Exception as exc:  # a crosscheck reports every failure instead of stopping
        return Answer(note=f"error: {exc}", failed=True)


def _count(name: str, problem: Problem, how: dict[str, Any]) -> Answer:
    if problem.n > MAX_COUNT_N.get(name, DEFAULT_MAX_COUNT_N):
        return Answer(note="skipped (n too large)")
    if not info(name).available:
        return Answer(note="unavailable")
    try:
        result = api.count(problem, name, time_limit=TIME_LIMIT, **how)
    except Exception as exc:  # a crosscheck reports every failure instead of stopping
        return Answer(note=f"error: {exc}", failed=True)
    if result.total is None:
        return Answer(seconds=result.seconds, note=str(result.status), stats=result.stats)
    return Answer(result.total, result.seconds, stats=result.stats)
