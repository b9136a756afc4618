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
clauses: the literal stays fixed and its reason alive. The propagation runs in Numba
kernels (``proofs.drat_kernel``) in chunks, ``should_stop`` looked at between them.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from queenslab.core.errors import LimitReached
from queenslab.core.run import never
from queenslab.proofs import drat_kernel as kernel
from queenslab.proofs.lrat import Clause, ProofError

#: Steps per kernel call between two looks at ``should_stop``.
_CHUNK = 2048
#: Hints a backward call may write before handing them over.
_HINTS = 1 << 20


def lemmas(lines: Iterable[str]) -> Iterator[tuple[bool, Clause]]:
    """The steps of a text DRAT proof: (True, clause) added, (False, clause) deleted."""
    for number, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        deleted = words[0] == "d"
        try:
            literals = [int(w) for w in words[deleted:]]
        except ValueError:
            raise ProofError(f"DRAT line {number} is malformed: {line.strip()[:60]!r}") from None
        if literals[-1:] != [0] or 0 in literals[:-1]:
            raise ProofError(f"DRAT line {number} is not one clause ended by 0")
        yield not deleted, tuple(literals[:-1])


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
    """Number the clauses; a deletion names the latest alive clause of the same literals."""
    lits, start, flags, steps = array("i"), array("q", [0, 0]), array("b", [0]), array("i")
    by_literals: dict[bytes, list[int]] = {}  # by _key: a few times smaller than frozensets

    def add(clause: Clause) -> None:
        literals = list(dict.fromkeys(clause))
        cid = len(flags)
        lits.extend(literals)
        start.append(len(lits))
        flags.append(kernel.TAUTOLOGY if len(set(map(abs, literals))) < len(literals) else 0)
        by_literals.setdefault(_key(literals), []).append(cid)
        steps.append(cid)

    for clause in formula:
        add(clause)
    for count, (added, clause) in enumerate(lemmas(drat)):
        if count % _CHUNK == 0 and should_stop():
            raise LimitReached
        if added:
            add(clause)
        else:
            ids = by_literals.get(_key(set(clause)))
            steps.append(-ids.pop() if ids else 0)
    flat = np.frombuffer(lits, np.int32).copy() if lits else np.zeros(1, np.int32)
    return _Clauses(
        len(formula),
        int(np.abs(flat).max()),
        flat,
        np.frombuffer(start, np.int64).copy(),
        np.frombuffer(flags, np.int8).copy(),
        np.frombuffer(steps, np.int32).copy() if steps else np.zeros(0, np.int32),
    )


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


def _key(literals: Iterable[int]) -> bytes:
    """The same bytes for the same set of distinct literals."""
    return array("i", sorted(literals)).tobytes()


def _ended(numbers: np.ndarray) -> str:
    """The numbers and a 0, as a DRAT or LRAT line writes them."""
    return " ".join(map(str, [*numbers.tolist(), 0]))
