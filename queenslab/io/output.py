"""Output files that appear whole or not at all.

A regular file is written to a temporary file beside it and renamed into place only when
the run succeeds, so a failed, interrupted or killed run leaves nothing behind. Anything
else that already exists at the path (a device such as /dev/null, a FIFO) is written
through, never replaced.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import IO, Any, Literal, TextIO, overload

from queenslab.core.errors import UsageError


@overload
def atomic_output(
    path: str | None, binary: Literal[False] = False
) -> AbstractContextManager[TextIO]: ...
@overload
def atomic_output(path: str | None, binary: bool) -> AbstractContextManager[IO[Any]]: ...
def atomic_output(path: str | None, binary: bool = False) -> AbstractContextManager[IO[Any]]:
    """Yield stdout, or a file that appears at ``path`` only when the block succeeds.

    The file is opened before any work starts, so an unwritable path fails fast. A text
    file unless ``binary``, so the callers that write text see a text stream.
    """
    return _atomic_output(path, binary)


@contextmanager
def _atomic_output(path: str | None, binary: bool) -> Iterator[IO[Any]]:
    mode = "wb" if binary else "w"
    encoding = None if binary else "utf-8"
    if path is None:
        yield sys.stdout.buffer if binary else sys.stdout
        return
    target = Path(path)
    if target.exists() and not target.is_file() and not target.is_dir():
        with _opened(path, mode, encoding) as handle:  # a device or FIFO: write through
            yield handle
        return
    with atomic_path(path) as temp, _opened(temp, mode, encoding) as handle:
        yield handle


@contextmanager
def _opened(path: str, mode: str, encoding: str | None) -> Iterator[IO[Any]]:
    try:
        handle = open(path, mode, encoding=encoding)  # noqa: SIM115 - closed below
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    with handle:
        yield handle


@contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """Yield a temporary path beside ``path``; move it into place when the block succeeds."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"cannot write {path}: it is a directory")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, 0o666 & ~umask)  # mkstemp makes 0600; give the file normal permissions
    try:
        yield temp
        os.replace(temp, target)
    finally:
        Path(temp).unlink(missing_ok=True)
