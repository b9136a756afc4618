"""Numba kernels that read a text DRAT proof into the flat arrays of ``proofs.drat``:
the clauses (``lits`` between ``start[cid]`` and ``start[cid + 1]``, ``flags``) and the
steps (+cid added, -cid deleted, 0 a deletion of an absent clause).

A proof of a few hundred megabytes is tens of millions of lines: read word by word in
Python that was the pass's largest part. Here each clause is stored with its literals
sorted by variable and without repeats, so a clause is found again by its literals
alone: a deletion hashes the literals it names and walks that bucket's chain (``table``
and ``chain``, newest first) for the latest alive clause with the same literals.

``counts`` holds the scalars: ``LITS`` literals stored, ``CLAUSES`` the next clause id,
``STEPS`` steps written, ``ERROR`` the offset after the first malformed line + 1 (0:
none), ``BAD`` its kind (``NO_ZERO``, ``NOT_A_NUMBER``, ``AFTER_ZERO``).
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.proofs.drat_kernel import TAUTOLOGY
from queenslab.proofs.text_kernel import NEWLINE, SPACE, number

LITS, CLAUSES, STEPS, ERROR, BAD = 0, 1, 2, 3, 4
NO_ZERO, NOT_A_NUMBER, AFTER_ZERO = 1, 2, 3
#: No clause in a bucket's chain.
NONE = -1

#: Digits a literal may have (int32).
_DIGITS = 9


def empty_counts() -> np.ndarray:
    """The scalars of an empty store: clause ids start at 1."""
    counts = np.zeros(5, np.int64)
    counts[CLAUSES] = 1
    return counts


@njit(cache=True, nogil=True, inline="always")
def _key(lit):
    return 2 * lit if lit > 0 else 1 - 2 * lit


@njit(cache=True, nogil=True)
def _normal(scratch, k):
    """Sort ``scratch[:k]`` by variable (the positive literal first), drop repeats; the
    new length and whether the clause is a tautology."""
    for i in range(1, k):  # insertion sort: clauses are short
        lit = scratch[i]
        key = _key(lit)
        j = i - 1
        while j >= 0 and _key(scratch[j]) > key:
            scratch[j + 1] = scratch[j]
            j -= 1
        scratch[j + 1] = lit
    size, tautology = 0, False
    for i in range(k):
        if size and scratch[size - 1] == scratch[i]:
            continue
        if size and scratch[size - 1] == -scratch[i]:
            tautology = True
        scratch[size] = scratch[i]
        size += 1
    return size, tautology


@njit(cache=True, nogil=True)
def _hash(scratch, k, mask):
    h = np.uint64(1469598103934665603)
    for i in range(k):
        h = (h ^ np.uint64(_key(scratch[i]))) * np.uint64(1099511628211)
    return np.int64(h & np.uint64(mask))


@njit(cache=True, nogil=True)
def _same(cid, scratch, k, lits, start):
    p = start[cid]
    if start[cid + 1] - p != k:
        return False
    i = 0
    while i < k and lits[p + i] == scratch[i]:
        i += 1
    return i == k


@njit(cache=True, nogil=True)
def store(scratch, k, deleted, lits, start, flags, steps, table, chain, counts):
    """Add the clause ``scratch[:k]`` (a new id, hashed into ``table``) or delete the
    latest alive clause with its literals; the step is written in both cases."""
    size, tautology = _normal(scratch, k)
    h = _hash(scratch, size, table.size - 1)
    if deleted:
        prev, cid = NONE, table[h]
        while cid != NONE and not _same(cid, scratch, size, lits, start):
            prev, cid = cid, chain[cid]
        if cid == NONE:
            steps[counts[STEPS]] = 0
        else:
            if prev == NONE:
                table[h] = chain[cid]
            else:
                chain[prev] = chain[cid]
            steps[counts[STEPS]] = -cid
        counts[STEPS] += 1
        return
    cid = counts[CLAUSES]
    at = counts[LITS]
    lits[at : at + size] = scratch[:size]
    counts[LITS] = at + size
    start[cid + 1] = at + size
    flags[cid] = TAUTOLOGY if tautology else 0
    chain[cid], table[h] = table[h], cid
    steps[counts[STEPS]] = cid
    counts[STEPS] += 1
    counts[CLAUSES] = cid + 1


@njit(cache=True, nogil=True)
def store_formula(flat, bounds, scratch, lits, start, flags, steps, table, chain, counts):
    """Add the formula's clauses, clause c being ``flat[bounds[c]:bounds[c + 1]]``."""
    for c in range(bounds.size - 1):
        k = bounds[c + 1] - bounds[c]
        scratch[:k] = flat[bounds[c] : bounds[c + 1]]
        store(scratch, k, False, lits, start, flags, steps, table, chain, counts)


@njit(cache=True, nogil=True)
def parse(text, scratch, lits, start, flags, steps, table, chain, counts):
    """Read the DRAT lines of ``text`` (bytes, lines ended by a newline) into the store.
    A malformed line stops the reading: ``counts[ERROR]`` is its offset + 1, ``BAD`` why.
    ``scratch`` must hold the longest line's literals (its length / 2 + 1 does)."""
    i, n = 0, text.size
    while i < n:
        c = text[i]
        if c <= SPACE:  # blanks and empty lines
            i += 1
            continue
        line = i
        if c == 99:  # "c": a comment, to the end of its line
            while i < n and text[i] != NEWLINE:
                i += 1
            continue
        deleted = c == 100  # "d"
        if deleted:
            i += 1
        k, ended, bad = 0, False, 0
        while i < n and text[i] != NEWLINE:
            c = text[i]
            if c <= SPACE:
                i += 1
                continue
            if ended:
                bad = AFTER_ZERO
                break
            value, i = number(text, i, _DIGITS)
            if i < 0:
                bad = NOT_A_NUMBER
                break
            if value == 0:
                ended = True
            else:
                scratch[k] = value
                k += 1
        if not bad and not ended:
            bad = NO_ZERO
        if bad:
            counts[ERROR], counts[BAD] = line + 1, bad
            return
        store(scratch, k, deleted, lits, start, flags, steps, table, chain, counts)


@njit(cache=True, nogil=True)
def rehash(table, chain, lits, start, steps, count):
    """Put the alive clauses back in a larger ``table``: replaying the first ``count``
    steps keeps each bucket's chain newest first."""
    table[:] = NONE
    for i in range(count):
        step = steps[i]
        if step > 0:
            p, k = start[step], start[step + 1] - start[step]
            h = _hash(lits[p : p + k], k, table.size - 1)
            chain[step], table[h] = table[h], step
        elif step < 0:
            cid = -step
            p, k = start[cid], start[cid + 1] - start[cid]
            h = _hash(lits[p : p + k], k, table.size - 1)
            prev, at = NONE, table[h]
            while at != cid:
                prev, at = at, chain[at]
            if prev == NONE:
                table[h] = chain[cid]
            else:
                chain[prev] = chain[cid]
