"""N-queens in CNF: the placement kind's model encoded once per board, and what every
CNF route shares (the cardinality encodings, Ctrl-C inside python-sat, DIMACS text).

There is no second statement of the board here: ``board_cnf`` encodes the placement
kind's ``cells`` model (``problems.placement``) as any kind's model is encoded
(``zero_one.cnf``), and adds what a placement search wants of it: the variable of each
cell, the columns of a solver's model, the clause blocking one board. The ``sat`` cube
counts and the ``sharpsat`` and external-solver routes build on it.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import TextIO

from queenslab.boards import Board, Cell
from queenslab.core.backend import Option
from queenslab.core.errors import UsageError
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


def check_encoding(encoding: str) -> str:
    if encoding not in ENCODINGS:
        raise UsageError(f"unknown encoding {encoding!r}; choose from: {', '.join(ENCODINGS)}")
    return encoding


#: The largest board put into CNF: one row's "exactly one" is about n²/2 pairwise
#: clauses, which past a few thousand queens no longer fits in memory (n = 46340, the last
#: n whose n² cells have 32-bit variable numbers, ends in the solver's bad_alloc).
LARGEST_N = 2000


@dataclass(frozen=True, eq=False)
class BoardCnf:
    """The placement kind's model of a board (``problems.placement``) in CNF: the one
    statement of N-queens, encoded as every 0-1 model is (``zero_one.cnf.encode``).

    Its variables are the model's, shifted by one: the open cells row by row, then the
    encoding's auxiliary variables. Givens are not in it: a solve adds them as unit clauses
    or as assumptions (the cubes of a count), so one formula serves a board's every cube.
    """

    clauses: tuple[tuple[int, ...], ...]
    top: int
    #: The cell of each board variable (index: variable - 1).
    cells: tuple[Cell, ...]

    @cached_property
    def variable(self) -> dict[Cell, int]:
        """The DIMACS variable of each open cell."""
        return {cell: v for v, cell in enumerate(self.cells, 1)}

    @property
    def board_size(self) -> int:
        """How many variables stand for cells (the first ones)."""
        return len(self.cells)

    def units(self, cells: Iterable[Cell]) -> list[int]:
        """The literals "a queen on each of ``cells``" (givens, a cube's queens)."""
        return [self.variable[cell] for cell in cells]

    def with_givens(self, givens: Iterable[Cell]) -> list[tuple[int, ...]]:
        """The clauses with ``givens`` as unit clauses."""
        return [*self.clauses, *((lit,) for lit in self.units(givens))]

    def queens(self, model: Iterable[int]) -> list[Cell]:
        """The cells of the true board variables among a solver's literals, in its order."""
        size = self.board_size
        return [self.cells[lit - 1] for lit in model if 0 < lit <= size]

    def columns(self, model: Sequence[int]) -> tuple[int, ...]:
        """The columns of the queens in a solver's model (literals in variable order)."""
        return tuple(self.cells[lit - 1][1] for lit in model[: self.board_size] if lit > 0)

    def blocking(self, model: Sequence[int]) -> list[int]:
        """The clause "not all of these queens": it removes exactly this board (every row
        holds one queen), whatever the auxiliary variables were."""
        return [-lit for lit in model[: self.board_size] if lit > 0]


#: The formulas of the boards built last, oldest first: a count's forked cube workers reuse
#: what their parent built, and a notebook solving one board again does not rebuild it.
_BUILT: dict[tuple[Board, str], BoardCnf] = {}
_KEPT = 8


def board_cnf(board: Board, encoding: str, should_stop: Callable[[], bool] = never) -> BoardCnf:
    """The placement model of ``board`` in CNF, built once per board and encoding.

    ``should_stop`` is asked while it is encoded: a big board takes long (pairwise: about
    n³ clauses), and a run's time limit covers the build (LimitReached).
    """
    if board.n > LARGEST_N:
        raise UsageError(f"the CNF models take n <= {LARGEST_N} (a row alone is about "
                         f"n²/2 clauses), got {board.n}")  # fmt: skip
    key = (board, check_encoding(encoding))
    if key not in _BUILT:
        built = _encode(board, encoding, should_stop)
        if len(_BUILT) >= _KEPT:
            del _BUILT[next(iter(_BUILT))]
        _BUILT[key] = built
    return _BUILT[key]


@pysat_ctrl_c()
def _encode(board: Board, encoding: str, should_stop: Callable[[], bool]) -> BoardCnf:
    from queenslab.models.zero_one.cnf import encode
    from queenslab.problems.placement import feasibility_model

    model = feasibility_model(board, should_stop=should_stop)
    cnf = encode(model, encoding, should_stop)
    cells = tuple(board.open_cells())
    assert model.answer == list(range(len(cells))), "the cells are the first variables"
    return BoardCnf(tuple(cnf.clauses), cnf.top, cells)


def write_dimacs(out: TextIO, top: int, clauses: Sequence[Iterable[int]]) -> None:
    """The DIMACS ``p cnf`` line and the clauses, each ended by 0 (for any SAT solver)."""
    out.write(f"p cnf {top} {len(clauses)}\n")
    out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
