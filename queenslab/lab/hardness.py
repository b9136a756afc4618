"""The hardness study: random instances over a range of densities, solved by several
backends, to see the easy-hard-easy curve Gent, Jefferson and Nightingale (JAIR 2017)
describe.

For each density, ``samples`` instances are drawn (sample j from seed ``seed + j``, so a
density's instances are those ``queens generate`` writes for the same seeds) and every
chosen backend solves each one under a time limit. Runs that hit the limit are kept as
"limit" (they rank above every finished run in the quartiles, never dropped). The API
validates every board; where one backend proves an instance infeasible and another finds
a board, or a backend fails, the study stops and reports it.

Solves run in forked processes or on a Dask cluster (``queenslab.lab.runners``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from queenslab.core.backend import Feature, Task
from queenslab.core.errors import UsageError
from queenslab.core.integers import workers as checked_workers
from queenslab.core.result import Status
from queenslab.core.run import ProgressCallback
from queenslab.core.stats import primary_effort
from queenslab.io.instance import Instance
from queenslab.lab.generators import DEFAULT_MIN_OPEN, generate
from queenslab.lab.runners import Job, solves
from queenslab.lab.summary import Quartiles, figures, quartiles, spread
from queenslab.lab.table import Table
from queenslab.registry import backend_class, info

#: What each kind's density means on the paper's own axes, for the table's second column.
PAPER_AXIS: dict[str, tuple[str, Callable[[int, float], float]]] = {
    "blocked": ("open cells per row", lambda n, d: n - round(d * n * n) / n),
    "excluded-diagonals": ("diagonals / n", lambda n, d: round(d * n) / n),
    "completion": ("queens to place", lambda n, d: n - round(d * n)),
}


def blocked_kappa(n: int, density: float) -> float:
    """Constrainedness kappa of blocked n-queens, as the authors' published analysis
    computes it (Gent, MacIntyre, Prosser and Walsh's kappa, AAAI 1996).

    kappa = -log2(P[a solution misses every blocked cell]) / log2(number of solutions),
    with the number of solutions estimated by a Stirling-like formula and each queen
    taken to miss the blocked cells independently. kappa = 1 where one solution is
    expected: the predicted place of the phase transition.
    """
    blocked = round(density * n * n)
    open_per_row = n - blocked / n
    if open_per_row <= 0:
        return math.inf
    log_solutions = 0.5 * (1 + math.log2(math.pi) + math.log2(n)) + n * (
        math.log2(n) - math.log2(2.54) - math.log2(math.e)
    )
    return -n * math.log2(open_per_row / n) / log_solutions


#: Kinds with a constrainedness formula: a kappa column beside the density.
KAPPA: dict[str, Callable[[int, float], float]] = {"blocked": blocked_kappa}


@dataclass
class Sample:
    """One instance and what each backend made of it."""

    density: float
    seed: int
    instance: Instance
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)

    def verdict(self) -> str:
        """solvable / infeasible / undecided, from every backend's answer so far."""
        statuses = {outcome["status"] for outcome in self.outcomes.values()}
        if str(Status.SOLVED) in statuses:
            return "solvable"
        return "infeasible" if str(Status.INFEASIBLE) in statuses else "undecided"

    def problem(self, kind: str, n: int) -> str | None:
        """A failed backend, or a proof of infeasibility beside a found board."""
        where = f"{kind} n={n} density {self.density:g} seed {self.seed}"
        for backend, outcome in self.outcomes.items():
            if outcome["status"] == "error":
                return f"{where}: {backend}: {outcome['note']}"
        found = [b for b, o in self.outcomes.items() if o["status"] == str(Status.SOLVED)]
        proved = [b for b, o in self.outcomes.items() if o["status"] == str(Status.INFEASIBLE)]
        if found and proved:
            cols = self.outcomes[found[0]]["cols"]
            return (
                f"{where}: DISAGREEMENT: {', '.join(proved)} proved no solution, "
                f"{found[0]} found the valid board {cols}"
            )
        return None


@dataclass
class StudyReport:
    kind: str
    n: int
    densities: Sequence[float]
    backends: Sequence[str]
    samples: list[Sample]
    time_limit: float | None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def at(self, density: float) -> list[Sample]:
        return [s for s in self.samples if s.density == density]

    def seconds(self, density: float, backend: str) -> Quartiles | None:
        return quartiles([_finished(o, o.get("seconds")) for o in self._outcomes(density, backend)])

    def effort(self, density: float, backend: str) -> tuple[str | None, Quartiles | None]:
        """The backend's effort figure at this density (its name, its quartiles)."""
        outcomes = self._outcomes(density, backend)
        name = next((m for o in outcomes if (m := primary_effort(o.get("stats", {})))), None)
        if name is None:
            return None, None
        return name, quartiles([_finished(o, o.get("stats", {}).get(name)) for o in outcomes])

    def _outcomes(self, density: float, backend: str) -> list[dict[str, Any]]:
        return [s.outcomes[backend] for s in self.at(density) if backend in s.outcomes]

    def limits(self, density: float, backend: str) -> int:
        return sum(o["status"] not in _DECIDED for o in self._outcomes(density, backend))

    def solvable(self, density: float) -> float:
        found = self.at(density)
        return sum(s.verdict() == "solvable" for s in found) / len(found) if found else math.nan

    def peak(self, backend: str) -> float | None:
        """The density with the highest median time for ``backend``, among the medians of
        finished runs (None when the median run of every density hit the limit)."""
        medians = [
            (q.median, d)
            for d in self.densities
            if (q := self.seconds(d, backend)) and math.isfinite(q.median)
        ]
        return max(medians)[1] if medians else None

    def table(self) -> Table:
        """One row per density; in CSV, plain numbers: the quartiles of each backend's
        seconds and effort in columns of their own, its effort's name beside them."""
        axis, value = PAPER_AXIS[self.kind]
        kappa = KAPPA.get(self.kind)
        columns = ["density", axis, *(["kappa"] if kappa else []), "solvable", "undecided"]
        csv_columns = list(columns)
        for backend in self.backends:
            columns += [f"{backend} s", f"{backend} effort", f"{backend} limit"]
            csv_columns += [f"{backend} {what}" for what in _CSV_BACKEND]
        rows, numbers = [], []
        for density in self.densities:
            found = self.at(density)
            undecided = sum(s.verdict() == "undecided" for s in found)
            row = [f"{density:g}", f"{value(self.n, density):.3g}"]
            row += [f"{kappa(self.n, density):.2f}"] if kappa else []
            row += [f"{self.solvable(density):.2f}", str(undecided)]
            line: list[Any] = [density, round(value(self.n, density), 6)]
            line += [round(kappa(self.n, density), 6)] if kappa else []
            line += [round(self.solvable(density), 6), undecided]
            for backend in self.backends:
                name, effort = self.effort(density, backend)
                seconds, limits = self.seconds(density, backend), self.limits(density, backend)
                row += [
                    spread(seconds, "s"),
                    f"{spread(effort)} {name}" if name else "-",
                    str(limits),
                ]
                line += [*figures(seconds), name, *figures(effort), limits]
            rows.append(row)
            numbers.append(line)
        notes = [
            f"{self.kind} instances, n={self.n}, {len(found)} per density; "
            "median [first-third quartile]; 'limit' where a quartile fell on a timed-out run"
            + (f" (time limit {self.time_limit:g} s)" if self.time_limit else ""),
            *(
                f"peak median time of {backend}: density {peak:g}"
                for backend in self.backends
                if (peak := self.peak(backend)) is not None
            ),
        ]
        return Table(columns, rows, self.to_json(), notes, (csv_columns, numbers))

    def to_json(self) -> dict[str, Any]:
        rows = []
        for density in self.densities:
            per_backend = {}
            for backend in self.backends:
                name, effort = self.effort(density, backend)
                seconds = self.seconds(density, backend)
                per_backend[backend] = {
                    "seconds": seconds.to_json() if seconds else None,
                    "effort": {"name": name, **effort.to_json()} if effort else None,
                    "limits": self.limits(density, backend),
                }
            row = {"density": density, "solvable": self.solvable(density)}
            if self.kind in KAPPA:
                row["kappa"] = round(KAPPA[self.kind](self.n, density), 6)
            rows.append({**row, "backends": per_backend})
        return {
            "ok": self.ok,
            "kind": self.kind,
            "n": self.n,
            "time_limit": self.time_limit,
            "problems": self.problems,
            "densities": rows,
            "samples": [
                {
                    "density": s.density,
                    "seed": s.seed,
                    "verdict": s.verdict(),
                    "outcomes": {
                        b: {k: v for k, v in o.items() if k != "cols"}
                        for b, o in s.outcomes.items()
                    },
                }
                for s in self.samples
            ],
        }


_DECIDED = {str(Status.SOLVED), str(Status.INFEASIBLE)}
#: A backend's columns in CSV, after its name.
_CSV_BACKEND = ("s", "s q1", "s q3", "effort name", "effort", "effort q1", "effort q3", "limit")


def _finished(outcome: dict[str, Any], value: float | None) -> float:
    """A figure of a decided run; timed-out and undecided runs rank as infinite."""
    return value if outcome["status"] in _DECIDED and value is not None else math.inf


def density_range(text: str) -> list[float]:
    """``a:b:step`` (b included) or a single density."""
    parts = text.split(":")
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        numbers = []
    if len(numbers) == 1:
        numbers = [numbers[0], numbers[0], 1.0]
    if len(numbers) != 3 or not all(map(math.isfinite, numbers)):
        raise UsageError(f"densities must look like FIRST:LAST:STEP, got {text!r}")
    first, last, step = numbers
    if first < 0 or last < first or step <= 0:
        raise UsageError(f"densities need 0 <= FIRST <= LAST and STEP > 0, got {text!r}")
    count = math.floor((last - first) / step + 1e-9) + 1
    if count > 1000:
        raise UsageError(f"{text!r} gives {count} densities: at most 1000")
    return [round(first + i * step, 10) for i in range(count)]


def run_study(
    kind: str,
    n: int,
    densities: Sequence[float],
    samples: int,
    backends: Sequence[str],
    *,
    time_limit: float | None = None,
    seed: int = 0,
    min_open: int = DEFAULT_MIN_OPEN,
    variant: str = "standard",
    workers: int = 1,
    scheduler: str | None = None,
    progress: ProgressCallback | None = None,
    log: Callable[[str], None] | None = None,
) -> StudyReport:
    """Draw the instances, solve each with every backend, stop at the first problem."""
    workers = checked_workers(workers, scheduler)
    backends = list(dict.fromkeys(backends))
    for backend in backends:
        _check_backend(backend)
    drawn = [
        Sample(d, seed + j, generate(kind, n, d, seed + j, min_open=min_open, variant=variant))
        for d in densities
        for j in range(samples)
    ]
    jobs = [Job(s.density, i, b, s.instance) for i, s in enumerate(drawn) for b in backends]
    report = StudyReport(kind, n, densities, backends, drawn, time_limit)
    runner = solves(jobs, time_limit, workers, scheduler)
    try:
        for done, (job, outcome) in enumerate(runner, 1):
            sample = drawn[job.sample]
            sample.outcomes[job.backend] = outcome
            if log:
                log(f"density {job.density:g} seed {sample.seed} {job.backend}: "
                    f"{_describe(outcome)}")  # fmt: skip
            if progress:
                progress(done, len(jobs))
            problem = sample.problem(kind, n)
            if problem:
                report.problems.append(problem)
                break
    finally:
        runner.close()  # stops what still runs (a problem found, or Ctrl-C)
    return report


def _check_backend(name: str) -> None:
    """Refuse a backend that cannot take these boards; load the one that can.

    Loading here, before the workers are forked, imports its modules (OR-Tools, NumPy,
    compiled kernels) once: every worker inherits them instead of loading its own.
    """
    cls = backend_class(name)
    if (
        not cls.does(Task.SOLVE, "placement")
        or not {Feature.BLOCKED, Feature.GIVENS} <= cls.features
    ):
        raise UsageError(f"backend {name!r} cannot solve boards with blocked cells and givens")
    missing = info(name).missing
    if missing:
        raise UsageError(f"backend {name!r} needs {', '.join(missing)}")
    cls().load()


def _describe(outcome: dict[str, Any]) -> str:
    from queenslab.core.stats import summary

    if outcome["status"] == "error":
        note: str = outcome["note"]
        return note
    return f"{outcome['status']} in {outcome['seconds']:.3f} s; {summary(outcome['stats'])}"


def write_plot(report: StudyReport, path: str) -> None:
    """Median time and effort vs density per backend (quartile bands), fraction solvable
    on a second axis."""
    from queenslab.io.figures import pyplot, save

    plt = pyplot()
    fig, panels = plt.subplots(1, 2, figsize=(12, 4.8))
    densities = list(report.densities)
    for ax, what in zip(panels, ("seconds", "effort"), strict=True):
        for backend in report.backends:
            points = []
            for d in densities:
                name: str | None
                if what == "seconds":
                    name, found = "s", report.seconds(d, backend)
                else:
                    name, found = report.effort(d, backend)
                if found and math.isfinite(found.median) and found.median > 0:
                    points.append((d, found.q1, found.median, found.q3))
            if not points:
                continue
            xs = [p[0] for p in points]
            top = max(v for p in points for v in p[1:] if math.isfinite(v))  # caps a "limit"
            label = backend if what == "seconds" else f"{backend} ({name})"
            line = ax.plot(xs, [p[2] for p in points], marker="o", label=label)[0]
            ax.fill_between(xs, [p[1] for p in points], [min(p[3], top) for p in points],
                            color=line.get_color(), alpha=0.15)  # fmt: skip
        ax.set_yscale("log")
        ax.set_xlabel(f"density ({PAPER_AXIS[report.kind][0]}: see the table)")
        ax.set_ylabel("median seconds" if what == "seconds" else "median effort (its own unit)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc="upper left")
        share = ax.twinx()
        share.plot(densities, [report.solvable(d) for d in densities], "k--", label="solvable")
        share.set_ylim(-0.02, 1.02)
        share.set_ylabel("fraction solvable (dashed)")
    fig.suptitle(f"{report.kind}, n = {report.n}: cost and solvability vs density")
    save(fig, path)
