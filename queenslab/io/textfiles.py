"""Reading an input file the user names: bounded, so /dev/zero or a huge file cannot hang
a run or eat its memory, and every failure is one line (UsageError)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from queenslab.core.errors import UsageError


def opened(path: str | Path, what: str = "file") -> IO[bytes]:
    """The file open for reading bytes, or a one-line error naming it."""
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path}: {exc.strerror or exc}") from None


def read_text(path: str | Path, max_bytes: int, what: str) -> str:
    """The UTF-8 text of ``path``, reading at most ``max_bytes`` + 1 bytes (devices too).

    ``what`` names the kind of file in the errors ("weights file", "cells file").
    """
    with opened(path, what) as handle:
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:  # e.g. a directory
            raise UsageError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise UsageError(f"{path} is larger than {max_bytes >> 20} MB: not a {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path} is not UTF-8 text, so not a {what}") from None


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for JSON input: a key given twice in one object is an error
    (the json module keeps the last one silently, so two "n" keys chose the board)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {key!r} appears twice in one object")
        found[key] = value
    return found
