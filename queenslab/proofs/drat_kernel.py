"""Numba kernels of the DRAT pass (``proofs.drat``): top-level unit propagation forward,
then lemma checks backward, over caller-owned flat arrays so the driver runs them in
chunks and looks at ``should_stop`` between calls.

Clauses are numbered 1.. (the formula's, then the proof's lemmas) and stored in ``lits``
(int32) between ``start[cid]`` and ``start[cid + 1]``; a clause of two literals or more is
watched by its first two, through linked lists: slot ``2 * cid + k`` watches
``lits[start[cid] + k]``, ``head[index(lit)]`` is the first slot watching ``lit`` and
``nxt[slot]`` the next one. Lists need no reallocation and a slot is unlinked in place.
A literal's ``index`` is ``2 * lit`` (positive) or ``1 - 2 * lit`` (negative); ``val[index]``
says it is true. ``trail``, ``reason`` and ``pos`` (by variable) are the top-level
assignment, which only grows forward (a deletion that would undo it is ignored), so going
backward every state is a prefix of the final trail: ``before[i]`` is its length before
step ``i``. ``sc`` holds the scalars (``TRAIL``, ``CONFLICT``, ``STAMP``, ``FAILED``).
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit

TRAIL, CONFLICT, STAMP, FAILED = 0, 1, 2, 3
#: ``flags[cid]``: a tautology (never watched, implied without hints).
TAUTOLOGY = 1
#: Slots and list heads: no slot.
NONE = -1


@njit(cache=True, nogil=True, inline="always")
def _index(lit):
    return 2 * lit if lit > 0 else 1 - 2 * lit


@njit(cache=True, nogil=True, inline="always")
def _false(lit, val):
    return val[_index(-lit)] != 0


@njit(cache=True, nogil=True)
def _assign(lit, cid, val, trail, reason, pos, sc):
    at = sc[TRAIL]
    val[_index(lit)] = 1
    trail[at] = lit
    reason[abs(lit)] = cid
    pos[abs(lit)] = at
    sc[TRAIL] = at + 1


@njit(cache=True, nogil=True)
def _undo(length, val, trail, sc):
    for at in range(length, sc[TRAIL]):
        val[_index(trail[at])] = 0
    sc[TRAIL] = length


@njit(cache=True, nogil=True)
def _propagate(first, core, lits, start, head, nxt, val, trail, reason, pos, sc):
    """Unit propagation from trail position ``first``: a conflicting clause or 0.

    Core first, as DRAT-trim does: the clauses with ``core[cid]`` set are propagated to
    a fixpoint before any other clause may add one literal, so conflicts are found with
    clauses already used where possible and fewer lemmas need a check.
    """
    core_at = rest_at = first
    while True:
        while core_at < sc[TRAIL]:
            found = _scan(
                -trail[core_at], core, 1, lits, start, head, nxt, val, trail, reason, pos, sc
            )
            if found > 0:
                return found
            core_at += 1
        if rest_at == sc[TRAIL]:
            return 0
        found = _scan(-trail[rest_at], core, 0, lits, start, head, nxt, val, trail, reason, pos, sc)
        if found > 0:
            return found
        if found == 0:
            rest_at += 1


@njit(cache=True, nogil=True)
def _scan(false, core, kind, lits, start, head, nxt, val, trail, reason, pos, sc):
    """Visit the clauses watching ``false`` whose ``core`` flag is ``kind``: a conflicting
    clause, -1 when a non-core clause assigned a literal (the caller goes back to the
    core), else 0."""
    fi = _index(false)
    prev = NONE
    slot = head[fi]
    while slot != NONE:
        following = nxt[slot]
        cid, k = slot >> 1, slot & 1
        p = start[cid]
        other = lits[p + 1 - k]
        if core[cid] != kind or val[_index(other)]:
            prev, slot = slot, following
            continue
        moved = False
        for j in range(p + 2, start[cid + 1]):
            candidate = lits[j]
            if not _false(candidate, val):
                lits[j], lits[p + k] = false, candidate
                if prev == NONE:
                    head[fi] = following
                else:
                    nxt[prev] = following
                ci = _index(candidate)
                nxt[slot], head[ci] = head[ci], slot
                moved = True
                break
        if not moved:
            prev = slot
            if _false(other, val):
                return cid
            _assign(other, cid, val, trail, reason, pos, sc)
            if kind == 0:
                return -1
        slot = following
    return 0


@njit(cache=True, nogil=True)
def _attach(cid, lits, start, head, nxt, val, pos):
    """Watch the two literals best kept watched: not false first, then the false ones
    assigned last, so that truncating the trail never leaves a unit clause unseen."""
    p, end = start[cid], start[cid + 1]
    for k in range(2):
        best, best_key = p + k, -1
        for j in range(p + k, end):
            key = pos[abs(lits[j])] if _false(lits[j], val) else 1 << 30
            if key > best_key:
                best, best_key = j, key
        lits[p + k], lits[best] = lits[best], lits[p + k]
        li = _index(lits[p + k])
        nxt[2 * cid + k], head[li] = head[li], 2 * cid + k


@njit(cache=True, nogil=True)
def _detach(cid, lits, start, head, nxt):
    p = start[cid]
    for k in range(2):
        li, slot = _index(lits[p + k]), 2 * cid + k
        prev, at = NONE, head[li]
        while at != slot:
            prev, at = at, nxt[at]
        if prev == NONE:
            head[li] = nxt[slot]
        else:
            nxt[prev] = nxt[slot]


@njit(cache=True, nogil=True)
def _watched(cid, start, flags):
    return flags[cid] & TAUTOLOGY == 0 and start[cid + 1] - start[cid] >= 2


@njit(cache=True, nogil=True)
def forward(
    steps, done, stop, before, ignored, lits, start, flags, core,
    head, nxt, val, trail, reason, pos, sc,
):  # fmt: skip
    """Apply steps ``done..stop`` (+cid added, -cid deleted, 0 nothing); the step whose
    addition made a clause false at the top level (its id in ``sc[CONFLICT]``), or -1.
    ``core`` is set for every clause: nothing is known to be used yet."""
    for i in range(done, stop):
        step = steps[i]
        before[i] = sc[TRAIL]
        if step < 0:
            cid = -step
            p, end = start[cid], start[cid + 1]
            for j in range(p, end):
                lit = lits[j]
                if val[_index(lit)] and reason[abs(lit)] == cid:
                    ignored[i] = 1  # the reason of a fixed literal stays (as in DRAT-trim)
            if not ignored[i] and _watched(cid, start, flags):
                _detach(cid, lits, start, head, nxt)
            continue
        if step == 0:
            continue
        cid = step
        if flags[cid] & TAUTOLOGY:
            continue
        p, size = start[cid], start[cid + 1] - start[cid]
        if size == 0:
            sc[CONFLICT] = cid
            return i
        if size >= 2:
            _attach(cid, lits, start, head, nxt, val, pos)
        unit, second = lits[p], lits[p + 1] if size >= 2 else 0
        if _false(unit, val):
            sc[CONFLICT] = cid
            return i
        if (size == 1 or _false(second, val)) and not val[_index(unit)]:
            mark = sc[TRAIL]
            _assign(unit, cid, val, trail, reason, pos, sc)
            conflict = _propagate(mark, core, lits, start, head, nxt, val, trail, reason, pos, sc)
            if conflict:
                sc[CONFLICT] = conflict
                return i
    return -1


@njit(cache=True, nogil=True)
def analyze(conflict, lemma, hints, w, lits, start, marked, trail, reason, seen, sc):
    """Write at ``hints[w:]`` the reasons the conflict used, in trail order, then the
    conflicting clause, marking them all as used; the new end. The variables of clause
    ``lemma`` (0: none) are given by its negation: their reasons are not followed, since
    a lemma's check assumes its literals false, so the reason of one that is false at the
    top level is satisfied there and no hint."""
    sc[STAMP] += 1
    stamp = sc[STAMP]
    if lemma:
        for j in range(start[lemma], start[lemma + 1]):
            seen[abs(lits[j])] = -stamp
    wanted = 0
    for j in range(start[conflict], start[conflict + 1]):
        var = abs(lits[j])
        if seen[var] != stamp and seen[var] != -stamp:
            seen[var], wanted = stamp, wanted + 1
    first = w
    at = sc[TRAIL] - 1
    while wanted > 0:
        var = abs(trail[at])
        at -= 1
        if seen[var] != stamp:
            continue
        wanted -= 1
        cid = reason[var]
        if cid == 0:
            continue
        hints[w], marked[cid] = cid, 1
        w += 1
        for j in range(start[cid], start[cid + 1]):
            other = abs(lits[j])
            if seen[other] != stamp and seen[other] != -stamp:
                seen[other], wanted = stamp, wanted + 1
    hints[first:w] = hints[first:w][::-1].copy()
    hints[w], marked[conflict] = conflict, 1
    return w + 1


@njit(cache=True, nogil=True)
def backward(
    steps, done, stop, before, ignored, lits, start, flags, marked,
    head, nxt, val, trail, reason, pos, seen, sc, checked, ends, hints,
):  # fmt: skip
    """Undo steps ``done - 1`` down to ``stop``, checking each marked lemma on the way:
    its id in ``checked``, the end of its hints (in ``hints``) in ``ends``. Stops early
    when the buffers may be too small for one more lemma; returns the next step to undo
    and the number of lemmas checked. A lemma that propagation does not refute: its step
    + 1 in ``sc[FAILED]``."""
    count, w = 0, 0
    room = hints.size - trail.size - 2
    i = done
    while i > stop and count < checked.size and w <= room:
        i -= 1
        step = steps[i]
        if step < 0:
            if not ignored[i] and _watched(-step, start, flags):
                _attach(-step, lits, start, head, nxt, val, pos)
            continue
        if step == 0:
            continue
        cid = step
        if _watched(cid, start, flags):
            _detach(cid, lits, start, head, nxt)
        _undo(before[i], val, trail, sc)
        if not marked[cid]:
            continue
        checked[count] = cid
        count += 1
        if flags[cid] & TAUTOLOGY:
            ends[count - 1] = w
            continue
        w = _refute(
            cid, hints, w, lits, start, marked, head, nxt, val, trail, reason, pos, seen, sc
        )
        if w < 0:
            sc[FAILED] = i + 1
            return i, count - 1
        ends[count - 1] = w
    return i, count


@njit(cache=True, nogil=True)
def _refute(cid, hints, w, lits, start, marked, head, nxt, val, trail, reason, pos, seen, sc):
    """The lemma's negation propagated to a conflict: its hints written, the new end; -1
    when no conflict comes. The trail is restored."""
    p, end = start[cid], start[cid + 1]
    fixed = 0
    for j in range(p, end):
        lit = lits[j]
        if val[_index(lit)] and (fixed == 0 or pos[abs(lit)] < pos[abs(fixed)]):
            fixed = lit
    if fixed:  # true at the top level: its reason conflicts with the lemma's negation
        var = abs(fixed)
        return analyze(reason[var], cid, hints, w, lits, start, marked, trail, reason, seen, sc)
    mark = sc[TRAIL]
    for j in range(p, end):
        if not _false(lits[j], val):
            _assign(-lits[j], 0, val, trail, reason, pos, sc)
    conflict = _propagate(mark, marked, lits, start, head, nxt, val, trail, reason, pos, sc)
    if conflict:
        w = analyze(conflict, cid, hints, w, lits, start, marked, trail, reason, seen, sc)
    else:
        w = -1
    _undo(mark, val, trail, sc)
    return w


def empty_state(variables: int, clauses: int) -> dict[str, np.ndarray]:
    """The propagation arrays for ``variables`` and clause ids up to ``clauses``."""
    return {
        "head": np.full(2 * variables + 2, NONE, np.int32),
        "nxt": np.full(2 * clauses + 2, NONE, np.int32),
        "val": np.zeros(2 * variables + 2, np.uint8),
        "trail": np.zeros(variables + 1, np.int32),
        "reason": np.zeros(variables + 1, np.int32),
        "pos": np.zeros(variables + 1, np.int32),
        "seen": np.zeros(variables + 1, np.int32),
        "sc": np.zeros(4, np.int64),
    }
