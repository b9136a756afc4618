"""The Numba kernel of the LRAT checker (``proofs.lrat``): it reads the text of a batch of
steps and checks each from its hints as it goes.

Clauses are kept by id: ``where[id]`` is the offset of its literals in ``store`` and
``size[id]`` their number (-1: no such clause, or deleted). A literal's ``index`` is
``2 * lit`` (positive) or ``1 - 2 * lit`` (negative); ``true[index] == stamp`` says it is
true in the step being checked, so nothing is cleared between steps. ``counts`` holds
the scalars: ``STAMP``, ``LAST`` (the largest id added), ``USED`` (literals stored),
``ADDED`` (clauses added), ``REFUTED`` (1 once the empty clause is added), and, when a
batch stops early, ``STOP`` (why), ``STEP``, ``OTHER`` (the clause or hint concerned) and
``AT`` (the offset of the line, where the batch resumes once the caller grew an array).
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.proofs.text_kernel import NEWLINE, SPACE, number

STAMP, LAST, USED, ADDED, REFUTED, STOP, STEP, OTHER, AT = range(9)
#: Why a batch stopped: a proof error, or an array too small (grow it, resume at AT).
(
    DONE, MALFORMED, REUSED, RAT, UNKNOWN, NOT_UNIT, NO_CONFLICT, NOT_THERE,
    MORE_IDS, MORE_VARIABLES,
) = range(10)  # fmt: skip

#: Digits an id or a literal may have (int64).
_DIGITS = 18


def empty_counts() -> np.ndarray:
    return np.zeros(9, np.int64)


@njit(cache=True, nogil=True, inline="always")
def _index(lit):
    return 2 * lit if lit > 0 else 1 - 2 * lit


@njit(cache=True, nogil=True)
def _blank(text, i):
    """The offset of the next word on this line (or of its end)."""
    while i < text.size and text[i] <= SPACE and text[i] != NEWLINE:
        i += 1
    return i


@njit(cache=True, nogil=True)
def _stop(counts, why, step, other, line):
    counts[STOP], counts[STEP], counts[OTHER], counts[AT] = why, step, other, line


@njit(cache=True, nogil=True)
def add_formula(flat, bounds, where, size, store, counts):
    """The formula's clauses as ids 1..m, clause c being ``flat[bounds[c]:bounds[c + 1]]``."""
    count = bounds.size - 1
    store[: flat.size] = flat
    for c in range(count):
        where[c + 1], size[c + 1] = bounds[c], bounds[c + 1] - bounds[c]
        if bounds[c + 1] == bounds[c]:
            counts[REFUTED] = 1
    counts[LAST], counts[USED] = count, flat.size


@njit(cache=True, nogil=True)
def check(text, start, where, size, store, true, counts):
    """Check the steps of ``text`` from offset ``start`` until its end, the empty clause,
    or a stop (``counts[STOP]``, at the line ``counts[AT]``)."""
    i, n = start, text.size
    counts[STOP] = DONE
    while i < n and not counts[REFUTED]:
        if text[i] <= SPACE:
            i += 1
            continue
        line = i
        if text[i] == 99:  # "c": a comment
            while i < n and text[i] != NEWLINE:
                i += 1
            continue
        step, i = number(text, i, _DIGITS)
        if i < 0:
            _stop(counts, MALFORMED, 0, 0, line)
            return
        if step >= where.size:
            _stop(counts, MORE_IDS, step, 0, line)
            return
        i = _blank(text, i)
        if i < n and text[i] == 100:  # "d": deletions
            i = _deleted(text, i + 1, step, where, size, counts, line)
        else:
            i = _added(text, i, step, where, size, store, true, counts, line)
        if i < 0:
            return
        i = _blank(text, i)
        if i < n and text[i] != NEWLINE:
            _stop(counts, MALFORMED, 0, 0, line)
            return


@njit(cache=True, nogil=True)
def _deleted(text, i, step, where, size, counts, line):
    while True:
        i = _blank(text, i)
        gone, i = number(text, i, _DIGITS)
        if i < 0:
            _stop(counts, MALFORMED, 0, 0, line)
            return -1
        if gone == 0:
            return i
        if gone < 0 or gone >= size.size or size[gone] < 0:
            _stop(counts, NOT_THERE, step, gone, line)
            return -1
        size[gone] = -1


@njit(cache=True, nogil=True)
def _added(text, i, step, where, size, store, true, counts, line):
    """Read the clause and its hints, check it and keep it; the offset after the line, or
    -1 after a stop."""
    used = counts[USED]
    k = 0
    while True:  # the clause, into the store past its end
        i = _blank(text, i)
        lit, i = number(text, i, _DIGITS)
        if i < 0:
            _stop(counts, MALFORMED, 0, 0, line)
            return -1
        if lit == 0:
            break
        if _index(lit) >= true.size:
            _stop(counts, MORE_VARIABLES, step, abs(lit), line)
            return -1
        store[used + k] = lit
        k += 1
    if step <= counts[LAST]:
        _stop(counts, REUSED, step, counts[LAST], line)
        return -1
    counts[STAMP] += 1
    stamp = counts[STAMP]
    for j in range(used, used + k):
        true[_index(-store[j])] = stamp
    implied = False
    for j in range(used, used + k):  # a tautology needs no hints
        if true[_index(store[j])] == stamp:
            implied = True
    ended = False
    while True:  # the hints
        i = _blank(text, i)
        hint, i = number(text, i, _DIGITS)
        if i < 0:
            _stop(counts, MALFORMED, 0, 0, line)
            return -1
        if hint == 0:
            ended = True
            break
        if implied:
            continue
        if hint < 0:
            _stop(counts, RAT, step, hint, line)
            return -1
        if hint >= size.size or size[hint] < 0:
            _stop(counts, UNKNOWN, step, hint, line)
            return -1
        unit, clash = 0, False
        for j in range(where[hint], where[hint] + size[hint]):
            lit = store[j]
            if true[_index(-lit)] == stamp:
                continue
            if true[_index(lit)] == stamp or (unit != 0 and unit != lit):
                clash = True
                break
            unit = lit
        if clash:
            _stop(counts, NOT_UNIT, step, hint, line)
            return -1
        if unit == 0:
            implied = True
        else:
            true[_index(unit)] = stamp
    if not ended or not implied:
        _stop(counts, NO_CONFLICT if ended else MALFORMED, step, 0, line)
        return -1
    where[step], size[step] = used, k
    counts[USED], counts[LAST] = used + k, step
    counts[ADDED] += 1
    if k == 0:
        counts[REFUTED] = 1
    return i
