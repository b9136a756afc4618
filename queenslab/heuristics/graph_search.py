"""Local search on the queens graph: good answers where no exact model reaches.

One search per problem kind, each a greedy start improved until it stalls, the run is
stopped or its time is up; each returns the best answer seen, which the kind's own checker
then vouches for, and tells each better answer as it finds it (``Tell``), so a run stopped
by Ctrl-C still has its best. None proves anything: the status is ``feasible``, never
``optimal``.

- domination and independent domination: iterated greedy (Ruiz and Stützle's scheme):
  drop a few queens at random, refill greedily (a queen that reaches the most undominated
  cells, among those reaching one undominated cell; for independent domination only
  unattacked cells), prune queens whose cells stay dominated, keep the result unless it
  is larger than the best;
- peaceable armies: the black army is every cell no white queen reaches, so the search
  moves white queens only. It grows the white army greedily while black keeps up, then
  asks for one queen more and moves queens (the best of a sample of moves, with a short
  tabu list) until the free cells catch up again;
- colouring: the better of DSatur and Pólya's modular colouring (n colours for n prime
  to 6, else that of the next larger board where one exists); on a standard board
  without blocked cells, an n-colouring that a symmetry group keeps (Vasquez and Habet
  2004: ``problems.coloring_symmetric``, compiled, n <= 16); then TabuCol (Hertz and
  de Werra 1987) with one colour fewer than the best colouring until no conflict is left,
  down to the longest line's cell count, below which no colouring exists.

The board is read once into integer-indexed lists (``Graph``): the searches are plain
Python, for boards up to a few dozen cells a side.

``GraphSearchBackend`` (``--backend graph-search``) runs them for ``optimize --problem``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from queenslab.boards import DEFAULT_VARIANT, VARIANTS, Board
from queenslab.boards.graph import cells as every_cell
from queenslab.boards.graph import reach
from queenslab.core.backend import Backend, Family, Feature, Option, Task, positive_int
from queenslab.core.errors import LimitReached
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.core.result import OptimizeResult, Status
from queenslab.core.run import News, Run
from queenslab.problems.coloring import ColourClasses, clique_bound, dsatur
from queenslab.problems.peaceable import Armies
from queenslab.runtime import forked

Stop = Callable[[], bool]
#: Hears each better answer (the kind's answer) and the bound the search knows, if any.
Tell = Callable[[Any, int | None], None]


def tell_nothing(answer: Any, bound: int | None) -> None:
    """The ``Tell`` of a search nobody watches."""


#: Steps without a better answer after which a search ends by itself.
DEFAULT_PATIENCE = 2000


@dataclass(frozen=True)
class Graph:
    """The board as indices: ``cells`` lists every cell (blocked ones too), ``open`` the
    indices of the open ones; ``covers[q]`` the cells an open cell's queen occupies or
    attacks, ``reached_by[c]`` the open cells whose queen reaches cell c."""

    cells: list[tuple[int, int]]
    open: list[int]
    covers: dict[int, list[int]]
    reached_by: list[list[int]]

    @classmethod
    def of(cls, board: Board) -> Graph:
        cells = list(every_cell(board))
        index = {cell: i for i, cell in enumerate(cells)}
        reached_by = [sorted(index[q] for q in near) for near in reach(board).values()]
        open_ = [index[cell] for cell in board.open_cells()]
        covers: dict[int, list[int]] = {q: [] for q in open_}
        for c, near in enumerate(reached_by):
            for q in near:
                covers[q].append(c)
        return cls(cells, open_, covers, reached_by)


@dataclass
class Outcome:
    answer: Any
    steps: int
    #: A bound on the optimum the search knows without searching (colouring: the clique
    #: bound), None when it knows none.
    bound: int | None = None


# -- queens and the cells they reach ------------------------------------------------------
class _Reached:
    """A set of queens with, per cell, how many of them reach it; ``undominated`` counts
    the cells none reaches, ``free`` the open ones among them."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.opened = [False] * len(graph.cells)
        for q in graph.open:
            self.opened[q] = True
        self.count = [0] * len(graph.cells)
        self.queens: set[int] = set()
        self.undominated = len(graph.cells)
        self.free = len(graph.open)

    def add(self, q: int) -> None:
        self.queens.add(q)
        for c in self.graph.covers[q]:
            self.count[c] += 1
            if self.count[c] == 1:
                self.undominated -= 1
                self.free -= self.opened[c]

    def remove(self, q: int) -> None:
        self.queens.discard(q)
        for c in self.graph.covers[q]:
            self.count[c] -= 1
            if not self.count[c]:
                self.undominated += 1
                self.free += self.opened[c]

    def reset(self, queens: set[int]) -> None:
        for q in self.queens - queens:
            self.remove(q)
        for q in queens - self.queens:
            self.add(q)

    def gain(self, q: int) -> int:
        """Cells a queen on q would dominate that no queen reaches yet."""
        return sum(not self.count[c] for c in self.graph.covers[q])

    def loss(self, q: int) -> int:
        """Free open cells a queen on q would take."""
        return sum(self.opened[c] and not self.count[c] for c in self.graph.covers[q])


# -- domination ---------------------------------------------------------------------------
def _fill(queens: _Reached, rng: random.Random, independent: bool) -> bool:
    """Add queens until every cell is dominated; False when independence forbids it."""
    count, graph = queens.count, queens.graph
    while queens.undominated:
        target = rng.choice([c for c, k in enumerate(count) if not k])
        options = [q for q in graph.reached_by[target] if not (independent and count[q])]
        if not options:
            return False
        queens.add(max((queens.gain(q), rng.random(), q) for q in options)[2])
    return True


def _prune(queens: _Reached, rng: random.Random) -> None:
    """Drop queens whose every cell another queen still reaches."""
    order = sorted(queens.queens)
    rng.shuffle(order)
    for q in order:
        if all(queens.count[c] > 1 for c in queens.graph.covers[q]):
            queens.remove(q)


def dominate(
    graph: Graph,
    rng: random.Random,
    should_stop: Stop,
    independent: bool,
    patience: int,
    tell: Tell = tell_nothing,
) -> Outcome:
    """Fewest queens dominating every cell (pairwise non-attacking when ``independent``).

    None when no attempt dominated every cell (independence with blocked cells can make
    that impossible)."""
    queens = _Reached(graph)
    best: set[int] | None = None
    steps = stale = 0
    while not steps or (stale < patience and not should_stop()):
        steps += 1
        stale += 1
        queens.reset(best or set())
        if best:
            for q in rng.sample(sorted(best), min(len(best), rng.randint(1, 3))):
                queens.remove(q)
        if not _fill(queens, rng, independent):
            continue
        _prune(queens, rng)
        if best is None or len(queens.queens) < len(best):
            best, stale = set(queens.queens), 0
            tell(_cells(graph, best), None)
        elif len(queens.queens) == len(best):
            best = set(queens.queens)  # a sideways move: keep walking the plateau
    return Outcome(None if best is None else _cells(graph, best), steps)


def _cells(graph: Graph, queens: set[int]) -> frozenset[tuple[int, int]]:
    return frozenset(graph.cells[q] for q in queens)


# -- peaceable armies ---------------------------------------------------------------------
def armies(
    graph: Graph, rng: random.Random, should_stop: Stop, patience: int, tell: Tell = tell_nothing
) -> Outcome:
    """The largest m with m white queens and m black ones on cells no white queen reaches."""
    white = _Reached(graph)
    sample = 48
    while True:  # greedy growth while the free cells keep up
        outside = [q for q in graph.open if q not in white.queens]
        if not outside:
            break
        q = min((white.loss(q), rng.random(), q) for q in outside)[2]
        if white.free - white.loss(q) < len(white.queens) + 1:
            break
        white.add(q)
    best, steps, stale = set(white.queens), 0, 0
    tell(_armies(white), None)
    tabu: dict[int, int] = {}
    while stale < patience and not should_stop():
        if len(white.queens) > len(best) and white.free >= len(white.queens):
            best, stale = set(white.queens), 0
            tell(_armies(white), None)
        outside = [q for q in graph.open if q not in white.queens and tabu.get(q, 0) <= steps]
        if len(white.queens) == len(best):  # best reached: ask for one queen more
            if not outside:
                break
            chosen = rng.sample(outside, min(len(outside), sample))
            white.add(min((white.loss(q), rng.random(), q) for q in chosen)[2])
            continue
        steps += 1
        stale += 1
        move = _best_move(white, rng, outside, sample)
        if move is None:
            continue
        out, into = move
        white.remove(out)
        white.add(into)
        tabu[out] = steps + rng.randint(3, 10)
    white.reset(best)
    return Outcome(_armies(white), steps)


def _armies(white: _Reached) -> Armies:
    """The white queens and as many black ones on the first cells no white queen reaches."""
    graph = white.graph
    free = [graph.cells[q] for q in graph.open if not white.count[q]]
    army = sorted(graph.cells[q] for q in white.queens)
    return Armies(frozenset(army), frozenset(free[: len(army)]))


def _best_move(
    white: _Reached, rng: random.Random, outside: list[int], sample: int
) -> tuple[int, int] | None:
    """The move of one white queen that leaves the most free cells, among a sample."""
    if not white.queens or not outside:
        return None
    best: tuple[int, float, int, int] | None = None
    for out in rng.sample(sorted(white.queens), min(len(white.queens), 6)):
        white.remove(out)
        for into in rng.sample(outside, min(len(outside), sample // 3)):
            score = (white.free - white.loss(into), rng.random(), out, into)
            if best is None or score > best:
                best = score
        white.add(out)
    return None if best is None else (best[2], best[3])


# -- colouring ----------------------------------------------------------------------------
def colour(
    board: Board,
    graph: Graph,
    rng: random.Random,
    should_stop: Stop,
    patience: int,
    tell: Tell = tell_nothing,
) -> Outcome:
    """Fewest colours with no two attacking cells alike: DSatur, then TabuCol below it."""
    cells = [graph.cells[q] for q in graph.open]
    position = {q: i for i, q in enumerate(graph.open)}
    near = [[position[c] for c in graph.covers[q] if c in position and c != q] for q in graph.open]
    start = dsatur(board)
    best = [start[cell] for cell in cells]
    modular = _modular(cells, near, board.n)
    if modular and max(modular) < max(best):  # no cell open: nothing to colour
        best = modular
    floor, steps = clique_bound(board), 0
    tell(_classes(cells, best), floor)
    try:
        folded = _folded(board, rng, should_stop) if max(best, default=0) + 1 > floor else None
    except LimitReached:  # the stop was asked for and seen: the best so far
        return Outcome(_classes(cells, best), steps, floor)
    if folded is not None:
        best = [folded[cell] for cell in cells]
        tell(_classes(cells, best), floor)
    while cells and max(best) + 1 > floor and not should_stop():
        found, used = _tabucol(near, best, max(best), rng, should_stop, patience)
        steps += used
        if found is None:
            break
        best = found
        tell(_classes(cells, best), floor)
    return Outcome(_classes(cells, best), steps, floor)


def _folded(
    board: Board, rng: random.Random, should_stop: Stop
) -> dict[tuple[int, int], int] | None:
    """An n-colouring kept by a symmetry group (``coloring_symmetric``), cell -> colour;
    None where the board is not a whole standard square within its reach, where no group
    keeps one. LimitReached when ``should_stop`` said stop."""
    from queenslab.problems import coloring_symmetric  # here: numba slows every start

    n = board.n
    if board.blocked or board.variant.name != DEFAULT_VARIANT or n > coloring_symmetric.MAX_N:
        return None
    found = coloring_symmetric.search(n, rng.getrandbits(31), should_stop)
    if found is None:
        return None
    return {(r, c): k for k, cols in enumerate(found) for r, c in enumerate(cols)}


def _classes(cells: list[tuple[int, int]], colours: list[int]) -> ColourClasses:
    return ColourClasses.of(dict(zip(cells, colours, strict=True)))


def _modular(cells: list[tuple[int, int]], near: list[list[int]], n: int) -> list[int] | None:
    """Pólya's modular colouring, when one colours this board: cell (r, c) takes colour
    (c - a r) mod m for the first modulus m = n .. n + 5 and multiplier a that put no two
    neighbours alike. m = n, a = 2 on the square and the torus for n prime to 6: n colours,
    the clique bound; otherwise the colouring of a larger square cut to this one.
    Colours renumbered by first use; None when nothing works."""
    for m in range(n, n + 6):
        for a in range(2, m - 1):
            colour = [(c - a * r) % m for r, c in cells]
            if all(colour[v] != colour[w] for v, others in enumerate(near) for w in others):
                names: dict[int, int] = {}
                return [names.setdefault(k, len(names)) for k in colour]
    return None


def _tabucol(
    near: list[list[int]],
    start: list[int],
    k: int,
    rng: random.Random,
    should_stop: Stop,
    patience: int,
) -> tuple[list[int] | None, int]:
    """A colouring with colours 0..k-1, from ``start`` with its colour k spread at random."""
    colour = [c if c < k else rng.randrange(k) for c in start]
    clash = [[0] * k for _ in near]  # clash[v][c]: neighbours of v coloured c
    for v, others in enumerate(near):
        for w in others:
            clash[v][colour[w]] += 1
    conflicts = sum(clash[v][colour[v]] for v in range(len(near))) // 2
    fewest, stale, steps = conflicts, 0, 0
    tabu: dict[tuple[int, int], int] = {}
    while conflicts and stale < patience and not should_stop():
        steps += 1
        stale += 1
        bad = [v for v in range(len(near)) if clash[v][colour[v]]]
        moves = [
            (clash[v][c] - clash[v][colour[v]], rng.random(), v, c)
            for v in bad
            for c in range(k)
            if c != colour[v]
        ]
        allowed = [m for m in moves if tabu.get((m[2], m[3]), 0) <= steps
                   or conflicts + m[0] < fewest]  # fmt: skip
        if not allowed:
            continue
        delta, _, v, c = min(allowed)
        old = colour[v]
        tabu[(v, old)] = steps + rng.randrange(10) + int(0.6 * len(bad))
        colour[v] = c
        for w in near[v]:
            clash[w][old] -= 1
            clash[w][c] += 1
        conflicts += delta
        if conflicts < fewest:
            fewest, stale = conflicts, 0
    return (None if conflicts else colour), steps


# -- the entry point ------------------------------------------------------------------------
Search = Callable[[Board, Graph, random.Random, Stop, int, Tell], Outcome]

#: Problem kind -> its local search (board, graph, rng, should_stop, patience, tell).
SEARCHES: dict[str, Search] = {
    "domination": lambda board, graph, rng, stop, patience, tell: dominate(
        graph, rng, stop, False, patience, tell
    ),
    "independent-domination": lambda board, graph, rng, stop, patience, tell: dominate(
        graph, rng, stop, True, patience, tell
    ),
    "peaceable": lambda board, graph, rng, stop, patience, tell: armies(
        graph, rng, stop, patience, tell
    ),
    "coloring": colour,
}


def search(
    board: Board,
    kind: str,
    seed: int | None,
    should_stop: Stop,
    patience: int = DEFAULT_PATIENCE,
    tell: Tell = tell_nothing,
) -> Outcome:
    """The best answer to ``kind`` on ``board`` found before the search stalls or stops;
    ``tell`` hears each better one on the way."""
    if kind not in SEARCHES:
        raise ValueError(f"no local search for problem {kind!r}")
    graph, rng = Graph.of(board), random.Random(seed or 0)
    return SEARCHES[kind](board, graph, rng, should_stop, patience, tell)


class GraphSearchBackend(Backend):
    """The local searches as a backend: the best answer found, ``feasible`` (a colouring
    that meets the clique bound is proven and says ``optimal``).

    The search runs in a forked child (``runtime.forked``): reading a large board into a
    ``Graph`` and DSatur look at no clock, and the time limit must cover them; the child
    sees the same deadline and hands back its best answer when it comes. Each better
    answer is news (``Run.learn``): the live line and ``--log`` show it, and a child
    stopped before it answered (Ctrl-C) leaves the best one told.
    """

    name = "graph-search"
    family = Family.HEURISTIC
    tasks = MappingProxyType({kind: frozenset({Task.OPTIMIZE}) for kind in SEARCHES})
    features = frozenset({Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "local search on the queens graph: iterated greedy, armies, TabuCol (Python)"
    options = (
        Option("patience", "steps without a better answer before the search ends",
               DEFAULT_PATIENCE, convert=positive_int),
    )  # fmt: skip
    uses_seed = True

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        result = forked.in_child(lambda: self._search(problem, run, question), run, None)
        return OptimizeResult.of_news(run.news, problem.kind) if result is None else result

    def _search(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        def tell(answer: Any, bound: int | None) -> None:
            run.learn("solution", News(question.kind.value(answer), answer, bound))

        board, patience = problem.board, self.settings["patience"]
        outcome = search(board, problem.kind, run.seed, run.should_stop, patience, tell)
        run.stats.add(moves=outcome.steps)
        if outcome.answer is None:  # no independent dominating set met (blocked cells)
            status = Status.LIMIT if run.should_stop() else Status.UNKNOWN
            return OptimizeResult(status, kind=problem.kind)
        value = question.kind.value(outcome.answer)
        status = Status.OPTIMAL if value == outcome.bound else Status.FEASIBLE
        return OptimizeResult(status, value, kind=problem.kind, answer=outcome.answer,
                              bound=outcome.bound)  # fmt: skip
