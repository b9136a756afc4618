"""SQLite checkpoints of a count: every finished subproblem and what it contributed.

A run killed at any moment (even SIGKILL) loses at most the last second of work: results
are committed in transactions, so the file always holds whole, consistent rows. The file
records n and the split method; resuming with another n, another split, or a file that is
not a checkpoint is refused with a UsageError. A file that cannot be written (a full disk)
is a one-line UsageError too, and a checkpoint this run created is removed again when the
run fails before recording anything (an unreachable scheduler, a full disk).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path
from types import TracebackType

import numpy as np

from queenslab.errors import UsageError

FORMAT = "queenslab-count-checkpoint/1"
COMMIT_EVERY = 1.0  # seconds between two commits


class Checkpoint:
    """Open (or create) the checkpoint of a count of ``size`` subproblems."""

    def __init__(self, path: str, n: int, method: str, size: int) -> None:
        self.path = path
        self._last_commit = time.monotonic()
        self._created = not Path(path).exists()
        self._recorded = False
        expected = {"format": FORMAT, "n": str(n), "method": method, "subproblems": str(size)}
        try:
            self._db = sqlite3.connect(path)
        except sqlite3.Error as exc:
            raise UsageError(f"cannot open checkpoint {path}: {exc}") from None
        try:
            found = self._read_meta()
            if not found:
                self._create(expected)
            elif found != expected:
                raise UsageError(
                    f"checkpoint {path} belongs to another count (n={found.get('n')}, "
                    f"{found.get('method')}); this one is n={n}, {method}: use another file"
                )
        except sqlite3.OperationalError as exc:  # e.g. "database or disk is full"
            self._discard()
            raise UsageError(f"cannot write checkpoint {path}: {exc}") from None
        except sqlite3.DatabaseError:
            self._discard()
            raise UsageError(
                f"checkpoint {path} is damaged or not a queenslab checkpoint"
            ) from None
        except UsageError:
            self._discard()
            raise

    def _discard(self) -> None:
        """Close; remove the file if this run created it and recorded nothing in it."""
        self._db.close()
        if self._created and not self._recorded:
            Path(self.path).unlink(missing_ok=True)

    def _read_meta(self) -> dict[str, str]:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            return {}
        if not {"meta", "done"} <= tables:
            raise sqlite3.DatabaseError("foreign schema")
        return dict(self._db.execute("SELECT key, value FROM meta"))

    def _create(self, meta: dict[str, str]) -> None:
        with self._db:
            self._db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.execute(
                "CREATE TABLE done (id INTEGER PRIMARY KEY, total INTEGER NOT NULL,"
                " uniq INTEGER NOT NULL, nodes INTEGER NOT NULL)"
            )
            self._db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())

    def finished(self) -> tuple[np.ndarray, np.ndarray]:
        """Ids already done and their (total, unique, nodes) rows."""
        try:
            rows = self._db.execute(
                "SELECT id, total, uniq, nodes FROM done ORDER BY id"
            ).fetchall()
        except sqlite3.DatabaseError:
            raise UsageError(f"checkpoint {self.path} is damaged") from None
        table = np.array(rows, dtype=np.int64).reshape(len(rows), 4)
        return table[:, 0], table[:, 1:]

    def record(self, ids: np.ndarray, results: np.ndarray) -> None:
        """Add finished subproblems; committed at most a second later (or on close)."""
        try:
            self._db.executemany(
                "INSERT OR REPLACE INTO done VALUES (?, ?, ?, ?)",
                ((int(i), *map(int, row)) for i, row in zip(ids, results, strict=True)),
            )
        except sqlite3.OperationalError as exc:
            raise UsageError(f"cannot write checkpoint {self.path}: {exc}") from None
        self._recorded = True
        if time.monotonic() - self._last_commit >= COMMIT_EVERY:
            self._commit()

    def _commit(self) -> None:
        try:
            self._db.commit()
        except sqlite3.OperationalError as exc:
            raise UsageError(f"cannot write checkpoint {self.path}: {exc}") from None
        self._last_commit = time.monotonic()

    def close(self) -> None:
        try:
            self._commit()
        finally:
            self._db.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if error is None:
            self.close()
            return
        with contextlib.suppress(UsageError):  # the error under way is the one to report
            self.close()  # keep what finished (Ctrl-C, a limit, a lost worker)
        if not self._recorded:
            self._discard()
