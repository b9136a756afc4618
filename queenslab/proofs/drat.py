"""DRAT to LRAT: find the hints of the lemmas of a solver's clausal proof that matter.

A DRAT proof (Wetzler, Heule and Hunt 2014, the format of DRAT-trim and of the SAT
competitions) lists the clauses a solver learnt and deleted, without saying why each
follows. This pass works as DRAT-trim's backward check does (same authors, 2014):

1. forward, it applies the additions and deletions with unit propagation at the top level
   only, no lemma checked, until a clause is false: the final conflict, whose reasons
   are the first clauses marked as used;
2. backward from there, it undoes each step; a lemma marked as used is checked: its
   literals are assigned false over the clauses alive when it was added, propagation
   (two watched literals) must reach a conflict, and the clauses that took part (walking
   the implication graph back, in the order they became unit) are its LRAT hints, marked
   as used in turn. Used clauses propagate first (core first, as in DRAT-trim), so the
   hints reuse them where they can. An unmarked lemma is skipped and left out of the LRAT.

So only the lemmas the refutation needs are checked, as in DRAT-trim: a wrong lemma that
nothing uses does not make the proof fail. ``proofs.lrat`` then checks the LRAT on its
own. A used lemma that propagation does not refute is refused: RAT lemmas (which CaDiCaL
writes only with extended resolution options) are not supported. Deleting a clause that
is the reason of a literal fixed at the top level is ignored, as DRAT-trim does for unit
clauses: the literal stays fixed and its reason alive. The proof is read by Numba kernels
(``proofs.drat_read``) and propagated by others (``proofs.drat_kernel``), in chunks,
``should_stop`` looked at between them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from queenslab.core.errors import LimitReached
from queenslab.core.run import never
from queenslab.proofs import drat_kernel as kernel
from queenslab.proofs import drat_read as reader
from queenslab.proofs import reading
from queenslab.proofs.lrat import Clause, ProofError

#: Steps per kernel call between two looks at ``should_stop``.
_CHUNK = 2048
#: DRAT lines parsed per kernel call.
_BATCH = 1 << 16
#: Hints a backward call may write before handing them over.
_HINTS = 1 << 20
#: The clauses the reader's store (and its hash table) has room for before it grows.
FIRST_CLAUSES = 1 << 12


@dataclass
class _Clauses:
    """The formula's clauses (ids 1..formula) and the proof's lemmas (ids after them) as
    flat arrays, and the steps: +id added, -id deleted, 0 a deletion of an absent clause."""

    formula: int
    variables: int
    lits: np.ndarray
    start: np.ndarray
    flags: np.ndarray
    steps: np.ndarray


class _Hints:
    """The hints found for the checked lemmas: the kernel's buffers as they came, and by
    lemma id the buffer (-1: not checked) and the slice in it."""

    def __init__(self, clauses: int) -> None:
        self.buffers: list[np.ndarray] = []
        self.buffer = np.full(clauses, -1, np.int32)
        self.begin = np.zeros(clauses, np.int64)
        self.end = np.zeros(clauses, np.int64)

    def add(self, checked: np.ndarray, ends: np.ndarray, buffer: np.ndarray) -> None:
        """Lemmas ``checked``, their hints in ``buffer`` up to each of ``ends``."""
        if checked.size:
            self.buffer[checked] = len(self.buffers)
            self.begin[checked] = np.concatenate(([0], ends[:-1]))
            self.end[checked] = ends
            self.buffers.append(buffer[: ends[-1]].copy())

    def of(self, cid: int) -> np.ndarray | None:
        at = self.buffer[cid]
        return None if at < 0 else self.buffers[at][self.begin[cid] : self.end[cid]]


def _read(
    formula: Sequence[Clause], drat: Iterable[str], should_stop: Callable[[], bool]
) -> _Clauses:
    """Number the clauses; a deletion names the latest alive clause of the same literals.
    The proof's lines are parsed in batches by ``drat_read``."""
    store = _Store()
    flat = np.fromiter(itertools.chain.from_iterable(formula), np.int32)
    bounds = np.cumsum([0, *map(len, formula)], dtype=np.int64)
    store.room(flat.size, len(formula), flat.size)
    reader.store_formula(flat, bounds, *store.arrays())
    done = 0
    for batch, text in reading.batches(drat, _BATCH):
        if should_stop():
            raise LimitReached
        store.room(text.size // 2 + 1, text.size // 2 + 1, text.size // 2 + 1)
        reader.parse(text, *store.arrays())
        if store.counts[reader.ERROR]:
            index = reading.line_at(batch, int(store.counts[reader.ERROR]) - 1)
            number, line = done + index + 1, batch[index].strip()[:60]
            if store.counts[reader.BAD] == reader.NOT_A_NUMBER:
                raise ProofError(f"DRAT line {number} is malformed: {line!r}")
            raise ProofError(f"DRAT line {number} is not one clause ended by 0: {line!r}")
        done += len(batch)
    return store.clauses(len(formula))


class _Store:
    """The growing arrays ``drat_read`` fills, and its hash table of alive clauses."""

    def __init__(self) -> None:
        self.counts = reader.empty_counts()
        self.lits = np.zeros(1 << 16, np.int32)
        self.start = np.zeros(FIRST_CLAUSES, np.int64)
        self.flags = np.zeros(FIRST_CLAUSES, np.int8)
        self.chain = np.full(FIRST_CLAUSES, reader.NONE, np.int32)
        self.steps = np.zeros(FIRST_CLAUSES, np.int32)
        self.table = np.full(FIRST_CLAUSES, reader.NONE, np.int32)
        self.scratch = np.zeros(FIRST_CLAUSES, np.int32)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.scratch, self.lits, self.start, self.flags, self.steps, self.table,
                self.chain, self.counts)  # fmt: skip

    def room(self, literals: int, clauses: int, line: int) -> None:
        """Grow the arrays (doubling) to take ``literals`` and ``clauses`` more, and
        lines of up to ``line`` literals; the table to at least one bucket per clause."""
        used, ids, steps = (
            int(self.counts[i]) for i in (reader.LITS, reader.CLAUSES, reader.STEPS)
        )
        self.lits = _grown(self.lits, used + literals, 0)
        self.start = _grown(self.start, ids + clauses + 2, 0)
        self.flags = _grown(self.flags, ids + clauses + 1, 0)
        self.chain = _grown(self.chain, ids + clauses + 1, reader.NONE)
        self.steps = _grown(self.steps, steps + clauses, 0)
        self.scratch = _grown(self.scratch, line + 1, 0)
        if self.table.size < ids + clauses:
            size = 1 << (ids + clauses).bit_length()
            self.table = np.full(size, reader.NONE, np.int32)
            reader.rehash(self.table, self.chain, self.lits, self.start, self.steps, steps)

    def _counts(self) -> tuple[int, int, int]:
        """Literals stored, the next clause id, steps written."""
        counts = self.counts
        return int(counts[reader.LITS]), int(counts[reader.CLAUSES]), int(counts[reader.STEPS])

    def clauses(self, formula: int) -> _Clauses:
        ids, used, steps = (
            int(self.counts[i]) for i in (reader.CLAUSES, reader.LITS, reader.STEPS)
        )
        lits = self.lits[:used].copy() if used else np.zeros(1, np.int32)
        return _Clauses(formula, int(np.abs(lits).max()), lits, self.start[: ids + 1].copy(),
                        self.flags[:ids].copy(), self.steps[:steps].copy())  # fmt: skip


def _grown(array: np.ndarray, size: int, fill: int) -> np.ndarray:
    """``array``, or a copy at least twice as long when it is shorter than ``size``."""
    if array.size >= size:
        return array
    grown = np.full(max(size, 2 * array.size), fill, array.dtype)
    grown[: array.size] = array
    return grown


def to_lrat(
    formula: Sequence[Clause],
    drat: Iterable[str],
    out: TextIO,
    should_stop: Callable[[], bool] = never,
) -> int:
    """Write the LRAT proof of ``formula`` that the DRAT proof's used lemmas give; the
    number of clauses written. ProofError when a used lemma is not implied by unit
    propagation or the proof ends without a conflict; LimitReached when ``should_stop``
    says stop."""
    clauses = _read(formula, drat, should_stop)
    steps, start = clauses.steps, clauses.start
    state = kernel.empty_state(clauses.variables, len(clauses.flags))
    before = np.zeros(len(steps), np.int32)
    ignored = np.zeros(len(steps), np.uint8)
    everything = np.ones(len(clauses.flags), np.uint8)
    shared = (clauses.lits, start, clauses.flags, everything)
    watches = (state["head"], state["nxt"], state["val"], state["trail"], state["reason"])
    last = -1
    for done in range(0, len(steps), _CHUNK):
        if should_stop():
            raise LimitReached
        stop = min(done + _CHUNK, len(steps))
        last = kernel.forward(steps, done, stop, before, ignored, *shared, *watches,
                              state["pos"], state["sc"])  # fmt: skip
        if last >= 0:
            break
    if last < 0:
        raise ProofError("the DRAT proof ends without refuting the formula")
    conflict = int(state["sc"][kernel.CONFLICT])
    marked = np.zeros(len(clauses.flags), np.uint8)
    final = np.zeros(clauses.variables + 2, np.int32)
    used = kernel.analyze(conflict, 0, final, 0, clauses.lits, start, marked,
                          state["trail"], state["reason"], state["seen"], state["sc"])  # fmt: skip
    hints = _backward(clauses, last, before, ignored, marked, state, should_stop)
    written = _write(clauses, last, ignored, marked, hints, out, should_stop)
    if start[conflict + 1] > start[conflict] or conflict > clauses.formula:
        out.write(f"{len(clauses.flags)} 0 {_ended(final[:used])}\n")
        written += 1
    return written


def _backward(
    clauses: _Clauses,
    last: int,
    before: np.ndarray,
    ignored: np.ndarray,
    marked: np.ndarray,
    state: dict[str, np.ndarray],
    should_stop: Callable[[], bool],
) -> _Hints:
    """The hints of each used lemma, found undoing the steps from ``last`` down."""
    found = _Hints(len(clauses.flags))
    checked = np.zeros(_CHUNK, np.int32)
    ends = np.zeros(_CHUNK, np.int64)
    buffer = np.zeros(_HINTS + state["trail"].size + 2, np.int32)
    done = last + 1
    while done > clauses.formula:
        if should_stop():
            raise LimitReached
        done, count = kernel.backward(
            clauses.steps, done, clauses.formula, before, ignored, clauses.lits,
            clauses.start, clauses.flags, marked, state["head"], state["nxt"], state["val"],
            state["trail"], state["reason"], state["pos"], state["seen"], state["sc"],
            checked, ends, buffer,
        )  # fmt: skip
        found.add(checked[:count], ends[:count], buffer)
        failed = int(state["sc"][kernel.FAILED])
        if failed:
            cid = int(clauses.steps[failed - 1])
            clause = clauses.lits[clauses.start[cid] : clauses.start[cid + 1]]
            raise ProofError(
                f"DRAT step {failed - clauses.formula} ({_ended(clause)}) is not implied by "
                "unit propagation (RAT lemmas are not supported)"
            )
    return found


def _write(
    clauses: _Clauses,
    last: int,
    ignored: np.ndarray,
    marked: np.ndarray,
    hints: _Hints,
    out: TextIO,
    should_stop: Callable[[], bool],
) -> int:
    """The used lemmas with their hints and the deletions of clauses the LRAT has, in the
    proof's order up to step ``last``; the number of lemmas written."""
    lits, start = clauses.lits, clauses.start
    latest, written = clauses.formula, 0
    for i, step in enumerate(clauses.steps[clauses.formula : last + 1].tolist(), clauses.formula):
        if i % _CHUNK == 0 and should_stop():
            raise LimitReached
        used = hints.of(step) if step > 0 else None
        if used is not None:
            clause = lits[start[step] : start[step + 1]]
            out.write(f"{step} {_ended(clause)} {_ended(used)}\n")
            latest, written = step, written + 1
        elif step < 0 and not ignored[i] and (-step <= clauses.formula or marked[-step]):
            out.write(f"{latest} d {-step} 0\n")
    return written


def _ended(numbers: np.ndarray) -> str:
    """The numbers and a 0, as a DRAT or LRAT line writes them."""
    return " ".join(map(str, [*numbers.tolist(), 0]))
