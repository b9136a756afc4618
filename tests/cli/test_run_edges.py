"""The edges of a run (issue 48): a split decide stops at its limit however long its model
takes to build, --workers has a ceiling, sweeps expand only the options that apply, and
bad input (spaces in N, a file that is no CNF, a start naming a cell twice) is one line
with exit 2; --proof DIR leaves no empty folder it made."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import signal_after, start_queens

needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None, reason="needs cadical")

#: A split decide whose model alone took 28 s (sat) and 23 s (cpsat) to build and cut
#: into cubes on a quiet machine, over 100 s at load 5, all past a 3 s limit.
SLOW_SPLIT = ["decide", "200", "--problem", "domination", "--value", "100", "--split", "3"]


def one_line_usage(run: subprocess.CompletedProcess[str], message: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_a_split_decide_stops_at_its_limit_while_its_model_is_built(queens, backend):
    run = queens(*SLOW_SPLIT, "-b", backend, "--time-limit", "3", timeout=60)
    assert (run.returncode, run.stdout) == (3, "domination n=200: value <= 100: limit\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "10", "--workers", "1000000000"],
        ["decide", "6", "--problem", "domination", "--value", "3", "-b", "sat", "--split", "2",
         "--workers", "1000000000"],
        ["decide", "6", "--problem", "domination", "--value", "3", "-b", "cpsat",
         "--workers", "100000"],
        ["optimize", "6", "--problem", "peaceable", "-b", "armies", "--workers", "100000000"],
        ["sweep", "-b", "bitmask", "--n", "6", "--workers", "100000"],
        ["hardness-study", "--kind", "completion", "--n", "6", "--densities", "0.1",
         "--samples", "1", "-b", "cpsat", "--workers", "100000"],
    ],
)  # fmt: skip
def test_workers_beyond_the_machine_are_refused(queens, argv):
    one_line_usage(queens(*argv, timeout=60), "workers must be at most")


def test_a_sat_decide_without_split_refuses_workers_it_would_ignore(queens):
    run = queens("decide", "6", "--problem", "domination", "--value", "3", "-b", "sat",
                 "--workers", "2")  # fmt: skip
    one_line_usage(run, "only with --split")
    run = queens("decide", "6", "--problem", "domination", "--value", "3", "-b", "sat",
                 "--split", "2", "--workers", "2")  # fmt: skip
    assert run.returncode == 0, run.stderr


def test_a_sweep_of_a_kind_leaves_out_placement_only_options(queens):
    run = queens("sweep", "-b", "cpsat", "--problem", "domination", "--n", "4-5")
    assert run.returncode == 0, run.stderr
    assert "optimize answers checked (n=4: 2, n=5: 3)" in run.stdout


@pytest.mark.parametrize("n", [" 6", "6 ", "6\n"])
def test_a_board_size_with_spaces_is_refused(queens, n):
    one_line_usage(queens("solve", n), "N must be a whole number")


def test_check_proof_of_a_file_that_is_no_cnf_is_bad_input(queens, tmp_path):
    (tmp_path / "notes.txt").write_text("these are my notes\n")
    (tmp_path / "proof.lrat").write_text("1 0 0\n")
    run = queens("check-proof", str(tmp_path / "notes.txt"), str(tmp_path / "proof.lrat"))
    one_line_usage(run, "is not a DIMACS CNF")
    assert run.stdout == ""


def test_a_start_naming_a_cell_twice_is_refused(queens, tmp_path):
    start = tmp_path / "start.json"
    cells = [[1, 0], [2, 2], [3, 0], [2, 2]]
    start.write_text(json.dumps({"n": 5, "problem": "domination", "answer": cells}))
    run = queens("optimize", "5", "--problem", "domination", "--start", str(start))
    one_line_usage(run, "names the cell [2, 2] twice")


@needs_cadical
def test_proof_folder_left_empty_by_a_yes_or_a_limit_is_removed(queens, tmp_path):
    folder = tmp_path / "new" / "proof"
    yes = queens("decide", "5", "--problem", "domination", "--value", "3", "-b", "sat",
                 "--proof", str(folder))  # fmt: skip
    assert yes.returncode == 0, yes.stderr
    assert not (tmp_path / "new").exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    yes = queens("decide", "5", "--problem", "domination", "--value", "3", "-b", "sat",
                 "--split", "2", "--proof", str(mine))  # fmt: skip
    assert yes.returncode == 0 and mine.is_dir(), yes.stderr  # the user's, kept
    limit = queens(*SLOW_SPLIT, "-b", "sat", "--proof", str(folder), "--time-limit", "3")
    assert limit.returncode == 3, limit.stderr
    assert not (tmp_path / "new").exists()


@needs_cadical
def test_a_split_proof_stopped_by_its_limit_leaves_no_solver_running(queens, tmp_path):
    """Domination 14 at 7 on the cells model takes CaDiCaL minutes per cube: the limit
    stops it, and no CaDiCaL of a cube goes on in the folder (a killed worker left one)."""
    folder = tmp_path / "proof"
    run = queens("decide", "14", "--problem", "domination", "--value", "7", "--model", "cells",
                 "-b", "sat", "--split", "2", "--workers", "2", "--proof", str(folder),
                 "--time-limit", "3")  # fmt: skip
    assert run.returncode == 3, run.stderr
    assert not folder.exists()
    running = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            running.append(cmdline.read_bytes())
    assert not [line for line in running if str(folder).encode() in line]


@needs_cadical
def test_proof_folder_left_empty_by_ctrl_c_is_removed(tmp_path):
    folder = tmp_path / "proof"
    process = start_queens("decide", "200", "--problem", "domination", "--value", "100",
                           "-b", "sat", "--proof", str(folder))  # fmt: skip
    code, _, err = signal_after(process)
    assert code == 130, err
    assert not folder.exists()


def test_ctrl_c_ends_a_split_decide_while_its_model_is_built():
    code, _, err = signal_after(start_queens(*SLOW_SPLIT, "-b", "sat"))
    assert code == 130, err
