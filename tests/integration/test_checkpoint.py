"""Checkpoints of bitmask counts: resuming, and refusing files that are not this count's."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

import queenslab as ql
from queenslab.core.errors import UsageError
from queenslab.exact import constellations
from queenslab.exact.checkpoint import Checkpoint
from queenslab.lab import reference
from tests.conftest import ROOT


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


#: A count that SIGKILLs itself inside its second commit: rows of a finished subproblem
#: written to the file's transaction and not yet committed, as a kill lands at any moment.
KILLED_IN_A_COMMIT = """
import os, signal, sys
import queenslab as ql
from queenslab.exact import checkpoint

commit = checkpoint.Checkpoint._commit
calls = []

def commit_or_die(self):
    calls.append(self)
    if len(calls) == 2:
        assert self._db.in_transaction
        os.kill(os.getpid(), signal.SIGKILL)
    commit(self)

checkpoint.Checkpoint._commit = commit_or_die
checkpoint.COMMIT_EVERY = 0.0  # each record commits: the second one dies
ql.count(14, "bitmask", unique=True, workers=1, checkpoint=sys.argv[1])
"""


def test_count_killed_with_sigkill_resumes_from_its_checkpoint(tmp_path):
    """The kill lands between writing rows and committing them, whatever the machine's
    speed (the count used to be killed after its first commit, which could be its last:
    3206 of 3206 rows)."""
    path = tmp_path / "count.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_IN_A_COMMIT, str(path)], env=env, timeout=300
    )
    assert killed.returncode == -signal.SIGKILL
    assert path.with_name(path.name + "-journal").exists()  # the rows it had not committed
    saved = _saved(path)  # reading rolls the journal back
    plan = len(constellations.plan(14))
    assert 0 < saved < plan
    result = ql.count(14, "bitmask", unique=True, checkpoint=str(path))
    assert (result.total, result.unique) == (reference.total(14), reference.unique(14))
    assert _saved(path) == plan


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


def test_another_board_is_named_in_the_refusal(tmp_path):
    """A toroidal checkpoint resumed for super-queens said the two counts (n=8, the same
    split) differed, with two identical descriptions."""
    path = str(tmp_path / "count.sqlite")
    ql.count(8, "bitmask", variant="toroidal", checkpoint=path)
    with pytest.raises(UsageError, match=r"count \(n=8 toroidal, .*\); this one is n=8 superq"):
        ql.count(8, "bitmask", variant="superqueens", checkpoint=path)


@pytest.mark.parametrize("resumed", [8, 9])
def test_an_edited_n_is_named_as_an_edit(tmp_path, resumed):
    """A file of n = 9 whose n was edited to 8 was refused as "another count (n=9...)",
    and resumed as n = 9 as "n=9 split another way"."""
    path = str(tmp_path / "count.sqlite")
    ql.count(9, "bitmask", checkpoint=path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '8' WHERE key = 'n'")
    with pytest.raises(UsageError, match=r"edited or damaged \(its n is 8, its board n=9\)"):
        ql.count(resumed, "bitmask", checkpoint=path)


@pytest.mark.parametrize("action", ["ABORT, 'no'", "IGNORE"])
def test_a_checkpoint_with_a_trigger_is_refused(tmp_path, action):
    """A trigger that aborted inserts gave a traceback (IntegrityError); one that ignored
    them let the count finish with nothing recorded and nothing said."""
    path = str(tmp_path / "count.sqlite")
    ql.count(8, "bitmask", checkpoint=path)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM done")
        db.execute(f"CREATE TRIGGER t BEFORE INSERT ON done BEGIN SELECT RAISE({action}); END")
    with pytest.raises(UsageError, match="holds the trigger 't', which no queenslab checkpoint"):
        ql.count(8, "bitmask", checkpoint=path)


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
            with Checkpoint(path, 9, "constellations", 147, "ab" * 32, "n=9") as checkpoint:
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
