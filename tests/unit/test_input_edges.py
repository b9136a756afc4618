"""The rules at the edges of the input (issue 48), in process: one ceiling for workers,
sweep axes that apply to the question, cells named once, the proof folder's lifetime."""

from __future__ import annotations

import argparse

import pytest

import queenslab as ql
from queenslab.cli.arguments import seconds, whole_number
from queenslab.core import integers
from queenslab.core.kind import cells_from_json
from queenslab.lab.sweep import Config, configurations
from queenslab.models.zero_one.proved import folder, tidied


def test_workers_have_a_ceiling_of_cores_here_and_a_larger_one_on_a_cluster():
    ceiling = integers.WORKERS_PER_CORE * integers.cores()
    assert integers.workers(ceiling) == ceiling
    with pytest.raises(ql.UsageError, match=f"workers must be at most {ceiling}"):
        integers.workers(ceiling + 1)
    assert integers.workers(ceiling + 1, "tcp://127.0.0.1:8786") == ceiling + 1
    with pytest.raises(ql.UsageError, match="at most 4096 on a Dask cluster"):
        integers.workers(10**9, "tcp://127.0.0.1:8786")
    with pytest.raises(ql.UsageError, match="at least 1"):
        integers.workers(0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: ql.count(8, "bitmask", workers=10**9),
        lambda: ql.solve(8, "cpsat", workers=100_000),
        lambda: ql.decide(5, "domination", 3, "sat", split=2, workers=10**9),
    ],
    ids=["count", "solve", "split decide"],
)
def test_every_entry_point_refuses_workers_beyond_the_machine(call):
    with pytest.raises(ql.UsageError, match="workers must be at most"):
        call()


def test_a_decide_refuses_workers_its_backend_would_ignore():
    with pytest.raises(ql.UsageError, match="'workers' only with --split"):
        ql.decide(5, "domination", 3, "sat", workers=2)
    assert ql.decide(5, "domination", 3, "sat", split=2, workers=2).status is ql.Status.YES


def test_sweep_axes_are_the_options_that_apply_to_the_question():
    assert configurations(["cpsat"], ["optimize"], {}, "domination") == [Config("cpsat")]
    formulations = {c.options for c in configurations(["cpsat"], ["solve"], {})}
    assert formulations == {(("formulation", "integer"),), (("formulation", "boolean"),)}
    assert configurations(["cpsat"], ["solve"], {}, model="cells") == [Config("cpsat")]
    with pytest.raises(ql.UsageError, match="no chosen backend offers formulation"):
        configurations(["cpsat"], ["optimize"], {"formulation": ["integer"]}, "domination")


@pytest.mark.parametrize("text", [" 6", "6 ", "\t6", "6\n", "--6"])
def test_numbers_with_spaces_or_two_signs_are_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        whole_number(text, "N")
    assert whole_number("-6", "K", -10) == -6
    with pytest.raises(argparse.ArgumentTypeError):
        seconds(f" {text.strip()}")


def test_a_cell_named_twice_is_refused():
    with pytest.raises(ql.UsageError, match=r"the white army names the cell \[0, 1\] twice"):
        cells_from_json([[0, 1], [2, 3], [0, 1]], "the white army")
    assert cells_from_json([[0, 1], [1, 0]], "x") == [(0, 1), (1, 0)]


def test_the_proof_folder_a_run_made_and_left_empty_goes(tmp_path):
    made = tmp_path / "a" / "b"
    with pytest.raises(KeyboardInterrupt), tidied(str(made)):
        folder(str(made))
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []  # "a" too: the run made it
    with tidied(str(made)):
        folder(str(made))
        (made / "proof.lrat").write_text("1 0 0\n")
    assert (made / "proof.lrat").exists()  # a proof stays, and so do its folders
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    with tidied(str(theirs)):
        folder(str(theirs))
    assert theirs.is_dir()  # the user's own, empty or not
