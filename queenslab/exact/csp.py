"""The CSP course's backtracking: one search, with inference and ordering as options.

Rows are the variables, columns their values, and a domain is a bitmask of columns (the
board layer's ``allowed_masks`` and ``attack_masks``, so variants, blocked cells and given
queens follow the board's rules; a given queen's row has its column as only value).

- inference ``none``: chronological backtracking (Golomb & Baumert 1965); each value is
  tested against the queens placed, and a failed test is a ``reject``;
- ``forward-checking`` (Haralick & Elliott 1980): after each placement the values it
  attacks leave the domains of the rows still open; an emptied domain (a wipe-out) fails
  the placement at once;
- ``mac``, maintaining arc consistency (Sabin & Freuder 1994), with AC-3 (Mackworth 1977)
  after forward checking: a value with no compatible value left in some other open row is
  removed too, until nothing changes (and once at the root, before the first choice);
- variables ``static`` (rows top to bottom) or ``mrv``, the row with the fewest values
  left (Bitner & Reingold 1975; Haralick & Elliott's "fail first"), ties to the top row;
- values ``static`` (left to right), ``lcv``, the column that rules out the fewest values
  of the open rows first (least constraining value), ties to the left, or ``random``, a
  shuffle drawn from the run's seed. ``register_value_order`` adds a user's own ordering
  under a name that the backend's ``values`` option accepts in this process (the API, and
  sweeps run from Python).

With ``none`` and static orders it is the textbook tree of the ``backtrack`` backend, node
for node. The search tells an optional ``emit(kind, **fields)`` what it does, in the step
vocabulary of ``queenslab.trace``: the traces replay this very search, so the nodes a trace
shows are the ``nodes`` of the backend's statistics. With MAC a placement also tells how
many values forward checking removed (``forward``) and each AC-3 revision after it
(``revisions``: the row and column removed, the row of the arc, and that row's domain, in
which no value is compatible), so a lecturer can unfold the net pruning step by step.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from queenslab.boards import VARIANTS
from queenslab.core.backend import Backend, Family, Feature, Option, Task, first_solution
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.core.run import Run
from queenslab.exact.backtracking import canonical

INFERENCES = ("none", "forward-checking", "mac")
VARIABLE_ORDERS = ("static", "mrv")
#: Largest board searched: the search recurses once per row.
MAX_CSP_N = 400
_CHECK_EVERY = 1024  # nodes between two looks at the clock

Emit = Callable[..., None]
#: A value ordering: ``order(search, domains, row, columns)`` returns ``columns`` (the
#: candidates of ``row``, left to right) in the order to try them. It may read the search's
#: ``n``, ``board``, ``cols`` (-1: an open row), ``rng`` and ``ruled_out``, and must change
#: none of them.
ValueOrder = Callable[["CspSearch", list[int], int, list[int]], list[int]]


def _static(search: CspSearch, domains: list[int], row: int, columns: list[int]) -> list[int]:
    return columns


def _least_constraining(
    search: CspSearch, domains: list[int], row: int, columns: list[int]
) -> list[int]:
    return sorted(columns, key=lambda c: (search.ruled_out(domains, row, c), c))


def _shuffled(search: CspSearch, domains: list[int], row: int, columns: list[int]) -> list[int]:
    return search.rng.sample(columns, len(columns))


#: The value orderings by name; ``register_value_order`` adds to it.
VALUE_ORDERS: dict[str, ValueOrder] = {
    "static": _static,
    "lcv": _least_constraining,
    "random": _shuffled,
}
_BUILTIN_ORDERS = tuple(VALUE_ORDERS)


def register_value_order(name: str, order: ValueOrder) -> ValueOrder:
    """Offer ``order`` as ``values=name`` to the csp backend (a course's plug-in).

    Registering a name again replaces its order (a notebook cell run twice); the built-in
    names are kept. Returns ``order``.
    """
    if not isinstance(name, str) or not name or name in _BUILTIN_ORDERS:
        raise UsageError(f"a value order needs a name other than {', '.join(_BUILTIN_ORDERS)}")
    if not callable(order):
        raise UsageError(f"value order {name!r} must be a function")
    VALUE_ORDERS[name] = order
    return order


def value_order(name: Any) -> str:
    """The ``values`` option's check: a registered ordering's name."""
    if str(name) not in VALUE_ORDERS:
        raise ValueError(f"no such value order; choose from: {', '.join(VALUE_ORDERS)}")
    return str(name)


@dataclass(frozen=True)
class Strategy:
    """How the search infers and orders; the defaults are the textbook baseline."""

    inference: str = "none"
    variables: str = "static"
    values: str = "static"

    def label(self) -> str:
        """A short name, e.g. ``forward-checking+mrv``."""
        base = "backtrack" if self.inference == "none" else self.inference
        return "+".join([base] + [o for o in (self.variables, self.values) if o != "static"])


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CspSearch:
    """Depth-first search over rows with the inference and orders of a ``Strategy``."""

    def __init__(
        self, problem: Problem, strategy: Strategy, run: Run | None = None,
        emit: Emit | None = None,
    ) -> None:  # fmt: skip
        if problem.n > MAX_CSP_N:
            raise UsageError(f"the csp search takes boards up to n = {MAX_CSP_N}")
        self.n = problem.n
        self.board = problem.board
        self.strategy = strategy
        self.order = VALUE_ORDERS[value_order(strategy.values)]
        self.rng = random.Random(None if run is None else run.seed)
        self.run = run
        self.emit = emit
        self.givens = problem.given_cols
        start = self.board.allowed_masks()
        for row, col in self.givens.items():
            start[row] &= 1 << col
        self.start = start
        self.cols = [-1] * self.n
        self.nodes = 1  # the empty board
        self.depth_nodes = [1] + [0] * self.n
        self.pruned = 0
        #: AC-3's removals since the last placement, [row, col, against, its domain];
        #: kept only when someone listens
        self.revisions: list[list[int]] | None = [] if emit else None

    # -- inference ------------------------------------------------------------------------
    def _forward(self, domains: list[int], row: int, col: int) -> list[int]:
        """The domains once a queen stands on (row, col): what it attacks is gone."""
        after = [d & ~a for d, a in zip(domains, self.board.attack_masks(row, col), strict=True)]
        after[row] = 1 << col
        return after

    def _revise(self, domains: list[int], i: int, j: int) -> int:
        """Row i's values that keep a compatible value in row j's domain."""
        kept = domains[i]
        for a in _bits(domains[i]):
            if not domains[j] & ~self.board.attack_masks(i, a)[j]:
                kept &= ~(1 << a)
        return kept

    def _arc_consistency(self, domains: list[int], changed: list[int]) -> int | None:
        """AC-3 over the open rows, from the rows whose domain ``changed``; in place.

        Returns the first row left without a value, or None.
        """
        open_rows = [r for r in range(self.n) if self.cols[r] < 0]
        queue, queued = deque(changed), set(changed)
        while queue:
            j = queue.popleft()
            queued.discard(j)
            for i in open_rows:
                if i == j:
                    continue
                kept = domains[i] & self._revise(domains, i, j)
                if kept != domains[i]:
                    self.pruned += (domains[i] ^ kept).bit_count()
                    if self.revisions is not None:
                        self.revisions += [[i, a, j, domains[j]] for a in _bits(domains[i] ^ kept)]
                    domains[i] = kept
                    if not kept:
                        return i
                    if i not in queued:
                        queue.append(i)
                        queued.add(i)
        return None

    def _infer(self, before: list[int], after: list[int]) -> int | None:
        """Forward checking (and arc consistency for MAC) on ``after``; a wiped-out row."""
        if self.strategy.inference == "none":
            return None
        open_rows = [r for r in range(self.n) if self.cols[r] < 0]
        changed = [r for r in open_rows if after[r] != before[r]]
        self.pruned += sum((before[r] ^ after[r]).bit_count() for r in changed)
        wiped = next((r for r in changed if not after[r]), None)
        if wiped is None and self.strategy.inference == "mac":
            wiped = self._arc_consistency(after, changed)
        return wiped

    # -- ordering -------------------------------------------------------------------------
    def _next_row(self, domains: list[int]) -> int:
        open_rows = (r for r in range(self.n) if self.cols[r] < 0)
        if self.strategy.variables == "mrv":
            return min(open_rows, key=lambda r: (domains[r].bit_count(), r))
        return next(open_rows)

    def _candidates(self, domains: list[int], row: int) -> list[int]:
        """The columns to try in ``row``: with no inference every open column is tested."""
        pool = self.start[row] if self.strategy.inference == "none" else domains[row]
        return self.order(self, domains, row, list(_bits(pool)))

    def ruled_out(self, domains: list[int], row: int, col: int) -> int:
        """How many values of the other open rows a queen on (row, col) would remove."""
        hits = self.board.attack_masks(row, col)
        return sum(
            (domains[r] & hits[r]).bit_count()
            for r in range(self.n)
            if self.cols[r] < 0 and r != row
        )

    # -- the search -----------------------------------------------------------------------
    def solutions(self) -> Generator[tuple[int, ...], None, None]:
        """Every solution, in the order the strategy meets them; statistics into the run."""
        try:
            domains = list(self.start)
            if self.strategy.inference == "mac":
                before = self.pruned
                wiped = self._arc_consistency(domains, list(range(self.n)))
                if self.emit and self.pruned > before:
                    self.emit("prune", domains=list(domains), pruned=self.pruned - before,
                              revisions=self._take_revisions())  # fmt: skip
                if wiped is not None:
                    if self.emit:
                        self.emit("wipeout", row=wiped)
                    return
            yield from self._descend(domains, 0)
        finally:
            if self.run is not None:
                self.run.stats.add(nodes=self.nodes)
                if self.strategy.inference != "none":
                    self.run.stats.add(pruned=self.pruned)
                if self.run.profile:
                    self.run.stats.add(profile=self.depth_nodes)

    def _descend(self, domains: list[int], depth: int) -> Iterator[tuple[int, ...]]:
        if depth == self.n:
            if self.emit:
                self.emit("solution", cols=list(self.cols))
            yield tuple(self.cols)
            return
        row = self._next_row(domains)
        for col in self._candidates(domains, row):
            if not domains[row] >> col & 1:  # no inference: the test fails
                if self.emit:
                    self._say_reject(self.emit, row, col)
                continue
            yield from self._place(domains, row, col, depth)

    def _place(
        self, domains: list[int], row: int, col: int, depth: int
    ) -> Iterator[tuple[int, ...]]:
        self.cols[row] = col
        self.nodes += 1
        self.depth_nodes[depth + 1] += 1
        if self.nodes % _CHECK_EVERY == 0 and self.run is not None and self.run.should_stop():
            raise LimitReached
        after = self._forward(domains, row, col)
        pruned = self.pruned
        wiped = self._infer(domains, after)
        if self.emit:
            fields: dict[str, Any] = {"given": True} if row in self.givens else {}
            if self.strategy.inference != "none":
                fields.update(domains=list(after), pruned=self.pruned - pruned)
            if self.strategy.inference == "mac":
                revisions = self._take_revisions()
                fields.update(forward=fields["pruned"] - len(revisions), revisions=revisions)
            self.emit("place", row=row, col=col, **fields)
            if wiped is not None:
                self.emit("wipeout", row=wiped)
        if wiped is None:
            yield from self._descend(after, depth + 1)
        self.cols[row] = -1
        if self.emit:
            self.emit("remove", row=row, col=col)

    def _take_revisions(self) -> list[list[int]]:
        """AC-3's removals since the last look, and a fresh list for the next placement."""
        taken, self.revisions = self.revisions or [], []
        return taken

    def _say_reject(self, emit: Emit, row: int, col: int) -> None:
        """A failed test, with the first queen that attacks the cell and along what."""
        for other, placed in enumerate(self.cols):
            if placed >= 0:
                line = self.board.attack_line((other, placed), (row, col))
                if line is not None:
                    emit("reject", row=row, col=col, by=other, line=line)
                    return


class CspBackend(Backend):
    name = "csp"
    family = Family.EXACT
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT})})
    features = frozenset({Feature.UNIQUE, Feature.GIVENS, Feature.BLOCKED, Feature.PROFILE})
    variants = frozenset(VARIANTS)
    summary = "CSP backtracking: forward checking or MAC, MRV and LCV ordering (teaching)"
    uses_seed = True  # the random value order
    options = (
        Option("inference", "what each placement removes from the open rows' domains",
               "forward-checking", INFERENCES),
        Option("variables", "which row to fill next", "static", VARIABLE_ORDERS),
        Option("values", "which column to try first: static, lcv, random or a registered "
               "order", "static", convert=value_order),
    )  # fmt: skip

    def strategy(self) -> Strategy:
        s = self.settings
        return Strategy(s["inference"], s["variables"], s["values"])

    def _search(self, problem: Problem, run: Run) -> Generator[tuple[int, ...], None, None]:
        return CspSearch(problem, self.strategy(), run).solutions()

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return first_solution(self.enumerate(problem, run, question))

    def enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Placement]:
        with closing(self._search(problem, run)) as found:  # closing records the statistics
            for cols in found:
                yield Placement(cols)

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        unique = question.unique
        total = distinct = 0
        try:
            for cols in self._search(problem, run):
                total += 1
                run.tally(1)
                distinct += unique and canonical(problem, cols)
        except LimitReached:
            return CountResult(None, status=Status.LIMIT)
        return CountResult(total, distinct if unique else None)
