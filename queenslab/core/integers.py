"""One rule for every whole number the API takes: n, seed, workers, the cells of givens
and blocked cells.

Python and NumPy integers are accepted (and become Python ints); bools, floats and strings
are refused with the same one-line message, never read as numbers: ``True`` is not row 1,
``1.5`` is not a seed and ``"3"`` is not a size (the command line parses its own text).
"""

from __future__ import annotations

import numbers
from typing import Any

from queenslab.core.errors import UsageError


def integer(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int within [low, high]; a UsageError naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UsageError(f"{what} must be an integer, got {value!r}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        if high is None:
            bound = f"at least {low}"
        elif low is None:
            bound = f"at most {high}"
        else:
            bound = f"between {low} and {high}"
        raise UsageError(f"{what} must be {bound}, got {number}")
    return number
