"""``queens decide``'s no names what its formula assumed beyond the board's rules, in the
JSON and on one terminal line; ``--axioms none`` proves a no about the board alone."""

from __future__ import annotations

import json
import shutil

import pytest

from queenslab.proofs import lrat

needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None, reason="needs cadical")


@pytest.mark.slow
@needs_cadical
def test_the_issues_proof_names_the_bound_it_rests_on(queens, tmp_path):
    """decide 10 at 4: the formula states "at least 5 queens" (Finozhenok and Weakley), so
    the checked proof refutes 4 against that bound; the JSON and the CNF's comments say so."""
    folder = tmp_path / "proof"
    argv = ["decide", "10", "--problem", "domination", "--value", "4", "-b", "sat"]
    run = queens(*argv, "--proof", str(folder), "--format", "json")
    record = json.loads(run.stdout)
    assert (run.returncode, record["status"], record["proof"]) == (1, "no", "checked"), run.stderr
    (bound,) = [fact for fact in record["assumptions"] if fact["kind"] == "theorem"]
    assert bound["name"] == "lower-bound" and "at least 5 queens" in bound["statement"]
    assert bound["source"] == "Finozhenok and Weakley 2007"
    head = (folder / "formula.cnf").read_text().splitlines()[0]
    assert head.startswith("c assumes theorem lower-bound: every dominating set has at least 5")


@needs_cadical
def test_without_axioms_a_small_boards_proof_is_about_the_board_and_checks(queens, tmp_path):
    folder = tmp_path / "proof"
    argv = ["decide", "7", "--problem", "domination", "--value", "3", "-b", "sat"]
    run = queens(*argv, "--axioms", "none", "--proof", str(folder), "--format", "json")
    record = json.loads(run.stdout)
    assert (run.returncode, record["status"], record["proof"]) == (1, "no", "checked"), run.stderr
    assert record["assumptions"] == []
    cnf = folder / "formula.cnf"
    assert cnf.read_text().startswith("c assumes nothing beyond the board's rules\n")
    with open(cnf) as text, open(folder / "proof.lrat") as proof:
        assert lrat.check(lrat.read_cnf(text), proof) == record["stats"]["proof_lemmas"]
    check = queens("check-proof", str(cnf), str(folder / "proof.drat"))
    assert check.returncode == 0 and check.stdout.startswith("valid"), check.stderr


def test_the_terminal_says_what_a_no_assumes(queens):
    argv = ["decide", "6", "--problem", "domination", "--value", "2", "-b", "cpsat"]
    stated = queens(*argv, "--model", "cells", "--symmetry", "lex-leader")
    assert stated.returncode == 1, stated.stderr
    line = stated.stdout.splitlines()[-1]
    assert line == (
        "assumes: every dominating set has at least 3 queens (Finozhenok and Weakley 2007); "
        "one answer of each class under the board's symmetries "
        "(Crawford, Ginsberg, Luks and Roy 1996)"
    )
    bare = queens(*argv, "--axioms", "none")
    assert bare.returncode == 1 and "assumes: nothing beyond the board's rules" in bare.stdout


def test_a_backends_own_search_says_it_has_no_formula(queens):
    run = queens("decide", "4", "--problem", "peaceable", "--value", "3", "-b", "armies")
    assert run.returncode == 1, run.stderr
    assert "assumes: no formula (the armies backend's own search)" in run.stdout


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--axioms", "some"], "argument --axioms: invalid choice: 'some'"),
        (["--axioms", "none", "-b", "armies"], "--axioms none are for the model backends"),
    ],
)
def test_bad_axioms_are_one_line_and_exit_2(queens, extra, message):
    run = queens("decide", "5", "--problem", "peaceable", "--value", "5", *extra)
    assert run.returncode == 2 and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
