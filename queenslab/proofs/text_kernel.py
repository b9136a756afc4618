"""The one number reader of the proof kernels (``proofs.drat_read``, ``proofs.lrat_kernel``):
proof files are ASCII bytes, read in Numba without decoding."""

from __future__ import annotations

from queenslab.compiled.jit import njit

NEWLINE, SPACE, MINUS, ZERO, NINE = 10, 32, 45, 48, 57


@njit(cache=True, nogil=True)
def number(text, i, most_digits):
    """The integer at ``text[i:]`` and the offset after it; offset -1 when there is no
    number of at most ``most_digits`` digits ended by a blank (or the text's end) there."""
    n, sign = text.size, 1
    if i < n and text[i] == MINUS:
        sign, i = -1, i + 1
    value, digits = 0, 0
    while i < n and ZERO <= text[i] <= NINE:
        value = 10 * value + (text[i] - ZERO)
        digits, i = digits + 1, i + 1
    if digits == 0 or digits > most_digits or (i < n and text[i] > SPACE):
        return 0, -1
    return sign * value, i
