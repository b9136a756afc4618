"""Output files that appear whole or not at all."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from queenslab.errors import UsageError


@contextmanager
def atomic_output(path: str | None) -> Iterator[TextIO]:
    """Yield stdout, or a temporary file that replaces ``path`` only when the block succeeds.

    The temporary file is opened before any work starts, so an unwritable path fails fast,
    and a failed or interrupted run leaves no partial file behind.
    """
    if path is None:
        yield sys.stdout
        return
    with atomic_path(path) as temp, open(temp, "w", encoding="utf-8") as handle:
        yield handle


@contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """Yield a temporary path beside ``path``; move it into place when the block succeeds."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"cannot write {path}: it is a directory")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, 0o666 & ~umask)  # mkstemp makes 0600; give the file normal permissions
    try:
        yield temp
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
