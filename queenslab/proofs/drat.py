"""DRAT to LRAT: find the hints of each lemma of a solver's clausal proof.

A DRAT proof (Wetzler, Heule and Hunt 2014, the format of DRAT-trim and of the SAT
competitions) lists the clauses a solver learnt and deleted, without saying why each
follows. This pass finds out forward, lemma by lemma: it assigns the lemma's literals
false over the clauses alive at that point, runs unit propagation (two watched literals),
and, at the conflict, walks the implication graph back to the clauses that took part,
in the order they became unit: those are the lemma's LRAT hints (``proofs.lrat``, which
then checks them on its own). A lemma that propagation does not refute is refused: RAT
lemmas (which CaDiCaL writes only with extended resolution options) are not supported.

Deleting a clause that is the reason of a literal fixed at the top level is ignored, as
DRAT-trim does for unit clauses: the literal stays fixed and its reason alive. Unlike
DRAT-trim's backward pass, every lemma is checked, needed or not: simpler, and slower on
proofs with many useless lemmas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

from queenslab.core.errors import LimitReached
from queenslab.core.run import never
from queenslab.proofs.lrat import Clause, ProofError

#: Lemmas between two looks at ``should_stop``.
_CHECK_EVERY = 1024


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


class _Propagator:
    """Clauses by id with two watched literals, a trail of true literals and their reasons.

    Values and watch lists are Python lists indexed by the literal itself: a list of
    2 * top + 1 entries takes -top..top (negative indices wrap past the positive ones),
    which makes the inner loop of propagation twice as fast as sets and dicts.
    """

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int] | None] = [None]  # by id; None: deleted or absent
        self.watches: list[list[int]] = [[]]
        self.true: list[bool] = [False]
        self.reason: list[int] = [0]  # by variable: a clause id, 0 when assumed
        self.by_literals: dict[frozenset[int], list[int]] = {}
        self.trail: list[int] = []
        self.conflict: int | None = None  # a clause false at the top level

    def _grow(self, top: int) -> None:
        """Room for the variables up to ``top`` (negative literals keep their entries)."""
        old, size = self.top, 2 * top + 1
        for name in ("true", "watches"):
            before = getattr(self, name)
            after = [[] for _ in range(size)] if name == "watches" else [False] * size
            for k in range(1, old + 1):
                after[k], after[-k] = before[k], before[-k]
            setattr(self, name, after)
        self.reason += [0] * (top - old)
        self.top = top

    def add(self, cid: int, clause: Clause) -> None:
        """A clause alive from now on; at the top level, propagated at once."""
        literals = list(dict.fromkeys(clause))
        highest = max(map(abs, literals), default=0)
        if highest > self.top:
            self._grow(highest)
        self.clauses += [None] * (cid + 1 - len(self.clauses))
        self.clauses[cid] = literals
        self.by_literals.setdefault(frozenset(literals), []).append(cid)
        if len(set(map(abs, literals))) < len(literals):
            return  # a tautology propagates nothing
        true = self.true
        literals.sort(key=lambda lit: true[-lit])  # literals not false first
        if len(literals) > 1:
            self.watches[literals[0]].append(cid)
            self.watches[literals[1]].append(cid)
        if not literals or true[-literals[0]]:
            self.conflict = cid
        elif (len(literals) == 1 or true[-literals[1]]) and not true[literals[0]]:
            self._assign(literals[0], cid)
            self.conflict = self.propagate(len(self.trail) - 1)

    def delete(self, clause: Clause) -> int | None:
        """Forget a clause (its id, or None when absent or a top-level reason)."""
        ids = self.by_literals.get(frozenset(clause))
        if not ids:
            return None
        cid = ids[-1]
        literals = self.clauses[cid]
        assert literals is not None
        if any(self.true[lit] and self.reason[abs(lit)] == cid for lit in literals):
            return None
        ids.pop()
        self.clauses[cid] = None  # its watches go when next visited
        return cid

    def _assign(self, lit: int, reason: int) -> None:
        self.true[lit] = True
        self.trail.append(lit)
        self.reason[abs(lit)] = reason

    def propagate(self, start: int) -> int | None:
        """Unit propagation from trail position ``start``: a conflicting clause's id or None."""
        clauses, true, watches, trail, reason = (
            self.clauses, self.true, self.watches, self.trail, self.reason
        )  # fmt: skip
        i = start
        while i < len(trail):
            false = -trail[i]
            i += 1
            watching = watches[false]
            kept = 0
            at = 0
            count = len(watching)
            while at < count:
                cid = watching[at]
                at += 1
                lits = clauses[cid]
                if lits is None:
                    continue  # deleted
                if lits[0] == false:
                    lits[0], lits[1] = lits[1], false
                first = lits[0]
                if true[first]:
                    watching[kept] = cid
                    kept += 1
                    continue
                for k in range(2, len(lits)):
                    other = lits[k]
                    if not true[-other]:
                        lits[1], lits[k] = other, false
                        watches[other].append(cid)
                        break
                else:
                    watching[kept] = cid
                    kept += 1
                    if true[-first]:
                        watching[kept:] = watching[at:]
                        return cid
                    true[first] = True
                    trail.append(first)
                    reason[abs(first)] = cid
            del watching[kept:]
        return None

    def hints(self, conflict: int, skip: int = 0) -> list[int]:
        """The reasons the conflict used, in trail order, then the conflicting clause
        (whose variable ``skip`` needs no reason)."""
        clauses = self.clauses
        wanted = {abs(lit) for lit in clauses[conflict] or ()} - {skip}
        used: list[int] = []
        for lit in reversed(self.trail):
            if not wanted:
                break
            var = abs(lit)
            if var not in wanted:
                continue
            wanted.discard(var)
            cid = self.reason[var]
            if cid:
                used.append(cid)
                wanted.update(abs(other) for other in clauses[cid] or () if other != lit)
        return [*reversed(used), conflict]

    def refute(self, lemma: Clause) -> list[int] | None:
        """The hints that refute ``lemma``'s negation, or None; the trail is restored."""
        literals = set(lemma)
        if any(-lit in literals for lit in literals):
            return []  # a tautology: implied without hints
        for lit in literals:
            if abs(lit) > self.top:
                self._grow(abs(lit))
        fixed = [lit for lit in lemma if self.true[lit]]
        if fixed:  # true at the top level: the reasons of the first one on the trail
            first = min(fixed, key=self.trail.index)
            return self.hints(self.reason[abs(first)], skip=abs(first))
        mark = len(self.trail)
        try:
            for lit in lemma:
                if not self.true[-lit]:
                    self._assign(-lit, 0)
            conflict = self.propagate(mark)
            return None if conflict is None else self.hints(conflict)
        finally:
            for lit in self.trail[mark:]:
                self.true[lit] = False
            del self.trail[mark:]


def to_lrat(
    formula: Sequence[Clause],
    drat: Iterable[str],
    out: TextIO,
    should_stop: Callable[[], bool] = never,
) -> int:
    """Write the LRAT proof of ``formula`` that the DRAT proof's lemmas give; the number of
    lemmas written. ProofError when a lemma is not implied by unit propagation or the
    proof ends without the empty clause; LimitReached when ``should_stop`` says stop."""
    state = _Propagator()
    for cid, clause in enumerate(formula, 1):
        state.add(cid, clause)
        if state.conflict is not None:
            break
    last = len(formula)
    written = 0
    if state.conflict is not None:
        return _empty(state, last, out)
    for count, (added, clause) in enumerate(lemmas(drat)):
        if count % _CHECK_EVERY == 0 and should_stop():
            raise LimitReached
        if not added:
            gone = state.delete(clause)
            if gone is not None:
                out.write(f"{last} d {gone} 0\n")
            continue
        hints = state.refute(clause)
        if hints is None:
            raise ProofError(f"DRAT step {count + 1} ({_show(clause)}0) is not implied by "
                             "unit propagation (RAT lemmas are not supported)")  # fmt: skip
        last += 1
        written += 1
        out.write(f"{last} {_show(clause)}0 {' '.join(map(str, hints))} 0\n")
        state.add(last, clause)
        if state.conflict is not None:
            return written + _empty(state, last, out)
    raise ProofError("the DRAT proof ends without refuting the formula")


def _empty(state: _Propagator, last: int, out: TextIO) -> int:
    """The empty clause, from the top-level conflict; 1 (a step written) or 0 (the
    conflicting clause was already empty)."""
    assert state.conflict is not None
    if not state.clauses[state.conflict]:  # the formula's own empty clause
        return 0
    out.write(f"{last + 1} 0 {' '.join(map(str, state.hints(state.conflict)))} 0\n")
    return 1


def _show(clause: Clause) -> str:
    return "".join(f"{lit} " for lit in clause)
