"""The ``independent-search`` backend: the fewest non-attacking queens dominating a
board, by a depth-first search over the undominated cells (``exact.
independent_domination_kernel``), split by the first queen's orbit.

Why not the SAT model at the frontier: the proof that 8 independent queens cannot
dominate Q_15 took the ``lines`` model 284 s (and n = 14 at 7, 607,000 conflicts): a
CDCL solver decides queens and lines one at a time and learns clauses about them, but
what refutes a candidate set is a count (the queens left cannot reach the cells left),
which resolution does not see. The search states it at every node: the free cells'
largest reaches into the undominated cells, one per queen left, must cover them. And it
branches where the choice is smallest: on the undominated cell fewest free cells reach,
one child per way to dominate it; a queen makes every cell it attacks unfree, so the
candidates shrink fast. (This is the classic exact scheme for dominating sets: branch on
the closed neighbourhood of an undominated vertex.)

Symmetry: every answer has a queen; the board's symmetries (``Board.symmetries``) split
the open cells into orbits, taken in row-major order of their first cells. Job i places
the first queen on orbit i's first cell, and rules out every cell of the orbits before
it: an answer whose earliest orbit is i has an image under the group with a queen on
that first cell and none in the orbits before (orbits are unions of images), so job i
finds it. A no is every job refuted. The jobs run on the run's threads (the kernel
releases the GIL) or on a Dask cluster.

An optimisation starts from the warm start or the search's own first answer (the
kernel's choice with no limit on the queens is a greedy maximal independent set) and
decides one queen fewer after each yes. It ends at a no, or where the answer meets the
kind's proven lower bound (the one its model states, ``BoolModel.stated_bound``: the result's
``stats["proven_by"]`` says which ended it; ``decide`` one below asks the search for the no).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from queenslab.boards import Board, Cell
from queenslab.boards.graph import reach
from queenslab.core.backend import Backend, Family, Feature, Task, scheduler_option, workers_option
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.core.result import DecideResult, OptimizeResult, Status
from queenslab.core.run import News, PartRun, Run
from queenslab.runtime.pool import Cluster, Pool, Threads, connect

if TYPE_CHECKING:
    import numpy as np

#: A job's outcome: its number, the queens of an answer (None: refuted), nodes searched.
Outcome = tuple[int, "tuple[Cell, ...] | None", int]


@dataclass(frozen=True)
class Plan:
    """A board's bit sets (``reach``, ``clash``: see the kernel), its n * n cells, and its
    root jobs: the first queen's cell per orbit and the free cells left to the rest."""

    n: int
    reach: np.ndarray
    clash: np.ndarray
    cells: np.ndarray
    jobs: tuple[tuple[int, np.ndarray], ...]

    @classmethod
    def of(cls, board: Board) -> Plan:
        import numpy as np

        n, words = board.n, (board.n * board.n + 63) // 64
        reach_bits = np.zeros((n * n, words), np.int64)
        clash_bits = np.zeros((n * n, words), np.int64)
        for cell, cells in reach(board).items():  # the open cells reaching it, and back
            for other in cells:
                _set(reach_bits[_index(n, cell)], _index(n, other))
                _set(reach_bits[_index(n, other)], _index(n, cell))
        for group in board.groups():
            for cell in group.cells:
                for other in group.cells:
                    _set(clash_bits[_index(n, cell)], _index(n, other))
        everything, open_cells, before = (np.zeros(words, np.int64) for _ in range(3))
        for i in range(n * n):
            _set(everything, i)
        for cell in board.open_cells():
            _set(open_cells, _index(n, cell))
            _set(clash_bits[_index(n, cell)], _index(n, cell))
        jobs = []
        for orbit in _orbits(board):  # job i: every open cell outside the orbits before it
            jobs.append((_index(n, orbit[0]), open_cells & ~before))
            for cell in orbit:
                _set(before, _index(n, cell))
        return cls(n, reach_bits, clash_bits, everything, tuple(jobs))

    def search(
        self, job: int, queens: int, stop: np.ndarray
    ) -> tuple[tuple[Cell, ...] | None, int]:
        """Job ``job`` at most ``queens`` queens: an answer's cells or None, and the nodes.
        LimitReached when ``stop`` was set."""
        import numpy as np

        from queenslab.exact.independent_domination_kernel import REFUTED, STOPPED, search

        if queens < 1:
            return None, 0
        first, free = self.jobs[job]
        placed = np.zeros(queens, np.int64)
        nodes = np.zeros(1, np.int64)
        found = search(self.reach, self.clash, self.cells & ~self.reach[first],
                       free & ~self.clash[first], queens - 1, stop, placed, nodes)  # fmt: skip
        if found == STOPPED:
            raise LimitReached
        if found == REFUTED:
            return None, int(nodes[0])
        cells = [first, *(int(p) for p in placed[:found])]
        return tuple(divmod(p, self.n) for p in cells), int(nodes[0])


def _index(n: int, cell: Cell) -> int:
    return cell[0] * n + cell[1]


def _set(bits: np.ndarray, i: int) -> None:
    import numpy as np

    bits[i // 64] |= np.int64(1) << np.int64(i % 64)  # bit 63 is the sign bit: it wraps


def _orbits(board: Board) -> list[list[Cell]]:
    """The open cells' orbits under the board's symmetries, each sorted, in row-major
    order of their first cells."""
    seen: set[Cell] = set()
    orbits = []
    for r, c in board.open_cells():
        if (r, c) not in seen:
            orbit = sorted({g.cell(board.n, r, c) for g in board.symmetries()} | {(r, c)})
            seen.update(orbit)
            orbits.append(orbit)
    return orbits


class IndependentDominationBackend(Backend):
    name = "independent-search"
    family = Family.EXACT
    tasks = MappingProxyType({"independent-domination": frozenset({Task.OPTIMIZE, Task.DECIDE})})
    features = frozenset({Feature.BLOCKED})
    variants = frozenset({"standard", "toroidal", "superqueens"})
    largest_n = 32
    summary = "independent domination: exact search over undominated cells, threads or Dask"
    requires: ClassVar[dict[str, str]] = {"numba": "numba"}
    options = (workers_option(help="threads searching the first queen's orbits"),
               scheduler_option())  # fmt: skip

    def load(self) -> None:
        """Compile the kernel (its first call), timed as start-up."""
        import numpy as np

        from queenslab.boards import board

        Plan.of(board(4)).search(0, 3, np.zeros(1, np.uint8))

    def decide(
        self, problem: Problem, run: Run, question: Question, value: int, proof: str | None = None
    ) -> DecideResult:
        if proof is not None:
            raise UsageError(
                "--proof keeps a SAT solver's proof; this backend's no is an exhaustive search "
                "with no proof file (decide with -b sat for one)"
            )
        with run.phase("build"):
            plan = Plan.of(problem.board)
        try:
            with self._pool() as pool:
                found = _decide(plan, value, run, pool)
        except LimitReached:
            return DecideResult(Status.LIMIT)
        if found is None:
            return DecideResult(Status.NO)
        return DecideResult(Status.YES, answer=frozenset(found))

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        with run.phase("build"):
            plan = Plan.of(problem.board)
        with self._pool() as pool:
            return self._descend(plan, problem, run, question, pool)

    def _descend(
        self,
        plan: Plan,
        problem: Problem,
        run: Run,
        question: Question,
        pool: Pool[int, Outcome],
    ) -> OptimizeResult:
        """The optimisation's decisions, one queen fewer after each yes."""
        kind = question.kind
        stated = question.build(problem.board).stated_bound()  # the theorem, as the kind states it
        lowest = 0 if stated is None else stated
        run.learn("bound", News(bound=max(lowest, 1)))
        best = question.start
        try:
            if best is None:
                found = _decide(plan, problem.board.n**2, run, pool)
                if found is None:  # a cell no open cell reaches: the model says which
                    why = kind.build(problem.board, kind.model_name(None)).impossible
                    return OptimizeResult(Status.INFEASIBLE, kind=kind.name, message=why or "")
                best = frozenset(found)
                run.learn("solution", News(kind.value(best), best))
            while kind.value(best) > lowest:
                found = _decide(plan, kind.value(best) - 1, run, pool)
                if found is None:
                    break
                best = frozenset(found)
                run.learn("solution", News(kind.value(best), best))
        except LimitReached:
            return OptimizeResult.of_news(run.news, kind.name)
        value = kind.value(best)
        run.stats["proven_by"] = "theorem" if value == lowest else "search"
        run.learn("bound", News(bound=value))
        return OptimizeResult(Status.OPTIMAL, value, best, kind.name, bound=value)

    @contextlib.contextmanager
    def _pool(self) -> Iterator[Pool[int, Outcome]]:
        """A Dask cluster (its client closed at the end), else threads (one too: the main
        thread only waits, and sees Ctrl-C at once)."""
        if self.settings.get("scheduler"):
            with closing(connect(self.settings["scheduler"])) as client:
                yield Cluster(client)
        else:
            yield Threads(int(self.settings.get("workers") or 1))


def _decide(plan: Plan, queens: int, run: Run, pool: Pool[int, Outcome]) -> tuple[Cell, ...] | None:
    """The cells of an answer of at most ``queens`` queens, or None when every job is
    refuted; LimitReached at a stop."""
    part = PartRun(run.should_stop)
    work = functools.partial(_refute, plan, queens, part.stop_flag)
    stream = pool.stream(work, range(len(plan.jobs)), part)
    refuted = 0
    run.stats.add(rounds=1)
    try:
        for _, found, nodes in stream:
            run.stats.add(nodes=nodes)
            if found is not None:
                return found
            refuted += 1
            run.report(refuted, len(plan.jobs))
    finally:
        stream.close()
    return None


def _refute(
    plan: Plan,
    queens: int,
    stop: np.ndarray,
    claimed: Iterator[int],
    should_stop: Callable[[], bool],
) -> Iterator[Outcome]:
    """A pool worker: per job it claims, (job, an answer or None, nodes). The kernel polls
    ``stop``; a pure function of its arguments, so a Dask task may be rerun."""
    for job in claimed:
        if should_stop():
            return
        try:
            found, nodes = plan.search(job, queens, stop)
        except LimitReached:
            return
        yield job, found, nodes
