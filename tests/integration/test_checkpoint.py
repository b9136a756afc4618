"""Checkpoints of bitmask counts: resuming, and refusing files that are not this count's."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import threading
import time

import pytest

import queenslab as ql
from queenslab.core.errors import UsageError
from queenslab.exact import constellations
from queenslab.exact.checkpoint import Checkpoint
from queenslab.lab import reference
from tests.conftest import ROOT, queens_command


def _saved(path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM done").fetchone()[0]


def test_interrupted_count_resumes_from_its_checkpoint(tmp_path):
    path = str(tmp_path / "count.sqlite")
    seen: list[tuple[int, int]] = []

    def interrupt(done: int, total: int) -> None:
        seen.append((done, total))
        if done >= total // 3:
            raise KeyboardInterrupt  # what Ctrl-C raises in the main thread

    with pytest.raises(KeyboardInterrupt):
        ql.count(13, "bitmask", unique=True, workers=2, checkpoint=path, progress=interrupt)
    saved = _saved(path)
    done, total = seen[-1]
    assert 0 < saved == done < total

    resumed: list[int] = []
    result = ql.count(
        13, "bitmask", unique=True, checkpoint=path, progress=lambda d, t: resumed.append(d)
    )
    assert resumed[0] == saved
    assert (result.total, result.unique) == (reference.total(13), reference.unique(13))
    again = ql.count(13, "bitmask", unique=True, checkpoint=path)
    assert (again.total, again.unique) == (result.total, result.unique)


def test_count_killed_with_sigkill_resumes_from_its_checkpoint(tmp_path):
    path = tmp_path / "count.sqlite"
    argv = [
        *queens_command(),
        "count",
        "16",
        "--unique",
        "--workers",
        "1",
        "--checkpoint",
        str(path),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not (path.exists() and _has_rows(path)):
            assert process.poll() is None, "the count ended before its first commit"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.communicate()
    saved = _saved(path)
    plan = len(constellations.plan(16))
    assert 0 < saved < plan
    result = ql.count(16, "bitmask", unique=True, checkpoint=str(path))
    assert (result.total, result.unique) == (reference.total(16), reference.unique(16))
    assert _saved(path) == plan


def _has_rows(path) -> bool:
    try:
        return _saved(path) > 0
    except sqlite3.Error:  # not created yet, or being written
        return False


def test_checkpoint_of_another_count_is_refused(tmp_path):
    path = str(tmp_path / "count.sqlite")
    ql.count(9, "bitmask", checkpoint=path)
    with pytest.raises(UsageError, match="another count"):
        ql.count(10, "bitmask", checkpoint=path)
    with pytest.raises(UsageError, match="another count"):
        ql.count(9, "bitmask", givens=[(0, 1)], checkpoint=path)
    # a count of the totals alone did not count the classes its rows would need
    with pytest.raises(UsageError, match=r"another count .* with classes"):
        ql.count(9, "bitmask", unique=True, checkpoint=path)


@pytest.mark.parametrize(
    "content", [b"not a database at all" * 100, b"SQLite format 3\x00" + bytes(200)]
)
def test_damaged_checkpoint_is_refused(tmp_path, content):
    path = tmp_path / "count.sqlite"
    path.write_bytes(content)
    with pytest.raises(UsageError, match="damaged"):
        ql.count(9, "bitmask", checkpoint=str(path))


def test_foreign_sqlite_file_is_refused(tmp_path):
    path = str(tmp_path / "other.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE people (name TEXT)")
    with pytest.raises(UsageError, match="not a queenslab checkpoint"):
        ql.count(9, "bitmask", checkpoint=path)


def test_checkpoint_of_an_older_format_is_refused(tmp_path):
    path = str(tmp_path / "old.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE done (id INTEGER PRIMARY KEY, total INTEGER NOT NULL,"
                   " uniq INTEGER NOT NULL, nodes INTEGER NOT NULL)")  # fmt: skip
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("format", "queenslab-count-checkpoint/1"), ("n", "10"), ("method", "x")],
        )
    with pytest.raises(UsageError, match="another version of queenslab"):
        ql.count(10, "bitmask", checkpoint=path)


#: Hand edits of a finished checkpoint of `queens count 10` (issue 10): each was summed
#: (a wrong total, exit 0) or crashed before rows were checked.
EDITS = {
    "row replaced by another id with total 5": (
        "DELETE FROM done WHERE id = 1; UPDATE done SET id = 1, total = 5 WHERE id = 0"
    ),
    "edited total": "UPDATE done SET total = total + 5 WHERE id = 0",
    "row moved to another id": "DELETE FROM done WHERE id = 1; UPDATE done SET id = 1 WHERE id = 0",
    "unknown id": "UPDATE done SET id = 100000 WHERE id = 0",
    "negative id": "UPDATE done SET id = -1 WHERE id = 0",
    "non-integer total": "UPDATE done SET total = 2.5 WHERE id = 0",
    "text total": "UPDATE done SET total = 'many' WHERE id = 0",
}


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_hand_edited_checkpoint_is_refused(tmp_path, edit):
    path = str(tmp_path / "count.sqlite")
    assert ql.count(10, "bitmask", checkpoint=path).total == reference.total(10)
    with sqlite3.connect(path) as db:
        db.executescript(edit)
    with pytest.raises(UsageError, match="edited or damaged"):
        ql.count(10, "bitmask", checkpoint=path)


def test_command_resumes_and_rejects_checkpoints(queens, tmp_path):
    path = str(tmp_path / "count.sqlite")
    first = queens("count", "10", "--unique", "--backend", "bitmask", "--checkpoint", path)
    assert first.returncode == 0, first.stderr
    assert {str(reference.total(10)), str(reference.unique(10))} <= set(first.stdout.split())
    other = queens("count", "11", "--backend", "bitmask", "--checkpoint", path)
    assert other.returncode == 2
    assert "another count" in other.stderr
    with sqlite3.connect(path) as db:
        db.execute("UPDATE done SET total = 5 WHERE id = 3")
    edited = queens("count", "10", "--unique", "--backend", "bitmask", "--checkpoint", path)
    assert (edited.returncode, edited.stdout) == (2, "")
    assert edited.stderr.count("\n") == 1 and "edited or damaged" in edited.stderr


def test_two_openers_of_a_new_checkpoint_both_succeed(tmp_path, monkeypatch):
    """The schema is written in one locked transaction: nobody sees it half made ("damaged")."""
    create = Checkpoint._create

    def slow_create(self, meta):
        time.sleep(0.3)  # the second opener arrives while the first writes the schema
        create(self, meta)

    monkeypatch.setattr(Checkpoint, "_create", slow_create)
    path = str(tmp_path / "count.sqlite")
    errors: list[BaseException] = []

    def open_checkpoint() -> None:
        try:
            with Checkpoint(path, 9, "constellations", 147, "ab" * 32) as checkpoint:
                assert len(checkpoint.finished()[0]) == 0
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    openers = [threading.Thread(target=open_checkpoint) for _ in range(2)]
    for opener in openers:
        opener.start()
        time.sleep(0.1)
    for opener in openers:
        opener.join()
    assert errors == []
