"""Read the n x n integer weight matrix of ``queens optimize`` from JSON or CSV.

Every problem with the file becomes a one-line UsageError naming the file and the problem,
so the CLI exits with code 2 instead of a traceback or, worse, a silently rounded weight.
At most ``MAX_FILE_BYTES`` are read (``--weights /dev/zero`` ends at once), numbers are
ASCII digits of bounded length, and NaN, Infinity and absurdly nested JSON are refused.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import numpy as np

from queenslab.core.errors import UsageError
from queenslab.io.textfiles import read_text

#: Weights are summed over n rows in int64 by every backend; this keeps any sum exact.
MAX_WEIGHT = 10**12
#: A weights file larger than this is refused unread (n = 1000 at 13 digits is ~14 MB).
MAX_FILE_BYTES = 64 << 20
#: Longest number accepted in a file: MAX_WEIGHT has 13 digits; more is refused unparsed.
_MAX_DIGITS = 20
_INTEGER = re.compile(r"[+-]?[0-9]+")


def check_weights(weights: object, n: int) -> np.ndarray:
    """The weights as an (n, n) int64 array, or a UsageError: integral and within bounds.

    The API enforces what the weights file enforces: a float, NaN or huge entry would
    otherwise overflow a sum or be rounded silently by some solver.
    """
    try:
        array = np.asarray(weights)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"weights must be an n x n array of integers: {exc}") from None
    if array.shape != (n, n):
        raise UsageError(f"weights must be a {n}x{n} matrix, got shape {array.shape}")
    if array.dtype.kind not in "iuf" or array.dtype == np.float16:
        raise UsageError(f"weights must be integers, got {array.dtype} entries")
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (array != np.round(array))
        if bad.any():
            r, c = (int(i) for i in np.argwhere(bad)[0])
            raise UsageError(f"weight ({r}, {c}) is {array[r, c]}, not an integer")
    too_big = np.abs(array.astype(np.float64)) > MAX_WEIGHT
    if too_big.any():
        r, c = (int(i) for i in np.argwhere(too_big)[0])
        raise UsageError(f"weight ({r}, {c}) is {array[r, c]}, beyond the limit of +-{MAX_WEIGHT}")
    return array.astype(np.int64)


def load_weights(path: str, n: int) -> np.ndarray:
    """An (n, n) int64 array from a JSON list of lists or a CSV file (format sniffed)."""
    text = read_text(path, MAX_FILE_BYTES, "weights file")
    rows = _json_rows(path, text) if text.lstrip().startswith("[") else _csv_rows(text)
    if len(rows) != n:
        raise UsageError(f"weights file {path}: {len(rows)} rows, expected {n} for n={n}")
    matrix = np.zeros((n, n), dtype=np.int64)
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n:
            size = len(row) if isinstance(row, list) else "not a list"
            raise UsageError(f"weights file {path}: row {r + 1} has {size} entries, expected {n}")
        for c, value in enumerate(row):
            matrix[r, c] = _integer(path, r, c, value)
    return matrix


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not an integer")


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        raise ValueError(f"a number of {len(digits)} digits is beyond +-{MAX_WEIGHT}")
    return int(digits)


def _json_rows(path: str, text: str) -> list[Any]:
    try:
        rows = json.loads(text, parse_int=_bounded_int, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise UsageError(f"weights file {path} is not valid JSON: {exc}") from None
    except ValueError as exc:  # NaN, Infinity, a huge number
        raise UsageError(f"weights file {path}: {exc}") from None
    except RecursionError:
        raise UsageError(f"weights file {path}: JSON nested too deeply for a matrix") from None
    if not isinstance(rows, list):
        raise UsageError(f"weights file {path}: expected a list of rows")
    return rows


def _csv_rows(text: str) -> list[Any]:
    rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text))]
    return [row for row in rows if any(row)]  # blank lines, e.g. a trailing one


def _integer(path: str, r: int, c: int, value: Any) -> int:
    where = f"weights file {path}: entry ({r}, {c})"
    if isinstance(value, str):  # CSV: ASCII digits only (int() would take "８" and "1_0")
        if not _INTEGER.fullmatch(value) or len(value) > _MAX_DIGITS + 1:
            raise UsageError(f"{where} is {value[:40]!r}, not an integer within +-{MAX_WEIGHT}")
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{where} is {value!r}, not an integer")
    if abs(value) > MAX_WEIGHT:
        raise UsageError(f"{where} is {value}, beyond the limit of +-{MAX_WEIGHT}")
    return value
