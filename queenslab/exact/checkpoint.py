"""SQLite checkpoints of a count: every finished subproblem and what it contributed.

A run killed at any moment (even SIGKILL) loses at most the last second of work: results
are committed in transactions, so the file always holds whole rows. The file records the
count's plan (n, split method, size and a digest of every subproblem), and each row carries
a digest of (plan, id, total, unique, nodes) keyed by the plan's: a row that was edited,
copied from another count or damaged is refused rather than summed. (The digests catch
mistakes, not forgery: the key is in the file.) Resuming with another plan, an older
format, or a file that is not a checkpoint (another schema, or a trigger that could abort
or drop the rows) is refused with a one-line UsageError naming what it holds. A file
that cannot be written (a full disk) is a one-line UsageError too, and a checkpoint this
run created is removed again when the run fails before recording anything (a full disk,
Ctrl-C during start-up). A new file's schema is written in one locked transaction, so two
processes creating the same checkpoint both find it whole. Runs sharing a file claim
blocks of subproblems (``claim``: a hint of who does what first, never a result) and read
each other's rows; a search's threads share one Checkpoint (it takes a lock).
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType

import numpy as np

from queenslab.core.errors import UsageError

FORMAT = "queenslab-count-checkpoint/2"
COMMIT_EVERY = 1.0  # seconds between two commits
LOCK_TIMEOUT = 60.0  # seconds to wait while another process writes the file
ASKED = 500  # ids per query of ``finished(among)`` (SQLite takes at most 999 parameters)
_META = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
_DONE = (
    "CREATE TABLE done (id INTEGER PRIMARY KEY, total INTEGER NOT NULL,"
    " uniq INTEGER NOT NULL, nodes INTEGER NOT NULL, digest TEXT NOT NULL)"
)
#: Blocks of subproblems a run has taken, per stage (``claim``): runs sharing a file take
#: the blocks no other has taken first.
_CLAIMS = (
    "CREATE TABLE claims (stage INTEGER NOT NULL, block INTEGER NOT NULL,"
    " PRIMARY KEY (stage, block))"
)
#: Everything a checkpoint's schema holds (sqlite_master: type, name, sql). Anything more,
#: a trigger above all, could abort or silently drop the rows a count records.
_SCHEMA = frozenset(
    {("table", "meta", _META), ("index", "sqlite_autoindex_meta_1", None), ("table", "done", _DONE),
     ("table", "claims", _CLAIMS), ("index", "sqlite_autoindex_claims_1", None)}
)  # fmt: skip
#: The meta entries that say which count a file belongs to ("board" only describes it).
_PLAN_KEYS = ("format", "n", "method", "subproblems", "plan")


class Checkpoint:
    """Open (or create) the checkpoint of a count of ``size`` subproblems of ``board``
    (its description, e.g. ``n=8 toroidal``, for the messages)."""

    def __init__(self, path: str, n: int, method: str, size: int, plan: str, board: str) -> None:
        self.path = path
        self.size = size
        self._key = hashlib.sha256(plan.encode()).digest()
        self._last_commit = time.monotonic()
        self._lock = threading.RLock()
        self._created = not Path(path).exists()
        self._recorded = False
        expected = {
            "format": FORMAT,
            "n": str(n),
            "method": method,
            "subproblems": str(size),
            "plan": plan,
            "board": board,
        }
        try:
            self._db = sqlite3.connect(
                path, timeout=LOCK_TIMEOUT, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise UsageError(f"cannot open checkpoint {path}: {exc}") from None
        try:
            self._open(expected)
        except sqlite3.OperationalError as exc:  # e.g. "database or disk is full"
            self._discard()
            raise UsageError(f"cannot write checkpoint {path}: {exc}") from None
        except sqlite3.DatabaseError:
            self._discard()
            raise UsageError(
                f"checkpoint {path} is damaged or not a queenslab checkpoint"
            ) from None
        except BaseException:
            self._discard()
            raise

    def _discard(self) -> None:
        """Close; remove the file if this run created it and recorded nothing in it."""
        self._db.close()
        if self._created and not self._recorded:
            Path(self.path).unlink(missing_ok=True)

    def _open(self, expected: dict[str, str]) -> None:
        """Check the file's plan, or write the schema: one transaction, so a second process
        opening the same new file waits and then finds it complete."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            found = self._read_meta()
            if not found:
                self._create(expected)
            elif found.get("format") != FORMAT:
                raise UsageError(
                    f"checkpoint {self.path} was written by another version of queenslab "
                    f"({found.get('format')}, this one reads {FORMAT}): use another file"
                )
            elif foreign := self._foreign_objects():
                raise UsageError(
                    f"checkpoint {self.path} holds {foreign}, which no queenslab checkpoint "
                    "has: use another file"
                )
            elif edited := _contradiction(found):
                raise UsageError(
                    f"checkpoint {self.path} was edited or damaged ({edited}): use another file"
                )
            elif any(found.get(key) != expected[key] for key in _PLAN_KEYS):
                theirs, mine = _describe(found), _describe(expected)
                if theirs == mine:
                    theirs += " split another way"
                raise UsageError(
                    f"checkpoint {self.path} belongs to another count ({theirs}); this one "
                    f"is {mine}: use another file"
                )
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _read_meta(self) -> dict[str, str]:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            return {}
        if not {"meta", "done"} <= tables:
            raise sqlite3.DatabaseError("foreign schema")
        return {str(k): str(v) for k, v in self._db.execute("SELECT key, value FROM meta")}

    def _foreign_objects(self) -> str:
        """The schema objects no checkpoint has (triggers, views, indexes), named; "" if none."""
        found = self._db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
        return ", ".join(f"the {kind} {name!r}" for kind, name, sql in found
                         if (kind, name, sql) not in _SCHEMA)  # fmt: skip

    def _create(self, meta: dict[str, str]) -> None:
        self._db.execute(_META)
        self._db.execute(_DONE)
        self._db.execute(_CLAIMS)
        self._db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())

    def _digest(self, *row: int) -> str:
        text = ":".join(map(str, row)).encode()
        return hashlib.blake2b(text, key=self._key, digest_size=16).hexdigest()

    def finished(self, among: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Ids already done (those ``among`` these, if given) and their (total, unique,
        nodes) rows, each checked: rows other runs sharing the file recorded too."""
        with self._lock:  # a search's threads share the file
            if self._db.in_transaction:  # this run's own rows, and a fresh read of others'
                self._commit()
            try:
                query = "SELECT id, total, uniq, nodes, digest FROM done"
                if among is None:  # every row: one outside the count is refused below
                    rows = self._db.execute(query + " ORDER BY id").fetchall()
                else:
                    rows = []
                    for first in range(0, len(among), ASKED):
                        asked = among[first : first + ASKED]
                        where = f" WHERE id IN ({', '.join('?' * len(asked))})"
                        rows += self._db.execute(query + where, asked).fetchall()
            except sqlite3.DatabaseError:
                raise UsageError(f"checkpoint {self.path} is damaged") from None
            seen: set[int] = set()
            for *values, digest in rows:
                whole = all(type(v) is int and v >= 0 for v in values)
                if not whole or values[0] >= self.size or values[0] in seen:
                    raise self._bad_row(values[0])
                if digest != self._digest(*values):
                    raise self._bad_row(values[0])
                seen.add(values[0])
            table = np.array([row[:4] for row in rows], dtype=np.int64).reshape(len(rows), 4)
            return table[:, 0], table[:, 1:]

    def _bad_row(self, id_: object) -> UsageError:
        return UsageError(
            f"checkpoint {self.path} has a row that is not a finished subproblem of this count"
            f" (id {id_!r}): it was edited or damaged, use another file"
        )

    def record(self, ids: Iterable[int], results: Iterable[Iterable[int]]) -> None:
        """Add finished subproblems; committed at most a second later (or on close)."""
        with self._lock:  # a search's threads share the file
            rows = [(int(i), *map(int, row)) for i, row in zip(ids, results, strict=True)]
            try:
                if not self._db.in_transaction:
                    self._db.execute("BEGIN")
                self._db.executemany(
                    "INSERT OR REPLACE INTO done VALUES (?, ?, ?, ?, ?)",
                    [(*row, self._digest(*row)) for row in rows],
                )
            except sqlite3.DatabaseError as exc:  # a full disk; a file changed while counting
                raise UsageError(f"cannot write checkpoint {self.path}: {exc}") from None
            self._recorded = True
            if time.monotonic() - self._last_commit >= COMMIT_EVERY:
                self._commit()

    def claim(self, block: int, stage: int = 0) -> bool:
        """Take a block of subproblems at a stage (a decision's target, say) unless another
        run, or an earlier one, took it: runs sharing the file each take blocks no other
        has before redoing any. The claim is committed at once, so the other runs see it;
        it is a hint, never a result (a run that dies leaves its blocks to the others)."""
        with self._lock:  # a search's threads share the file
            try:
                if self._db.in_transaction:
                    self._commit()
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(_CLAIMS.replace("TABLE", "TABLE IF NOT EXISTS"))  # older files
                taken = self._db.execute(
                    "INSERT OR IGNORE INTO claims VALUES (?, ?)", (stage, block)
                )
                self._db.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise UsageError(f"cannot write checkpoint {self.path}: {exc}") from None
            return taken.rowcount == 1

    def _commit(self) -> None:
        try:
            if self._db.in_transaction:
                self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise UsageError(f"cannot write checkpoint {self.path}: {exc}") from None
        self._last_commit = time.monotonic()

    def close(self) -> None:
        with self._lock:  # a search's threads share the file
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


def _contradiction(meta: dict[str, str]) -> str:
    """How a file's meta entries contradict each other ("its n is 15, its board n=16"),
    or "": an edited n was taken for the n of another count, and named the board's."""
    board = meta.get("board")
    if board and board.split()[0] != f"n={meta.get('n')}":
        return f"its n is {meta.get('n')}, its board {board}"
    return ""


def _describe(meta: dict[str, str]) -> str:
    """A count as its meta entries name it: the board (files written before the board was
    recorded give its n) and the split method."""
    return f"{meta.get('board') or 'n=' + str(meta.get('n'))}, {meta.get('method')}"
