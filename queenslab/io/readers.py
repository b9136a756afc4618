"""Read placements written by anyone: one reader per output format, in one table.

``READERS`` mirrors ``formats.FORMATS``: every format the lab writes that describes a board
(not a picture) is read back here under the same name, so ``queens check`` accepts what
``queens solve`` and ``queens enumerate`` write, and the same files from other programs:
our JSON record or a bare JSON list of columns, NumPy ``.npy`` arrays, LeetCode 51 rows,
0/1 matrices and boards of ``Q`` and ``.`` (or ``♛`` and ``·``). A reader yields every
placement in the file (an enumeration holds many) as ``Found``.

Huge placements stay arrays: ``.npy`` files are memory-mapped, and large JSON is parsed in
chunks by NumPy, so 10^8 columns never become Python integers. Anything unreadable is a
one-line UsageError.
"""

from __future__ import annotations

import json
import mmap
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from queenslab.core.errors import UsageError
from queenslab.io import writers
from queenslab.io.textfiles import opened, read_text, unique_keys

if TYPE_CHECKING:
    import numpy as np

#: Text formats (boards, LeetCode rows, JSON lines) larger than this are refused unread.
MAX_TEXT_BYTES = 256 << 20
#: JSON files up to this size go through the json module; larger ones through NumPy.
SMALL_JSON_BYTES = 8 << 20
_JSON_CHUNK_BYTES = 8 << 20
_EMPTY_FIELD = re.compile(rb",\s*,")


@dataclass(frozen=True)
class Found:
    """One placement read from a file, with what the file says about itself."""

    cols: Sequence[int] | np.ndarray
    where: str = ""  # "line 3", "placement 2": empty for a file of one placement
    variant: str | None = None  # a JSON record names its variant
    n: int | None = None  # a JSON record names its n


Reader = Callable[[Path], Iterator[Found]]


def _text(path: Path) -> str:
    return read_text(path, MAX_TEXT_BYTES, "placement file in a text format")


def _loads(text: str, where: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not a column")

    try:
        return json.loads(text, parse_constant=refuse, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{where} is not valid JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"{where}: {str(exc) or 'nested too deeply'}") from None


def _from_json(value: Any, where: str, label: str = "") -> Found:
    """Our record ({"cols": [...], ...}) or a bare list of columns."""
    record = value if isinstance(value, dict) else {"cols": value}
    cols = record.get("cols")
    if cols is None and "cols" in record:
        raise UsageError(f"{where} records no placement (status {record.get('status')!r})")
    if not isinstance(cols, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in cols
    ):
        raise UsageError(f"{where}: expected a list of column numbers or a record with 'cols'")
    n = record.get("n")
    variant = record.get("variant")
    return Found(
        cols,
        label,
        variant if isinstance(variant, str) else None,
        n if isinstance(n, int) else None,
    )


def read_json(path: Path) -> Iterator[Found]:
    with opened(path) as handle:
        size = handle.seek(0, 2)
        if size <= SMALL_JSON_BYTES:
            handle.seek(0)
            yield _from_json(_loads(handle.read().decode("utf-8", "replace"), str(path)), str(path))
            return
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            yield _large_json(data, str(path))


def _large_json(data: mmap.mmap, where: str) -> Found:
    """A big record or list: the columns parsed by NumPy in chunks, the rest by json."""
    key = data.find(b'"cols"')
    start = data.find(b"[", key if key >= 0 else 0)
    end = data.find(b"]", start)
    if start < 0 or end < 0:
        raise UsageError(f"{where}: no list of columns found")
    cols = _numbers(data, start + 1, end, where)
    head, tail = data[:start], data[end + 1 :]  # small: everything but the columns
    return _from_json_meta(_loads((head + b"[]" + tail).decode("utf-8", "replace"), where), cols)


def _from_json_meta(value: Any, cols: np.ndarray) -> Found:
    if isinstance(value, list):
        return Found(cols)
    n, variant = value.get("n"), value.get("variant")
    return Found(
        cols, "", variant if isinstance(variant, str) else None, n if isinstance(n, int) else None
    )


def _numbers(data: mmap.mmap, start: int, end: int, where: str) -> np.ndarray:
    """Comma-separated integers in data[start:end], chunk by chunk (C speed, bounded copies)."""
    import numpy as np

    parts = []
    position = start
    while position < end:
        stop = (
            end
            if end - position <= _JSON_CHUNK_BYTES
            else data.rfind(b",", position, position + _JSON_CHUNK_BYTES)
        )
        if stop <= position:
            raise UsageError(f"{where}: a number too long in the list of columns")
        chunk = data[position:stop]
        if (
            chunk.translate(None, b"0123456789-, \t\r\n")
            or _EMPTY_FIELD.search(chunk)
            or chunk.strip().startswith(b",")
            or chunk.strip().endswith(b",")
        ):
            raise UsageError(f"{where}: the list of columns holds something other than integers")
        values = np.fromstring(chunk, dtype=np.int64, sep=",")
        parts.append(values.astype(np.int32) if values.size and _fits_int32(values) else values)
        position = stop + 1
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _fits_int32(values: np.ndarray) -> bool:
    return bool(values.min() >= -(2**31) and values.max() < 2**31)


def read_jsonl(path: Path) -> Iterator[Found]:
    for number, line in enumerate(_text(path).splitlines(), 1):
        if line.strip():
            where = f"{path}, line {number}"
            yield _from_json(_loads(line, where), where, f"line {number}")


def read_npy(path: Path) -> Iterator[Found]:
    import numpy as np

    try:
        cols = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        raise UsageError(f"cannot read {path} as a .npy array: {exc}") from None
    if cols.ndim != 1 or cols.dtype.kind not in "iu":
        raise UsageError(
            f"{path}: expected a one-dimensional integer array of columns, "
            f"got shape {cols.shape} of {cols.dtype}"
        )
    if cols.dtype.kind == "u" or cols.dtype.byteorder not in "=|":
        cols = cols.astype(np.int64)  # row - col arithmetic needs native signed integers
    yield Found(cols)


def read_leetcode(path: Path) -> Iterator[Found]:
    """One LeetCode 51 list of row strings per line (as ``enumerate --format leetcode``)."""
    for number, line in enumerate(_text(path).splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        rows = _loads(line, where)
        if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
            raise UsageError(f'{where}: expected a list of row strings like ".Q.."')
        yield Found(_board_cols(rows, "Q", ".", where), f"line {number}")


def board_reader(style: str) -> Reader:
    """Boards drawn in a writers.TEXT_STYLES style, separated by blank lines."""
    queen, empty, separator = writers.TEXT_STYLES[style]

    def read(path: Path) -> Iterator[Found]:
        text = _text(path)
        if "board too large to draw" in text:
            raise UsageError(f"{path} holds a summary, not a board: write it with --format npy")
        blocks = [b for b in re.split(r"\n\s*\n", text) if b.strip()]
        for index, block in enumerate(blocks, 1):
            lines = [line.replace(separator, "") if separator else line.strip()
                     for line in block.strip().splitlines()]  # fmt: skip
            if lines and lines[0].startswith("objective "):
                lines = lines[1:]  # optimize writes its objective first
            where = f"{path}, board {index}"
            yield Found(
                _board_cols([line.strip() for line in lines], queen, empty, where),
                f"board {index}" if len(blocks) > 1 else "",
            )

    return read


def _board_cols(rows: list[str], queen: str, empty: str, where: str) -> list[int]:
    """Columns of a square board with exactly one queen per row."""
    cols = []
    for r, row in enumerate(rows):
        if len(row) != len(rows) or set(row) - {queen, empty}:
            raise UsageError(
                f"{where}: row {r} should be {len(rows)} cells of {queen!r} and {empty!r}"
            )
        if row.count(queen) != 1:
            raise UsageError(f"{where}: row {r} has {row.count(queen)} queens, not one")
        cols.append(row.index(queen))
    return cols


#: Format name -> reader; the names are formats.FORMATS names.
READERS: dict[str, Reader] = {
    "json": read_json,
    "jsonl": read_jsonl,
    "npy": read_npy,
    "leetcode": read_leetcode,
    "text": board_reader("text"),
    "unicode": board_reader("unicode"),
    "matrix": board_reader("matrix"),
}


def detect(path: Path) -> str:
    """The format of ``path``, from its first bytes (a ``.txt`` may hold any text format)."""
    with opened(path) as handle:
        head = handle.read(4096)
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    text = head.decode("utf-8", "replace").lstrip()
    if text.startswith("{"):
        lines = [line for line in text.splitlines() if line.strip()]
        return "jsonl" if len(lines) > 1 and lines[1].lstrip().startswith("{") else "json"
    if text.startswith("["):
        return "leetcode" if text[1:].lstrip().startswith('"') else "json"
    for style in ("unicode", "matrix"):
        if writers.TEXT_STYLES[style][0] in text:
            return style
    return "text"


def read(path: str, fmt: str = "auto") -> Iterator[Found]:
    """Every placement in the file at ``path``, in format ``fmt`` (``auto``: detected)."""
    where = Path(path)
    if where.is_dir():
        raise UsageError(f"cannot read {path}: it is a directory")
    return READERS[detect(where) if fmt == "auto" else fmt](where)
