"""The ``armies`` backend: peaceable armies proven by the line-colouring search
(``exact.armies_plan``), split by the colouring of the rows.

A decision at a target is one pass over the row colourings, each a job of the run's pool:
threads (the kernel releases the GIL; one thread too, so that the main thread only waits
and sees Ctrl-C at once) or tasks on a Dask cluster. The kernel polls the round's stop
flag, which a limit, Ctrl-C and the end of the round set. A decision ends at the first
pair of colourings that reaches the target (yes; the answer is armies of that pair
reaching it) or when every job is refuted (no: the search was exhaustive). Row
colourings whose bound (``Plan.row_bound``) is below the target are never handed out.
With a checkpoint file each refuted job is a row holding its bound (no pair of it
reaches bound + 1): a killed run resumes, and any later decision or optimisation of the
same board skips the jobs whose bound is below its target. Any number of runs may share
the file (the proof's ledger, ``exact.armies_ledger``): each claims blocks of jobs no
other took, then redoes the others' unfinished jobs from the last back, so all end
together when every job is refuted.

An optimisation decides upwards from its incumbent (the start, else nothing): each yes
gives better armies and the next target above them, told to the run as news; the first no
proves the incumbent optimal. A limit or Ctrl-C leaves the incumbent and the bound.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import threading
from collections.abc import Callable, Iterator
from contextlib import closing
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from queenslab.boards import Board
from queenslab.core.backend import (
    Backend,
    Family,
    Feature,
    Option,
    Task,
    scheduler_option,
    workers_option,
)
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.core.result import DecideResult, OptimizeResult, Status
from queenslab.core.run import News, PartRun, Run
from queenslab.runtime.pool import Cluster, Pool, Threads, connect

if TYPE_CHECKING:
    import numpy as np

    from queenslab.exact.armies_plan import Picks, Plan

    #: A worker's answer per row colouring (``_refute``).
    Found = tuple[int, int, Picks, int, int, int]

#: What a checkpoint's rows are: per refuted row colouring (bound, pairs, nodes).
METHOD = "armies: row colourings, each with its bound"
#: Runs sharing a checkpoint claim the row colourings in blocks: BLOCKS of them, each
#: of BLOCK to BLOCK_MOST jobs (a claim is a committed transaction).
BLOCKS, BLOCK, BLOCK_MOST = 256, 64, 4096
NO_ARMIES: dict[str, list[list[int]]] = {"white": [], "black": []}


class ArmiesBackend(Backend):
    name = "armies"
    family = Family.EXACT
    tasks = MappingProxyType({"peaceable": frozenset({Task.OPTIMIZE, Task.DECIDE})})
    features = frozenset({Feature.BLOCKED})
    variants = frozenset({"standard", "toroidal"})
    largest_n = 30  # armies_plan.MAX_OUTER_LINES // 2: a pair of colourings is one int64 key
    summary = "peaceable armies: exact search over line colourings, threads or Dask, resumable"
    requires: ClassVar[dict[str, str]] = {"numba": "numba"}
    options = (
        workers_option(help="threads searching row colourings"),
        scheduler_option(),
        Option("checkpoint", "SQLite file keeping the refuted row colourings (resumable)",
               metavar="FILE"),
    )  # fmt: skip

    def load(self) -> None:
        """Load the compiled kernels (their first call), timed as start-up."""
        import numpy as np

        from queenslab.boards import board
        from queenslab.exact.armies_plan import Plan

        plan = Plan.of(board(4))
        cols, picks = plan.search(0b0011, 1, np.zeros(1, np.uint8), np.zeros(3, np.int64))
        plan.answer(0b0011, cols, picks)

    def decide(
        self, problem: Problem, run: Run, question: Question, value: int, proof: str | None = None
    ) -> DecideResult:
        if proof is not None:
            raise UsageError(
                "--proof keeps a SAT solver's proof; the armies backend's no is an exhaustive "
                "search with no proof file (decide with -b sat for one)"
            )
        with _Search(problem.board, run, self.settings, problem.describe()) as search:
            if value <= 0:
                return DecideResult(Status.YES, answer=question.kind.from_json(NO_ARMIES))
            try:
                found = search.decide(value)
            except LimitReached:
                return DecideResult(Status.LIMIT)
        if found is None:
            return DecideResult(Status.NO)
        return DecideResult(Status.YES, answer=question.kind.from_json(found))

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        kind = question.kind
        best = question.start
        with _Search(problem.board, run, self.settings, problem.describe()) as search:
            upper = search.plan.upper_bound()
            if question.bound is not None:
                upper = min(upper, question.bound)
            run.learn("bound", News(bound=upper))

            def fall(bound: int) -> None:  # a bound below the one told so far
                if bound < (upper if run.news.bound is None else run.news.bound):
                    run.learn("bound", News(bound=bound))

            try:
                while best is None or kind.value(best) < upper:
                    found = search.decide(1 if best is None else kind.value(best) + 1, fall)
                    if found is None:
                        break
                    best = kind.from_json(found)
                    run.learn("solution", News(kind.value(best), best))
            except LimitReached:
                return OptimizeResult.of_news(run.news, kind.name)
        best = kind.from_json(NO_ARMIES) if best is None else best
        run.learn("bound", News(bound=kind.value(best)))
        value = kind.value(best)
        return OptimizeResult(Status.OPTIMAL, value, best, kind.name, bound=value)


class _Search:
    """One board's search: its plan, pool and checkpoint, for one or more decisions."""

    def __init__(self, board: Board, run: Run, settings: dict[str, Any], describe: str) -> None:
        self._board, self._run, self._settings, self._describe = board, run, settings, describe
        self._stack = contextlib.ExitStack()
        self._bounds: dict[int, int] = {}
        self._record: Any = None
        self.plan: Plan

    def __enter__(self) -> _Search:
        from queenslab.exact.armies_plan import Plan

        with self._run.phase("build"):
            self.plan = Plan.of(self._board)
        try:
            self._pool = self._open_pool()
            if self._settings.get("checkpoint"):  # after the pool: no file from a failure
                self._open_checkpoint(self._settings["checkpoint"])
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _open_pool(self) -> Pool[int, Found]:
        """A Dask cluster, else threads: one thread too, for the main thread only waits
        (a kernel in the main thread held Ctrl-C back until it returned)."""
        if self._settings.get("scheduler"):
            return Cluster(self._stack.enter_context(closing(connect(self._settings["scheduler"]))))
        return Threads(int(self._settings.get("workers") or 1))

    def _open_checkpoint(self, path: str) -> None:
        from queenslab.exact.checkpoint import Checkpoint

        jobs = len(self.plan.jobs())
        self._record = self._stack.enter_context(
            Checkpoint(path, self.plan.n, METHOD, jobs, self.plan.fingerprint(), self._describe)
        )
        ids, rows = self._record.finished()
        self._bounds = {int(job): int(row[0]) for job, row in zip(ids, rows, strict=True)}

    def _order(self, target: int) -> Iterator[int]:
        """The row colourings in ``Plan.order``. With a checkpoint, in blocks: first the blocks
        this run claims (no other run sharing the file took them at this target), then the
        others' from the last job back, each looked up in the file just before it is
        handed out, so runs sharing a file split the work and all end when the last job
        is refuted (a yes is never recorded: every run meets it)."""
        order = self.plan.order()
        if self._record is None:
            yield from order
            return
        size = min(BLOCK_MOST, max(BLOCK, -(-len(self.plan.jobs()) // BLOCKS)))
        theirs: list[int] = []
        for number in itertools.count():
            block = list(itertools.islice(order, size))
            if not block:
                break
            if self._record.claim(number, stage=target):
                self._refresh(block)
                yield from block
            else:
                theirs += block
        # from the last job back: a run still walking its blocks forwards is met halfway
        for job in reversed(theirs):
            self._refresh([job])
            yield job

    def _refresh(self, jobs: list[int]) -> None:
        """Take in the rows the file holds for these jobs (other runs may have added some)."""
        ids, rows = self._record.finished(jobs)
        self._bounds.update((int(job), int(row[0])) for job, row in zip(ids, rows, strict=True))

    def decide(
        self, target: int, fall: Callable[[int], None] | None = None
    ) -> dict[str, list[list[int]]] | None:
        """The armies (as JSON) of the first pair of colourings (rows, then columns)
        reaching ``target``, or None when none does; LimitReached at a stop. The first pair
        in the order handed out (``_order``), not the first found: the answer is the same
        on any number of workers (runs sharing a checkpoint may find others).

        The row colourings are handed out lazily (2^29 of them at n = 30), those whose
        checkpoint bound or ``row_bound`` is below the target skipped. ``fall`` is told
        the bound of what is left (``_Left``) as it falls."""
        run, total = self._run, len(self.plan.jobs())
        handed: dict[int, int] = {}  # job: its place in the order handed out
        pending: set[int] = set()  # the places handed out, not yet finished
        lock = threading.Lock()
        refuted = 0
        left = _Left(self.plan, target, self._bounds)

        def todo() -> Iterator[int]:
            nonlocal refuted
            for job in self._order(target):
                with lock:
                    if min(self._bounds.get(job, target), self.plan.row_bound(job)) < target:
                        refuted += 1
                        left.refuted(job)
                        continue
                    handed[job] = len(handed)
                    pending.add(handed[job])
                yield job

        run.stats.add(rounds=1)
        part = PartRun(run.should_stop)
        work = functools.partial(_refute, self.plan, target, part.stop_flag)
        first: tuple[int, int, int, Picks] | None = None  # (place, rows, cols, picks)
        # the round's own run: a yes ends its stream (which stops its run), not the search
        stream = self._pool.stream(work, todo(), part)
        try:
            for rows, cols, picks, pairs, knapsacks, nodes in stream:
                run.stats.add(pairs=pairs, knapsacks=knapsacks, nodes=nodes)
                with lock:
                    place = handed[rows]
                    pending.discard(place)
                    earliest = min(pending, default=None)
                if cols >= 0:
                    found = (place, rows, cols, picks)
                    first = min(first or found, found)
                else:
                    self._bounds[rows] = target - 1
                    if self._record is not None:
                        self._record.record([rows], [(target - 1, pairs, nodes)])
                    with lock:
                        refuted += 1
                        left.refuted(rows)
                        if fall is not None:
                            fall(left.bound())
                run.report(refuted, total)
                if first is not None and (earliest is None or earliest > first[0]):
                    break  # every job before the first yes is finished
        except LimitReached:
            if first is None:
                raise  # a yes found before the stop stands, if perhaps not the first pair
        finally:
            stream.close()
        if first is None:
            run.report(total, total)
            return None
        return self.plan.answer(*first[1:])


class _Left:
    """The row colourings not yet refuted at a target, by their number of white rows:
    no armies beat the largest ``row_bound`` among them, nor target - 1 once all are
    refuted. As ``Plan.order`` refutes the classes one after the other, this bound of an
    optimisation falls during the round."""

    def __init__(self, plan: Plan, target: int, bounds: dict[int, int]) -> None:
        whites = max(0, plan.n - 1)  # the colour swap keeps the jobs without the last row
        self._plan, self._target = plan, target
        self._left = [math.comb(whites, a) for a in range(whites + 1)]
        self._gone: set[int] = set()
        for job, bound in bounds.items():
            if bound < target:
                self.refuted(job)

    def refuted(self, job: int) -> None:
        if job not in self._gone:
            self._gone.add(job)
            self._left[job.bit_count()] -= 1

    def bound(self) -> int:
        rows = (self._plan.row_bound((1 << a) - 1) for a, left in enumerate(self._left) if left)
        return max([self._target - 1, *rows])


def _refute(
    plan: Plan,
    target: int,
    stop: np.ndarray,
    claimed: Iterator[int],
    should_stop: Callable[[], bool],
) -> Iterator[Found]:
    """A pool worker: per row colouring it claims, (rows, the first column colouring
    reaching ``target`` or -1, what its answer is read back from, pairs, knapsacks, nodes).
    The kernel polls ``stop`` (the round's flag); ``should_stop`` is looked at between
    jobs. A pure function of its arguments, so a Dask task may be rerun."""
    import numpy as np

    from queenslab.exact.armies_plan import STOPPED

    for rows in claimed:
        counts = np.zeros(3, np.int64)
        cols, picks = plan.search(rows, target, stop, counts)
        if cols == STOPPED:
            return
        pairs, knapsacks, nodes = (int(count) for count in counts)
        yield rows, cols, picks, pairs, knapsacks, nodes
