"""``queens decide``: text and JSON, the exit codes (0 yes, 1 no, 2 bad usage), and
``--proof DIR`` writing the CNF and a proof that the project's checker accepted."""

from __future__ import annotations

import json
import os
import shutil
from unittest import mock

import pytest

import queenslab as ql
from queenslab.proofs import lrat

needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None, reason="needs cadical")


def test_yes_draws_the_answer_and_no_exits_1(queens):
    run = queens("decide", "6", "--problem", "domination", "--value", "3", "-b", "cpsat")
    head, *rows = run.stdout.splitlines()
    assert (run.returncode, head) == (0, "domination n=6: value <= 3: yes (3)"), run.stderr
    assert len(rows) == 6 and sum(row.count("Q") for row in rows) == 3
    run = queens("decide", "6", "--problem", "domination", "--value", "2", "--format", "json")
    record = json.loads(run.stdout)
    assert run.returncode == 1
    assert (record["status"], record["value"], record["answer"]) == ("no", 2, None)


def test_a_maximum_is_decided_at_least_the_value(queens):
    run = queens("decide", "5", "--problem", "peaceable", "--value", "4", "--format", "json")
    record = json.loads(run.stdout)
    assert (run.returncode, record["status"], record["objective"]) == (0, "yes", 4)
    assert len(record["answer"]["white"]) == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["decide", "6", "--value", "3"], "valued by weights"),
        (["decide", "6", "--problem", "domination"], "needs the value"),
        (["decide", "6", "--problem", "domination", "--value", "-1"], "--value must be"),
        (["decide", "6", "--problem", "domination", "--value", "3", "-b", "cpsat",
          "--proof", "x"], "writes no proof"),
        (["decide", "6", "--problem", "domination", "--value", "3", "-b", "bitmask"],
         "does not model the domination problem"),
        (["decide", "6", "--problem", "domination", "--value", "3", "-o", "x.weird"],
         "cannot tell the format of x.weird"),
    ],
)  # fmt: skip
def test_bad_usage_is_one_line_and_exit_2(queens, argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = queens(*argv)
    assert run.returncode == 2 and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())  # no output file


@needs_cadical
@pytest.mark.parametrize(
    ("n", "problem", "value"),
    [("6", "domination", "2"), ("5", "peaceable", "5")],  # optimum + 1 for a maximum
)
def test_proof_writes_a_checked_proof_of_no(queens, tmp_path, n, problem, value):
    folder = tmp_path / "proof"
    argv = ["decide", n, "--problem", problem, "--value", value, "-b", "sat"]
    run = queens(*argv, "--proof", str(folder), "--format", "json")
    record = json.loads(run.stdout)
    assert (run.returncode, record["status"], record["proof"]) == (1, "no", "checked")
    assert sorted(p.name for p in folder.iterdir()) == ["formula.cnf", "proof.drat", "proof.lrat"]
    with open(folder / "formula.cnf") as cnf, open(folder / "proof.lrat") as proof:
        assert lrat.check(lrat.read_cnf(cnf), proof) == record["stats"]["proof_lemmas"]


@needs_cadical
def test_proof_on_yes_writes_nothing_and_the_answer_is_checked(tmp_path):
    folder = tmp_path / "proof"
    result = ql.decide(6, "independent-domination", 4, "sat", proof=str(folder))
    assert (result.status, result.objective, result.proof) == (ql.Status.YES, 4, None)
    assert not folder.exists()  # made for the run, left empty: removed


def test_proof_without_cadical_is_a_usage_error(queens, tmp_path):
    argv = ["decide", "6", "--problem", "domination", "--value", "2", "-b", "sat"]
    run = queens(*argv, "--proof", str(tmp_path / "p"), "--solver-cmd", "sh")
    assert run.returncode == 2 and "--proof runs CaDiCaL" in run.stderr
    with (
        mock.patch.dict(os.environ, {"PATH": str(tmp_path)}),
        pytest.raises(ql.UsageError, match="cadical program on the PATH"),
    ):
        ql.decide(6, "domination", 2, "sat", proof=str(tmp_path / "p"))


@needs_cadical
def test_a_limit_during_a_proof_leaves_no_file(tmp_path):
    """Domination 14 at 7 on the cells model takes CaDiCaL many minutes (pinned: the line
    model's default decides 12 at 5 in a second): a one-second limit stops it (load only
    makes it slower), and the proof folder it made, left empty, is removed."""
    folder = tmp_path / "proof"
    result = ql.decide(14, "domination", 7, "sat", model="cells", proof=str(folder), time_limit=1)
    assert (result.status, result.proof) == (ql.Status.LIMIT, None)
    assert not folder.exists()


@needs_cadical
def test_check_proof_accepts_decides_proofs_and_rejects_a_tampered_one(queens, tmp_path):
    folder = tmp_path / "proof"
    assert ql.decide(5, "domination", 2, "sat", proof=str(folder)).proof == "checked"
    cnf, proof = str(folder / "formula.cnf"), folder / "proof.lrat"
    for target in (proof, folder / "proof.drat"):
        run = queens("check-proof", cnf, str(target))
        assert run.returncode == 0 and run.stdout.startswith("valid: "), run.stdout
    lines = proof.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if " d " not in line and line.count(" ") > 4)
    words = lines[at].split()
    lines[at] = " ".join(words[:-2] + words[-1:])  # its last hint, the conflict, removed
    tampered = tmp_path / "tampered.lrat"
    tampered.write_text("\n".join(lines) + "\n")
    run = queens("check-proof", cnf, str(tampered))
    assert (run.returncode, run.stdout) == (1, f"invalid: step {words[0]}: its hints end "
                                               "without a conflict\n")  # fmt: skip
    run = queens("check-proof", str(tmp_path / "missing.cnf"), str(proof))
    assert run.returncode == 2 and "cannot read" in run.stderr
