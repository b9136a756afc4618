"""N-queens as CNF: the board variables and the clauses of the board's groups.

Variables 1..n² are the board cells (cell (r, c) is ``r*n + c + 1``); the auxiliary
variables of the cardinality encodings come after them. The constraints are the board's
groups (``Board.groups``: rows and columns exactly one queen, diagonals and leap pairs at
most one, for every variant), each encoded by the chosen cardinality encoding; blocked
cells and given queens are unit clauses. The ``sat``, ``maxsat`` and ``sharpsat`` backends,
the external solver route and the DIMACS, WCNF and OPB exports all build on these clauses.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from queenslab.boards import Board
from queenslab.core.backend import Option
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import never

#: pysat cardinality encodings that handle "exactly one" and "at most one" (``native``
#: needs a cardinality-aware solver and is left out).
ENCODINGS = (
    "pairwise",
    "seqcounter",
    "ladder",
    "totalizer",
    "sortnetwrk",
    "cardnetwrk",
    "mtotalizer",
    "kmtotalizer",
    "bitwise",
)

#: The cardinality encoding option, shared by every backend built on these clauses.
ENCODING_OPTION = Option(
    "encoding", "cardinality encoding of the at-most/exactly-one lines", "pairwise", ENCODINGS
)


@contextmanager
def pysat_ctrl_c() -> Iterator[None]:
    """Ctrl-C inside python-sat's C code (a solve, an encoding) as a KeyboardInterrupt.

    In the main thread python-sat catches SIGINT itself, jumps out of the solver and raises
    its own error "Caught keyboard interrupt" (a traceback, exit 1), leaving its handler
    installed. Python's handler goes back in place, and the run ends as any interrupted run.
    """
    handler = signal.getsignal(signal.SIGINT)
    try:
        yield
    except Exception as exc:
        if str(exc) != "Caught keyboard interrupt":
            raise
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
        raise KeyboardInterrupt from None


def cell(n: int, row: int, col: int) -> int:
    """The board variable of cell (row, col)."""
    return row * n + col + 1


def check_encoding(encoding: str) -> str:
    if encoding not in ENCODINGS:
        raise UsageError(f"unknown encoding {encoding!r}; choose from: {', '.join(ENCODINGS)}")
    return encoding


#: The clauses of the boards built last, oldest first: a count's forked cube workers reuse
#: what their parent built, and a notebook solving one board again does not rebuild it.
_BUILT: dict[tuple[Board, str], tuple[tuple[tuple[int, ...], ...], int]] = {}
_KEPT = 8


#: The largest board put into CNF: one row's "exactly one" is about n²/2 pairwise
#: clauses, which past a few thousand queens no longer fits in memory (n = 46340, the last
#: n whose n² cells have 32-bit variable numbers, ends in the solver's bad_alloc).
LARGEST_N = 2000


def board_clauses(
    board: Board, encoding: str, should_stop: Callable[[], bool] = never
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The clauses of the board's groups (no givens), and the highest variable they use.

    Each group is "exactly one" or "at most one" of its cells, encoded by ``encoding``;
    blocked cells are unit clauses "empty". ``should_stop`` is asked after each group:
    a big board takes long to encode (pairwise: about n³ clauses), and a run's time limit
    covers the build (LimitReached).
    """
    if board.n > LARGEST_N:
        raise UsageError(f"the CNF models take n <= {LARGEST_N} (a row alone is about "
                         f"n²/2 clauses), got {board.n}")  # fmt: skip
    key = (board, encoding)
    if key not in _BUILT:
        built = _encode(board, encoding, should_stop)
        if len(_BUILT) >= _KEPT:
            del _BUILT[next(iter(_BUILT))]
        _BUILT[key] = built
    return _BUILT[key]


@pysat_ctrl_c()
def _encode(
    board: Board, encoding: str, should_stop: Callable[[], bool]
) -> tuple[tuple[tuple[int, ...], ...], int]:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    kind = getattr(EncType, check_encoding(encoding))
    n = board.n
    pool = IDPool(start_from=n * n + 1)
    clauses: list[tuple[int, ...]] = [(-cell(n, r, c),) for r, c in board.blocked]
    for group in board.groups():
        if should_stop():
            raise LimitReached
        literals = [cell(n, r, c) for r, c in group.cells]
        if group.exactly_one and not literals:
            clauses.append(())  # a row or column with every cell blocked
            continue
        encode = CardEnc.equals if group.exactly_one else CardEnc.atmost
        clauses.extend(tuple(c) for c in encode(literals, 1, vpool=pool, encoding=kind).clauses)
    return tuple(clauses), max(pool.top, n * n)


def clauses(
    problem: Problem, encoding: str, should_stop: Callable[[], bool] = never
) -> tuple[list[tuple[int, ...]], int]:
    """The clauses of a problem (givens as unit clauses) and its number of variables;
    LimitReached when ``should_stop`` says stop before they are built."""
    hard, top = board_clauses(problem.board, encoding, should_stop)
    units = [(cell(problem.n, r, c),) for r, c in problem.givens]
    return [*hard, *units], top


def decode(n: int, model: list[int]) -> tuple[int, ...]:
    """The columns of the queens in a model (the true board variables, in row order)."""
    return tuple((lit - 1) % n for lit in model[: n * n] if lit > 0)


def write_dimacs(out: TextIO, top: int, clauses: Sequence[Iterable[int]]) -> None:
    """The DIMACS ``p cnf`` line and the clauses, each ended by 0 (for any SAT solver)."""
    out.write(f"p cnf {top} {len(clauses)}\n")
    out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
