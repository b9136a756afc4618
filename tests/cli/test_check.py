"""Output formats and their readers, and `queens check` on files of every format."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from queenslab.boards import board
from queenslab.boards.base import KERNEL_FROM
from queenslab.cli.check import verdict
from queenslab.core.errors import UsageError
from queenslab.core.placement import Placement
from queenslab.core.result import SolveResult, Status
from queenslab.io import formats, readers

EIGHT = (0, 4, 7, 5, 2, 6, 1, 3)


def test_every_board_format_has_a_reader_and_back():
    drawn = {name for name, f in formats.FORMATS.items() if not f.picture}
    assert set(readers.READERS) == drawn


def _write(fmt: formats.Format, placement: Placement, path) -> None:
    result = SolveResult(Status.SOLVED, placement, n=placement.n)
    with open(path, "wb" if fmt.binary else "w", encoding=None if fmt.binary else "utf-8") as out:
        if fmt.answer is not None:
            fmt.answer(result, out)
        else:
            out.write(fmt.solution(placement))


@pytest.mark.parametrize("name", sorted(readers.READERS))
@pytest.mark.parametrize("cols", [EIGHT, np.arange(70, dtype=np.int32)], ids=["8", "70"])
def test_what_a_format_writes_its_reader_reads(tmp_path, name, cols):
    placement = Placement(cols)
    path = tmp_path / f"board.{name}"
    _write(formats.FORMATS[name], placement, path)
    if name in ("text", "unicode", "matrix") and placement.n > 64:
        with pytest.raises(UsageError, match="summary"):
            list(readers.read(str(path)))
        return
    for fmt in (name, "auto"):
        (found,) = readers.read(str(path), fmt)
        assert list(Placement(found.cols)) == list(placement)


def test_npy_is_what_numpy_loads_without_widening(tmp_path):
    cols = np.array([1, 3, 0, 2], dtype=np.int32)
    buffer = io.BytesIO()
    formats.FORMATS["npy"].answer(SolveResult(Status.SOLVED, Placement(cols)), buffer)
    buffer.seek(0)
    loaded = np.load(buffer)
    assert loaded.dtype == np.int32 and loaded.tolist() == [1, 3, 0, 2]


def test_json_streams_the_same_record_as_json_dumps():
    cols = np.arange(200_000, dtype=np.int32)
    result = SolveResult(Status.SOLVED, Placement(cols), n=len(cols))
    out = io.StringIO()
    formats.FORMATS["json"].answer(result, out)
    assert json.loads(out.getvalue()) == result.to_json()


def test_large_json_is_read_by_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "SMALL_JSON_BYTES", 16)
    monkeypatch.setattr(readers, "_JSON_CHUNK_BYTES", 64)
    cols = list(range(0, 300, 2)) + list(range(1, 300, 2))
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"n": 300, "variant": "standard", "cols": cols, "x": [1]}))
    (found,) = readers.read(str(path))
    assert found.cols.tolist() == cols and (found.n, found.variant) == (300, "standard")
    for bad in (
        "[1, 2, , 3" + ", 4" * 40 + "]",
        "[1, 2.5" + ", 4" * 40 + "]",
        "[1, x" + ", 4" * 40 + "]",
    ):
        path.write_text(bad)
        with pytest.raises(UsageError, match="other than integers"):
            list(readers.read(str(path)))


def _huge(n: int) -> np.ndarray:
    from queenslab.heuristics.explicit import explicit_columns

    return explicit_columns(n)


def test_huge_verdicts_name_the_first_attacked_row_and_its_partner():
    n = 300_007  # past boards.base.KERNEL_FROM: the compiled pass
    cols = _huge(n)
    assert verdict(board(n), cols) is None
    bad = cols.copy()
    bad[5], bad[9] = bad[9], bad[5]
    found = verdict(board(n), bad)
    assert found.startswith("the queens of rows") and found.endswith("attack each other")
    earlier, later = (int(w) for w in found.split()[4:7:2])
    assert earlier < later <= 9
    assert abs(int(bad[later]) - int(bad[earlier])) in (0, later - earlier)
    bad = cols.copy()
    bad[7] = n
    assert verdict(board(n), bad) == "row 7 has its queen off the board"


def test_a_huge_list_gets_its_verdict_on_a_board_with_leaps():
    """A JSON file under 8 MB is read as a list: the leaps' pass subtracted two lists."""
    n = KERNEL_FROM
    assert verdict(board(n, "superqueens"), list(range(n))) == (
        "the queens of rows 0 and 1 attack each other"
    )


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        (json.dumps(list(EIGHT)), 0, "valid: 8 queens, standard board"),
        (json.dumps([0, 1, 2, 3]), 1, "invalid: the queens of rows 0 and 1 attack each other"),
        ('[".Q..", "...Q", "Q...", "..Q."]\n', 0, "valid: 4 queens"),
        ("Q...\n..Q.\n....\n.Q..\n", 2, "row 2 has 0 queens"),
        ("0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n", 0, "valid: 4 queens"),
        ('{"n": 5, "cols": [1, 3, 0, 2]}', 2, "says n = 5"),
        ('{"cols": [0, 1, 2, 3], "cols": [1, 3, 0, 2]}', 2, "the key 'cols' appears twice"),
        ("[1, 3, 0, NaN]", 2, "NaN"),
        ("", 2, "holds no placement"),
    ],
)
def test_check_command(queens, tmp_path, content, code, message):
    path = tmp_path / "board.txt"
    path.write_text(content, encoding="utf-8")
    run = queens("check", str(path))
    assert run.returncode == code, run.stderr
    assert (run.stdout + run.stderr).count("\n") == 1 and message in run.stdout + run.stderr


def test_check_reads_what_solve_and_enumerate_write(queens, tmp_path):
    target = tmp_path / "q.npy"
    assert queens("solve", "300000", "-b", "explicit", "--output", str(target)).returncode == 0
    run = queens("check", str(target))
    assert (run.returncode, run.stdout) == (0, "valid: 300000 queens, standard board\n")
    run = queens("check", str(target), "--variant", "toroidal")
    assert run.returncode == 1 and run.stdout.startswith("invalid: the queens of rows")
    queens("enumerate", "6", "--format", "text", "--output", str(tmp_path / "six.txt"))
    run = queens("check", str(tmp_path / "six.txt"))
    assert (run.returncode, run.stdout) == (0, "valid: 4 placements of 6 queens, standard board\n")
    run = queens("check", str(tmp_path / "six.txt"), "--blocked", "0:1")
    assert run.returncode == 1 and "blocked cell" in run.stdout
    run = queens("check", str(tmp_path / "missing.json"))
    assert run.returncode == 2 and "cannot read" in run.stderr
