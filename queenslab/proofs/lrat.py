"""An LRAT proof checker: one pass, each step checked by its own hints.

LRAT (Cruz-Filipe, Heule, Hunt, Kaufmann and Schneider-Kamp 2017) numbers the formula's
clauses 1..m in file order; each step adds a clause under a new, larger number with the
hints that justify it (RUP with hints), or deletes clauses by number:

    id lit ... 0 hint ... 0        add the clause ``lit ...``
    id d id ... 0                  delete these clauses (they may not be hinted again)

A clause is accepted when, starting from its literals all false, each hint in turn is a
clause with exactly one literal not yet false (that literal becomes true) until a hint
has none left: a conflict. No search and no unit propagation over the whole formula: the
work is the total length of the hinted clauses, linear in the proof's size. A proof is
valid when every step is and one of them (or the formula) is the empty clause. RAT steps
(negative hints) are refused: the solvers used here write none. The steps are read and
checked by a Numba kernel (``proofs.lrat_kernel``), a batch of lines at a time: a proof of
gigabytes, checked word by word in Python, took longer than the solver that wrote it.

Why a checker of our own: a solver's "unsatisfiable" is a claim; a proof checked by a
program that shares no code with the solver is evidence (the "proof" of ``queens decide``
says ``checked`` only after this function returned).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from queenslab.core.errors import LimitReached
from queenslab.core.run import never
from queenslab.proofs import lrat_kernel as kernel
from queenslab.proofs import reading

Clause = tuple[int, ...]
#: Lines checked per kernel call, between two looks at ``should_stop``.
_BATCH = 1 << 16
#: The largest variable and clause id taken: the checker keeps arrays indexed by them.
_LARGEST = 1 << 28


class ProofError(Exception):
    """The proof is rejected; the message says which step fails and why, in one line."""


def read_cnf(lines: Iterable[str]) -> list[Clause]:
    """The clauses of a DIMACS CNF (comments and the ``p`` line skipped; a clause may span
    lines). ProofError on a word that is not a number."""
    clauses: list[Clause] = []
    current: list[int] = []
    for number, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0] in ("c", "p") or line.startswith(("c", "%")):
            continue
        try:
            literals = [int(word) for word in words]
        except ValueError:
            raise ProofError(f"CNF line {number} is not a clause: {line.strip()[:40]!r}") from None
        for lit in literals:
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            else:
                current.append(lit)
    if current:
        raise ProofError("the CNF's last clause is not ended by 0")
    return clauses


def check(
    formula: Sequence[Clause],
    proof: Iterable[str],
    should_stop: Callable[[], bool] = never,
) -> int:
    """Check the text LRAT ``proof`` of the formula's unsatisfiability; the number of
    clauses it added. ProofError (one line) when a step fails or no empty clause comes;
    LimitReached when ``should_stop`` says stop first."""
    flat = np.fromiter(itertools.chain.from_iterable(formula), np.int32)
    bounds = np.cumsum([0, *map(len, formula)], dtype=np.int64)
    ids = _Ids(len(formula) + 1)
    store = np.zeros(flat.size + 1, np.int32)
    true = np.zeros(2 * int(np.abs(flat).max(initial=0)) + 2, np.int32)
    counts = kernel.empty_counts()
    kernel.add_formula(flat, bounds, ids.where, ids.size, store, counts)
    done = 0
    for batch, text in reading.batches(proof, _BATCH):
        if counts[kernel.REFUTED]:
            break
        if should_stop():
            raise LimitReached
        store = _grown(store, int(counts[kernel.USED]) + text.size // 2 + 1)
        at = 0
        while True:
            kernel.check(text, at, ids.where, ids.size, store, true, counts)
            why, at = int(counts[kernel.STOP]), int(counts[kernel.AT])
            if why == kernel.MORE_IDS:
                ids.grow(int(counts[kernel.STEP]))
            elif why == kernel.MORE_VARIABLES:
                true = _grown(true, 2 * _checked(int(counts[kernel.OTHER]), "variable") + 2)
            elif why != kernel.DONE:
                raise _error(why, counts, batch, reading.line_at(batch, at), done)
            else:
                break
        done += len(batch)
    if not counts[kernel.REFUTED]:
        raise ProofError("the proof does not derive the empty clause")
    return int(counts[kernel.ADDED])


class _Ids:
    """The clauses by id: where their literals start in the store, and how many (-1: none)."""

    def __init__(self, count: int) -> None:
        self.where = np.full(count, -1, np.int64)
        self.size = np.full(count, -1, np.int32)

    def grow(self, step: int) -> None:
        """Room for clause id ``step``."""
        self.where = _grown(self.where, _checked(step, "clause id") + 1, -1)
        self.size = _grown(self.size, step + 1, -1)


def _checked(number: int, what: str) -> int:
    """``number``, when this checker's arrays by number can take it."""
    if number > _LARGEST:
        raise ProofError(f"{what} {number} is beyond this checker's largest, {_LARGEST}")
    return number


def _grown(array: np.ndarray, size: int, fill: int = 0) -> np.ndarray:
    """``array``, or a copy at least twice as long when it is shorter than ``size``."""
    if array.size >= size:
        return array
    grown = np.full(max(size, 2 * array.size), fill, array.dtype)
    grown[: array.size] = array
    return grown


def _error(why: int, counts: np.ndarray, batch: list[str], index: int, done: int) -> ProofError:
    """The one line of a step that failed, or of a malformed line (``index`` in batch)."""
    step, other = int(counts[kernel.STEP]), int(counts[kernel.OTHER])
    messages = {
        kernel.REUSED: f"step {step} reuses a number: ids must grow (last {other})",
        kernel.RAT: f"step {step} has a RAT hint {other}: only RUP steps are checked",
        kernel.UNKNOWN: f"step {step} hints clause {other}, which is deleted or unknown",
        kernel.NOT_UNIT: f"step {step}: hint {other} is not unit where it is used",
        kernel.NO_CONFLICT: f"step {step}: its hints end without a conflict",
        kernel.NOT_THERE: f"step {step} deletes clause {other}, which is not there",
    }
    line = batch[index].strip()[:60]
    return ProofError(messages.get(why, f"LRAT line {done + index + 1} is malformed: {line!r}"))
