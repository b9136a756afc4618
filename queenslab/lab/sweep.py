"""Sweeps: every configuration of some backends x board sizes x tasks, each cell repeated,
every answer checked, summarised as quartiles of time and effort.

A configuration is a backend with one value for each of its options that has a list of
values to choose from: the choices it declares (``Option.choices``: the SAT encodings and
solvers, the CP-SAT formulations), or the ones found when the sweep starts: the MILP solvers
installed here (``pyomo_solvers.available_solvers``), the csp search's value orders (with
those registered). Other options keep their defaults. Run i of a cell (from 0) has seed i,
so that a randomised search varies across the repeats and a sweep can be run again.

Checks: the API validates every board; counts must agree across repeats, across cells of
the same n and with the published count (OEIS, for validation only), and "solvable" must
agree likewise. A cell whose run hits the time limit is shown as "limit" and larger n of
the same configuration are skipped; the sweep goes on.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from queenslab import api
from queenslab.core.backend import Family, Option, Task
from queenslab.core.errors import BackendBug, UsageError
from queenslab.core.integers import workers as checked_workers
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import ProgressCallback
from queenslab.core.stats import EFFORT_FIELDS, primary_effort
from queenslab.lab import reference
from queenslab.lab.summary import Quartiles, figures, number, quartiles, spread
from queenslab.lab.table import Table
from queenslab.problems import DEFAULT_KIND
from queenslab.registry import backend_class, info, uses

TASKS: dict[str, Task] = {"solve": Task.SOLVE, "count": Task.COUNT, "optimize": Task.OPTIMIZE}


def _milp_solvers() -> list[str]:
    from queenslab.models.pyomo_solvers import available_solvers

    return available_solvers()


def _value_orders() -> list[str]:
    from queenslab.exact.csp import VALUE_ORDERS

    return list(VALUE_ORDERS)


#: Options whose values are found when the sweep starts instead of declared: (backend, option).
FOUND_CHOICES: dict[tuple[str, str], Callable[[], list[str]]] = {
    ("milp", "solver"): _milp_solvers,
    ("csp", "values"): _value_orders,
}


def option_choices(backend: str, option: Option) -> tuple[str, ...]:
    """The values a sweep tries for ``option`` of ``backend`` (none: keep the default)."""
    if option.choices:
        return option.choices
    found = FOUND_CHOICES.get((backend, option.name))
    return tuple(found()) if found else ()


@dataclass(frozen=True)
class Config:
    """A backend and the option values it runs with."""

    backend: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return " ".join([self.backend, *(value for _, value in self.options)])


def configurations(
    backends: Sequence[str],
    tasks: Sequence[str],
    wanted: Mapping[str, Sequence[str]],
    problem: str = DEFAULT_KIND,
    *,
    model: str | None = None,
    symmetry: str = "none",
) -> list[Config]:
    """Every configuration of ``backends``: each option with choices x its values, among
    the options a backend uses in one of ``tasks`` on this question (cpsat's placement
    formulations are no axis of a domination sweep, whose every run would refuse them).

    ``wanted`` narrows an option to some of its values (by option name); a value that no
    chosen backend offers is a usage error. Every backend must do every task on the
    problem kind ``problem`` (with ``model`` and ``symmetry``, as ``run_sweep`` asks it).
    """
    native = model is None and symmetry == "none"  # as ``Question.native``
    configs: list[Config] = []
    offered: set[tuple[str, str]] = set()
    for name in dict.fromkeys(backends):
        cls = backend_class(name)
        missing = [task for task in tasks if not cls.does(TASKS[task], problem)]
        if missing:
            what = "" if problem == DEFAULT_KIND else f" the {problem} problem"
            raise UsageError(f"backend {name!r} cannot {missing[0]}{what}")
        if not info(name).available:
            raise UsageError(f"backend {name!r} is unavailable: {info(name).why_unavailable}")
        axes = []
        for option in cls.options:
            used = any(uses(cls, option.name, TASKS[t], problem, native) for t in tasks)
            choices = option_choices(name, option) if used else ()
            if not choices:
                continue
            asked = wanted.get(option.name)
            values = list(choices) if asked is None else [v for v in asked if v in choices]
            offered.update((option.name, v) for v in values)
            if not values:
                raise UsageError(
                    f"no --{option.name.replace('_', '-')} value given applies to backend "
                    f"{name!r} (it offers: {', '.join(choices)})"
                )
            axes.append([(option.name, value) for value in values])
        configs += [Config(name, combo) for combo in itertools.product(*axes)]
    for option_name, given in wanted.items():
        for value in given:
            if (option_name, value) not in offered:
                raise UsageError(f"no chosen backend offers {option_name} {value!r}")
    return configs


@dataclass
class Measurement:
    """One run of one cell: its status, answer (a count; 1/0 for found/none) and figures."""

    status: str
    answer: int | None = None
    seconds: float = math.inf
    stats: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""

    @property
    def finished(self) -> bool:
        return self.answer is not None


@dataclass
class SweepCell:
    config: Config
    task: str
    n: int
    runs: list[Measurement] = field(default_factory=list)
    note: str = ""  # "limit", "skipped (...)", "error: ...", "wrong: ..."
    failed: bool = False

    @property
    def shown_as(self) -> str | None:
        """What the table shows instead of figures: skipped, limit, error, wrong (or None)."""
        if not self.runs:
            return "skipped"
        if any(run.finished for run in self.runs):
            return None
        return self.note.split(":")[0]

    @property
    def answer(self) -> int | None:
        answers = {run.answer for run in self.runs if run.finished}
        return answers.pop() if len(answers) == 1 else None

    def seconds(self) -> Quartiles | None:
        return quartiles([run.seconds for run in self.runs])

    def effort(self, name: str) -> Quartiles | None:
        values = [run.stats.get(name, math.inf) if run.finished else math.inf for run in self.runs]
        return quartiles(values) if any(name in run.stats for run in self.runs) else None

    def to_json(self) -> dict[str, Any]:
        seconds = self.seconds()
        names = [f for f in EFFORT_FIELDS if any(f in run.stats for run in self.runs)]
        return {
            "backend": self.config.backend,
            "options": dict(self.config.options),
            "task": self.task,
            "n": self.n,
            "answer": self.answer,
            "note": self.note or None,
            "failed": self.failed,
            "runs": len(self.runs),
            "seconds": None if seconds is None else seconds.to_json(),
            "effort": {name: q.to_json() for name in names if (q := self.effort(name))},
            "stats": [run.stats for run in self.runs],
        }


@dataclass
class SweepReport:
    cells: list[SweepCell]
    ns: Sequence[int]
    tasks: Sequence[str]
    variant: str
    blocked: Sequence[tuple[int, int]]
    repeat: int
    time_limit: float | None
    workers: int | None = None
    problems: list[str] = field(default_factory=list)  # disagreements and failures
    #: The question: ``problem``, ``model`` and ``symmetry`` as the API takes them.
    asked: dict[str, Any] = field(default_factory=lambda: {"problem": DEFAULT_KIND})

    @property
    def ok(self) -> bool:
        return not self.problems

    def table(self) -> Table:
        """One row per configuration and task, time and effort per n; data: every cell.

        In CSV each n has a note (limit, skipped, error, wrong; empty for figures), then
        the median and quartiles of its seconds and of its effort, as plain numbers. With
        several n, a last column gives the median over n of the cells' median efforts: one
        size can flatter or sink a method (a cell without figures counts as a limit).
        """
        rows, numbers = [], []
        over_n = len(self.ns) > 1
        columns = ["configuration", "task", "effort"]
        columns += [f"n={n} {what}" for n in self.ns for what in ("s", "effort")]
        columns += ["effort, median over n"] if over_n else []
        csv_columns = ["configuration", "task", "effort"]
        csv_columns += [f"n={n} {what}" for n in self.ns for what in _CSV_CELL]
        csv_columns += ["effort median over n"] if over_n else []
        by_key = {(c.config, c.task, c.n): c for c in self.cells}
        for config, task in dict.fromkeys((c.config, c.task) for c in self.cells):
            cells = [by_key[config, task, n] for n in self.ns]
            measure = next(
                (m for c in cells for run in c.runs if (m := primary_effort(run.stats))), None
            )
            row = [config.label, task, measure or "-"]
            line: list[Any] = [config.label, task, measure]
            medians = []
            for cell in cells:
                effort = cell.effort(measure) if measure and not cell.shown_as else None
                medians.append(math.inf if effort is None or cell.failed else effort.median)
                note = cell.shown_as or ("wrong" if cell.failed else None)
                seconds = None if cell.shown_as else cell.seconds()
                line += [note, *figures(seconds), *figures(effort)]
                if cell.shown_as:
                    row += [cell.shown_as, "-"]
                    continue
                row += [spread(seconds, "s"), spread(effort)]
                if cell.failed:
                    row[-2] += " WRONG"
            if over_n:
                typical = quartiles(medians) if measure else None
                row.append("-" if typical is None else number(typical.median))
                line.append(figures(typical)[0])
            rows.append(row)
            numbers.append(line)
        return Table(columns, rows, self.to_json(), self._notes(), (csv_columns, numbers))

    def _notes(self) -> list[str]:
        setting = [f"{self.repeat} run(s) per cell: median [first-third quartile]"]
        if self.time_limit:
            setting.append(f"time limit {self.time_limit:g} s per run")
        if self.workers:
            setting.append(f"{self.workers} worker(s) where a backend has a workers option")
        notes = ["; ".join(setting)]
        for task in self.tasks:
            answers = {c.n: c.answer for c in self.cells if c.task == task and c.answer is not None}
            if answers:
                shown = ", ".join(f"n={n}: {_answer_text(task, a)}" for n, a in answers.items())
                notes.append(f"{task} answers checked ({shown})")
        return notes + [f"PROBLEM: {problem}" for problem in self.problems]

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            **self.asked,
            "variant": self.variant,
            "blocked": [list(c) for c in self.blocked],
            "repeat": self.repeat,
            "time_limit": self.time_limit,
            "workers": self.workers,
            "problems": self.problems,
            "cells": [cell.to_json() for cell in self.cells],
        }


#: A cell's columns in CSV, after "n=N ".
_CSV_CELL = ("note", "s", "s q1", "s q3", "effort", "effort q1", "effort q3")


def _answer_text(task: str, answer: int) -> str:
    return ("a board" if answer else "none") if task == "solve" else str(answer)


def run_sweep(
    configs: Sequence[Config],
    ns: Sequence[int],
    tasks: Sequence[str],
    *,
    repeat: int = 1,
    time_limit: float | None = None,
    workers: int | None = None,
    variant: str = "standard",
    blocked: Sequence[tuple[int, int]] = (),
    problem: str = DEFAULT_KIND,
    model: str | None = None,
    symmetry: str = "none",
    progress: ProgressCallback | None = None,
    log: Callable[[str], None] | None = None,
) -> SweepReport:
    """Run every cell ``repeat`` times (sizes in increasing order), then check the answers.

    ``workers`` goes to every backend that has a ``workers`` option (None: its default).
    ``problem`` (with its ``model`` and ``symmetry``) is the question: for a kind other
    than placement, ``optimize`` answers its proven optimum and ``count`` its optima.
    """
    if workers is not None:  # refused once, not in every cell
        workers = checked_workers(workers)
    asked = {"problem": problem, "model": model, "symmetry": symmetry}
    problems = {n: Problem(n, variant=variant, blocked=tuple(blocked), kind=problem) for n in ns}
    total = len(configs) * len(tasks) * len(ns) * repeat
    done = 0
    cells = []
    for config, task in itertools.product(configs, tasks):
        stopped_at = None
        for n in sorted(ns):
            cell = SweepCell(config, task, n)
            cells.append(cell)
            if stopped_at is not None:
                cell.note = f"skipped (limit at n={stopped_at})"
                done += repeat
                continue
            for seed in range(repeat):
                measured = _measure(config, task, problems[n], time_limit, workers, asked, seed)
                cell.runs.append(measured)
                done += 1
                if log:
                    log(f"{config.label} {task} n={n}: {_describe(measured)}")
                if progress:
                    progress(done, total)
                if not measured.finished:
                    break
            done += repeat - len(cell.runs)
            if any(not run.finished for run in cell.runs):
                cell.note = next(run.note for run in cell.runs if not run.finished)
                cell.failed = cell.note != "limit"
                stopped_at = n if cell.note == "limit" else None
    report = SweepReport(
        cells, ns, tasks, variant, blocked, repeat, time_limit, workers, asked=asked
    )
    _check(report, problems)
    return report


def _measure(
    config: Config,
    task: str,
    problem: Problem,
    time_limit: float | None,
    workers: int | None,
    asked: Mapping[str, Any],
    seed: int,
) -> Measurement:
    """One call through the API (which validates every board); failures become notes.

    Counting takes no seed: a whole tree does not depend on the order it is walked in."""
    options: dict[str, Any] = dict(config.options)
    if workers is not None and uses(backend_class(config.backend), "workers", Task(task),
                                    problem.kind):  # fmt: skip
        options["workers"] = workers
    how: dict[str, Any] = {"time_limit": time_limit}
    if backend_class(config.backend).family is Family.MODEL:  # a local search builds none
        how.update(model=asked["model"], symmetry=asked["symmetry"])
    result: CountResult | OptimizeResult | SolveResult
    try:
        if task == "count":
            result = api.count(problem, backend=config.backend, **how, **options)
            answer = result.total
        elif task == "optimize":
            result = api.optimize(problem, backend=config.backend, seed=seed, **how, **options)
            answer = result.objective if result.status is Status.OPTIMAL else None
        else:
            result = api.solve(
                problem, backend=config.backend, seed=seed, time_limit=time_limit, **options
            )
            answer = {Status.SOLVED: 1, Status.INFEASIBLE: 0}.get(result.status)
    except BackendBug as exc:
        return Measurement("error", note=f"wrong: {exc}")
    except Exception as exc:  # a sweep reports every failure instead of stopping
        return Measurement("error", note=f"error: {exc}")
    status = str(result.status)
    if answer is None:
        return Measurement(status, None, math.inf, dict(result.stats), "limit")
    return Measurement(status, answer, result.seconds, dict(result.stats))


def _describe(run: Measurement) -> str:
    from queenslab.core.stats import summary

    if not run.finished:
        return run.note
    return f"{run.status} in {run.seconds:.3f} s; {summary(run.stats)}"


def _check(report: SweepReport, problems: Mapping[int, Problem]) -> None:
    """Mark every cell whose answer differs from its repeats, its row or the published count."""
    for cell in report.cells:
        if cell.failed:
            report.problems.append(f"{cell.config.label} {cell.task} n={cell.n}: {cell.note}")
    for task, n in itertools.product(report.tasks, report.ns):
        row = [c for c in report.cells if c.task == task and c.n == n and c.runs]
        published = None if problems[n].blocked else _published(report, task, n)
        for cell in row:
            answers = {a for run in cell.runs if (a := run.answer) is not None}  # finished
            if len(answers) > 1:
                _wrong(report, cell, f"repeats disagree: {sorted(answers)}")
        answers = {a for c in row if (a := c.answer) is not None}
        if published is not None:
            for cell in row:
                if cell.answer is not None and cell.answer != published:
                    _wrong(report, cell, f"answered {cell.answer}, published {published}")
        elif len(answers) > 1:
            for cell in row:
                if cell.answer is not None:
                    _wrong(report, cell, f"answers disagree at n={n}: {sorted(answers)}")


def _published(report: SweepReport, task: str, n: int) -> int | None:
    """The published answer of a cell (validation only): the count of placements (1 or 0
    for solve), a kind's optimum, or its number of optima (not of their classes)."""
    problem = report.asked["problem"]
    if problem == DEFAULT_KIND:
        total = reference.total(n, report.variant)
        return total if task == "count" or total is None else int(total > 0)
    if task == "optimize":
        return reference.optimum(problem, n, report.variant)
    if report.asked.get("symmetry", "none") == "none":
        return reference.optima(problem, n, report.variant)
    return None


def _wrong(report: SweepReport, cell: SweepCell, why: str) -> None:
    cell.failed, cell.note = True, f"wrong: {why}"
    report.problems.append(f"{cell.config.label} {cell.task} n={cell.n}: {why}")


#: More lines than this share a colour per backend and first option value (one legend entry
#: each): 153 SAT configurations cannot have a legend entry apiece.
MAX_LEGEND = 12


def write_plot(report: SweepReport, path: str) -> None:
    """Median seconds and median effort vs n (log scale), one line per configuration."""
    from queenslab.io.figures import pyplot, save

    plt = pyplot()
    keys = list(dict.fromkeys((c.config, c.task) for c in report.cells))
    grouped = len(keys) > MAX_LEGEND
    labels = [_line_label(config, task, report.tasks, grouped) for config, task in keys]
    names = list(dict.fromkeys(labels))
    colors = plt.get_cmap("tab10" if len(names) <= 10 else "tab20")
    measures: dict[str, str | None] = {}
    styles: dict[str, dict[str, Any]] = {}
    fig, (timing, effort) = plt.subplots(1, 2, figsize=(12, 5))
    for (config, task), label in zip(keys, labels, strict=True):
        cells = [c for c in report.cells if (c.config, c.task) == (config, task)]
        measure = next((m for c in cells for r in c.runs if (m := primary_effort(r.stats))), None)
        measures[label] = measure
        styles[label] = style = {
            "color": colors(names.index(label) % colors.N),
            "marker": "." if grouped else "o",
            "linewidth": 0.8 if grouped else 1.5,
            "linestyle": "-" if task == "count" else "--",
        }
        timing.plot(*_medians(cells, lambda c: c.seconds()), **style)
        if measure:
            effort.plot(*_medians(cells, operator.methodcaller("effort", measure)), **style)
    one_measure = len(set(measures.values())) == 1
    handles = [
        plt.Line2D([], [], **{**styles[name], "marker": "o"},
                   label=name if one_measure else f"{name} ({measures[name] or 'no effort'})")
        for name in names
    ]  # fmt: skip
    unit = next(iter(measures.values())) if one_measure else None
    for ax, what in ((timing, "median seconds"), (effort, f"median {unit or 'effort'}")):
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel(what)
        ax.set_xticks(list(report.ns))
        ax.grid(True, which="major", alpha=0.3)
    dashed = " (count: solid, solve: dashed)" if len(report.tasks) > 1 else ""
    timing.set_title("time per cell" + dashed)
    effort.set_title(f"effort per cell: {unit}" if unit else "effort per cell, each in its unit")
    fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5),
               fontsize="small", title="lines grouped" if grouped else None)  # fmt: skip
    save(fig, path)


def _line_label(config: Config, task: str, tasks: Sequence[str], grouped: bool) -> str:
    """A line's legend name; grouped, only its backend and first option value."""
    name = " ".join(config.label.split()[:2]) if grouped else config.label
    return f"{name} {task}" if len(tasks) > 1 and not grouped else name


def _medians(
    cells: Sequence[SweepCell], measure: Callable[[SweepCell], Quartiles | None]
) -> tuple[list[int], list[float]]:
    """(n, median) of the cells with a finite, positive median (a log axis shows no zero)."""
    points = [(c.n, q.median) for c in cells if (q := measure(c))]
    kept = [(n, v) for n, v in points if math.isfinite(v) and v > 0]
    return [n for n, _ in kept], [v for _, v in kept]
