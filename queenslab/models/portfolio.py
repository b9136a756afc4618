"""A portfolio: several model backends race on one question; the first proof ends the race.

No paradigm proves every kind fastest, and which one wins at a given size is not known in
advance (HiGHS proves domination numbers first, CaDiCaL peaceable armies:
benchmarks/portfolio.py), so the portfolio runs its members at once and answers with the
first of them to prove it, for the CPU of all of them.

Each member answers through its own public method on a run of its own (the same deadline,
an equal share of the CPU left, a stop of its own), from a thread here whose forked child
does the solving (``runtime.forked``); what a member learns comes back through its run and
is merged into the portfolio's: the best answer of any member and the best bound of any
(every member solves the same model, so a bound one proves holds for all). The race ends
at the first proof, a member's optimum, infeasibility, yes or no, or the best answer
meeting the best bound when they come from different members (a proof by the portfolio as
a whole), and the other members are then stopped (after the half-second grace
``forked.in_child`` gives a stopped child). ``stats`` names who proved it (``proved_by``)
and what became of each member. With no model and no symmetry asked for, every member
builds the setting measured fastest for the portfolio (``problems.defaults.tuned``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from queenslab.core.backend import EVERY_KIND, Backend, Family, Option, Task, positive_int
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.model import Sense
from queenslab.core.problem import Problem
from queenslab.core.result import DecideResult, OptimizeResult, Status
from queenslab.core.run import MIN_TIME_LIMIT, News, Run
from queenslab.models.cpsat import CpSatBackend
from queenslab.models.maxsat import MaxSatBackend
from queenslab.models.milp import MilpBackend
from queenslab.models.sat import SatBackend
from queenslab.models.zero_one.backend import KindModels
from queenslab.problems.defaults import tuned
from queenslab.runtime.stop import POLL_SECONDS

#: The backends a portfolio may race, by name.
MEMBERS: Mapping[str, type[KindModels]] = MappingProxyType(
    {cls.name: cls for cls in (MilpBackend, CpSatBackend, SatBackend, MaxSatBackend)}
)
#: The members raced unless the user names others. Measured (benchmarks/portfolio.py, 2
#: cores): HiGHS proved domination n = 10-12 first, CaDiCaL peaceable armies n = 7-8;
#: CP-SAT proved none of them first and its two workers took half the portfolio's CPU,
#: slowing the winner, so it races only when named.
DEFAULT_MEMBERS = "milp,sat"

#: A member's result once it has run: an answer, or the exception it raised.
Finish = OptimizeResult | DecideResult | Exception
#: What a member is asked to do on its own run.
Work = Callable[[KindModels, Run], OptimizeResult | DecideResult]


def member_names(value: Any) -> tuple[str, ...]:
    """Option converter: member names, comma-separated (or a sequence of them)."""
    names = tuple(
        str(name).strip() for name in (value.split(",") if isinstance(value, str) else value)
    )
    if not names or not all(names):
        raise ValueError("name the members separated by commas, e.g. milp,cpsat")
    unknown = [name for name in names if name not in MEMBERS]
    if unknown:
        raise ValueError(f"no member {unknown[0]!r}; choose from: {', '.join(MEMBERS)}")
    if len(set(names)) < len(names):
        raise ValueError("a member is named twice")
    return names


@dataclass
class _Best:
    """The best value known and the member it came from."""

    value: int | None = None
    member: str | None = None


class _Race:
    """The merged news of the members, and how each of them ended."""

    def __init__(self, run: Run, sense: Sense) -> None:
        self.run = run
        self.sense = sense
        self.answer = _Best()
        self.answer_value: Any = None
        self.bound = _Best()
        self.proved_by: str | None = None
        #: Each member started: its run, and how it ended (``PortfolioBackend._ended``).
        self.runs: dict[str, Run] = {}
        self.ended: dict[str, str] = {}
        self._lock = threading.Lock()

    def news(self, member: str) -> Callable[[str, News, float], None]:
        """The ``NewsCallback`` of one member's run."""

        def heard(event: str, news: News, _seconds: float) -> None:
            if event == "solution":
                self.offer(member, news.objective, news.answer, news.bound)
            elif event == "bound":
                self.offer(member, None, None, news.bound)

        return heard

    def offer(self, member: str, objective: int | None, answer: Any, bound: int | None) -> None:
        """Keep what improves on the merged answer and bound, and tell the run."""
        with self._lock:
            if answer is not None and (
                self.answer.value is None
                or (objective is not None and self.sense.better(objective, self.answer.value))
            ):
                self.answer, self.answer_value = _Best(objective, member), answer
                self.run.learn("solution", News(objective, answer, self.bound.value))
            if bound is not None and (
                self.bound.value is None or self.sense.tighter(bound, self.bound.value)
            ):
                self.bound = _Best(bound, member)
                self.run.learn("bound", News(bound=bound))
            if self.proved_by is None and self.met:
                same = self.answer.member == self.bound.member
                self.proved_by = self.answer.member if same else "portfolio"

    @property
    def met(self) -> bool:
        """Whether the best answer reaches the best bound: proven optimal."""
        answer, bound = self.answer.value, self.bound.value
        # a proven bound is never beaten: the answer meets it when no better than it
        return answer is not None and bound is not None and not self.sense.better(bound, answer)

    def proved(self, member: str) -> None:
        with self._lock:
            self.proved_by = self.proved_by or member

    def stats(self, members: Mapping[str, KindModels]) -> dict[str, Any]:
        """``proved_by`` (None: nobody), who gave the best answer and bound, if anyone, and
        how each member ended, with its own statistics."""
        ended = {
            name: {"status": self.ended[name], **_rounded(self.runs[name].stats)}
            if name in self.ended else {"status": "not started"}
            for name in members
        }  # fmt: skip
        given = {"answer_by": self.answer.member, "bound_by": self.bound.member}
        return {
            "proved_by": self.proved_by,
            **{key: member for key, member in given.items() if member is not None},
            "members": ended,
        }


def _rounded(stats: Mapping[str, Any]) -> dict[str, Any]:
    """A member's statistics as the result's own are written: seconds to the microsecond."""
    return {key: round(value, 6) if isinstance(value, float) else value
            for key, value in stats.items()}  # fmt: skip


class PortfolioBackend(Backend):
    name = "portfolio"
    family = Family.MODEL
    tasks = MappingProxyType({EVERY_KIND: frozenset({Task.OPTIMIZE, Task.DECIDE})})
    features = frozenset.intersection(*(cls.features for cls in MEMBERS.values()))
    variants = frozenset.intersection(*(cls.variants for cls in MEMBERS.values()))
    summary = "races model backends (milp, sat, cpsat...) on one question; first proof wins"
    requires: ClassVar[Mapping[str, str]] = {
        module: package for cls in MEMBERS.values() for module, package in cls.requires.items()
    }
    options = (
        Option("members", f"backends raced, comma-separated ({', '.join(MEMBERS)})",
               DEFAULT_MEMBERS, convert=member_names, metavar="B,B"),
        Option("workers", "members racing at once (the others start as one ends unproven) "
               "[default: all]", convert=positive_int, metavar="K"),
    )  # fmt: skip
    uses_seed = True  # cpsat's, when it races

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        names = member_names(self.settings["members"])
        self.settings["members"] = ",".join(names)
        self.members = {name: MEMBERS[name]() for name in names}

    def load(self) -> None:
        for member in self.members.values():
            member.load()

    def load_for(self, task: Task, problem: Problem, question: Question) -> None:
        for member in self.members.values():
            member.load_for(task, problem, question)

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        race = _Race(run, question.kind.goal())
        question = tuned(problem, run, self.name, question, builds=False)
        ends = self._race(run, race, lambda member, own: member.optimize(problem, own, question))
        kind = problem.kind
        infeasible = [end for end in ends.values() if _status(end) is Status.INFEASIBLE]
        if infeasible:
            assert isinstance(infeasible[0], OptimizeResult)
            result = OptimizeResult(Status.INFEASIBLE, kind=kind, message=infeasible[0].message)
        elif race.met:
            value = race.answer.value
            result = OptimizeResult(Status.OPTIMAL, value, race.answer_value, kind, value)
        elif race.answer.value is not None:
            status = Status.UNKNOWN if _all_failed(ends) else Status.FEASIBLE
            result = OptimizeResult(
                status, race.answer.value, race.answer_value, kind, race.bound.value
            )
        else:
            status = Status.UNKNOWN if _all_failed(ends) else Status.LIMIT
            result = OptimizeResult(status, kind=kind, bound=race.bound.value)
        if result.status is Status.UNKNOWN:
            result.message = _failures(race)
        result.stats = race.stats(self.members)
        return result

    def decide(
        self, problem: Problem, run: Run, question: Question, value: int, proof: str | None = None
    ) -> DecideResult:
        if proof is not None:
            raise UsageError("backend 'portfolio' writes no proof; --proof needs -b sat")
        race = _Race(run, question.kind.goal())
        question = tuned(problem, run, self.name, question, builds=False)
        ends = self._race(
            run, race, lambda member, own: member.decide(problem, own, question, value)
        )
        decided = [end for end in ends.values() if _status(end) in (Status.YES, Status.NO)]
        if decided:
            assert isinstance(decided[0], DecideResult)
            result = decided[0]
        elif _all_failed(ends):
            result = DecideResult(Status.UNKNOWN, kind=problem.kind, value=value,
                                  message=_failures(race))  # fmt: skip
        else:
            result = DecideResult(Status.LIMIT, kind=problem.kind, value=value)
        result.stats = race.stats(self.members)
        return result

    def _race(self, run: Run, race: _Race, work: Work) -> dict[str, Finish]:
        """Run the members, ``workers`` at a time, until one proves the answer, the best
        answer meets the best bound, every member has ended, or the run must stop (Ctrl-C
        stops them all, then goes on up); each member's end is recorded in ``race``."""
        names = list(self.members)
        at_once = min(self.settings["workers"] or len(names), len(names))
        # Each member's child stops itself at its share of the CPU left: the parent's clock
        # sees a child's CPU only once it has ended.
        cpu = run.cpu_left()
        share = None if cpu is None else _at_least(cpu / len(names))
        finished: queue.Queue[tuple[str, Finish]] = queue.Queue()
        ends: dict[str, Finish] = {}
        threads: list[threading.Thread] = []
        halted: str | None = None  # why the members still running were stopped

        def halt(why: str) -> None:
            nonlocal halted
            halted = halted or why
            for own in race.runs.values():
                own.stop()

        try:
            while len(ends) < len(race.runs) or (names and halted is None):
                while names and halted is None and len(race.runs) - len(ends) < at_once:
                    if run.should_stop():
                        halt("limit")
                        break
                    name = names.pop(0)
                    own = Run(run.seed, _at_least(run.remaining()), cpu_limit=share,
                              on_news=race.news(name))  # fmt: skip
                    race.runs[name] = own
                    threads.append(_start(name, self.members[name], own, work, finished))
                try:
                    name, end = finished.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    run.tick()
                else:
                    ends[name] = end
                    race.ended[name] = self._ended(race, name, end, halted)
                if halted is None and race.proved_by is not None:
                    halt("stopped")
                elif halted is None and run.should_stop():
                    halt("limit")
        except BaseException:  # Ctrl-C: every member stops before the run reports its best
            halt("limit")
            raise
        finally:
            for thread in threads:
                thread.join()
        return ends

    @staticmethod
    def _ended(race: _Race, name: str, end: Finish, halted: str | None) -> str:
        """How member ``name`` ended (its result merged into the race): its status, or
        ``stopped`` (another proved first) or ``limit`` when stopped by the portfolio."""
        if isinstance(end, Exception):
            return f"error: {type(end).__name__}: {end}"
        status = end.status
        if isinstance(end, OptimizeResult):
            bound = end.objective if status is Status.OPTIMAL else end.bound
            race.offer(name, end.objective, end.answer, bound)
        if status in (Status.OPTIMAL, Status.INFEASIBLE, Status.YES, Status.NO):
            race.proved(name)
            return str(status)
        if status is Status.UNKNOWN:
            return f"error: {end.message or 'the solver failed'}"
        return halted or str(status)


def _start(
    name: str, member: KindModels, own: Run, work: Work, finished: queue.Queue[tuple[str, Finish]]
) -> threading.Thread:
    """A thread running ``work`` for one member; its end (or exception) goes to ``finished``."""

    def race() -> None:
        try:
            end: Finish = work(member, own)
        except Exception as exc:  # reported as the member's end, never as a limit
            end = exc
        finished.put((name, end))

    thread = threading.Thread(target=race, name=f"queenslab-portfolio-{name}", daemon=True)
    thread.start()
    return thread


def _at_least(seconds: float | None) -> float | None:
    """A limit a run takes: a member started at the last moment still gets a start."""
    return None if seconds is None else max(MIN_TIME_LIMIT, seconds)


def _status(end: Finish) -> Status | None:
    return None if isinstance(end, Exception) else end.status


def _all_failed(ends: Mapping[str, Finish]) -> bool:
    """Whether every member ended in an error (none was stopped by a limit). When each
    refused the question, the refusal is the answer (a model no member takes)."""
    if not ends or not all(_status(end) in (None, Status.UNKNOWN) for end in ends.values()):
        return False
    refusals = [end for end in ends.values() if isinstance(end, UsageError)]
    if len(refusals) == len(ends):
        raise refusals[0]
    return True


def _failures(race: _Race) -> str:
    return "; ".join(f"{name}: {end}" for name, end in race.ended.items())
