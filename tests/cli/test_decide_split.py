"""``queens decide --split D``: the JSON record's cube statistics, no progress when piped,
one-line usage errors (exit 2), and ``--proof`` with a checked proof per cube."""

from __future__ import annotations

import json
import shutil

import pytest

from queenslab.proofs import lrat

needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None, reason="needs cadical")


def test_split_no_reports_its_cubes_and_is_quiet_when_piped(queens, tmp_path):
    path = tmp_path / "cubes.sqlite"
    argv = ["decide", "6", "--problem", "domination", "--value", "2", "-b", "sat",
            "--split", "2", "--checkpoint", str(path), "--format", "json"]  # fmt: skip
    run = queens(*argv)
    record = json.loads(run.stdout)
    assert (run.returncode, record["status"], run.stderr) == (1, "no", "")
    stats = record["stats"]
    assert (stats["cubes_total"], stats["cubes_refuted"], stats["cubes_solved"]) == (4, 4, 4)
    assert stats["cubes_seconds"] > 0
    again = json.loads(queens(*argv).stdout)
    assert (again["status"], again["stats"]["cubes_solved"]) == ("no", 0)


def test_split_yes_draws_the_answer(queens):
    run = queens("decide", "6", "--problem", "domination", "--value", "3", "-b", "cpsat",
                 "--split", "3", "--workers", "2")  # fmt: skip
    head, *rows = run.stdout.splitlines()
    assert (run.returncode, head) == (0, "domination n=6: value <= 3: yes (3)"), run.stderr
    assert sum(row.count("Q") for row in rows) == 3


def test_split_usage_errors_are_one_line(queens, tmp_path):
    base = ["decide", "5", "--problem", "domination", "--value", "3"]
    for extra, message in [
        (["--split", "13"], "--split"),
        (["-b", "maxsat", "--split", "2"], "sat and cpsat"),
        (["--scheduler", "tcp://127.0.0.1:9"], "for a split proof: add --split D"),
    ]:
        run = queens(*base, *extra)
        assert run.returncode == 2 and message in run.stderr, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1


@needs_cadical
def test_split_proof_keeps_a_checked_proof_per_cube_covering_every_assignment(queens, tmp_path):
    folder = tmp_path / "proof"
    run = queens("decide", "6", "--problem", "domination", "--value", "2", "-b", "sat",
                 "--split", "2", "--proof", str(folder))  # fmt: skip
    assert run.returncode == 1 and f"proof checked: {folder}" in run.stdout, run.stderr
    units = []
    for number in range(4):
        cube = folder / f"cube-{number}"
        assert sorted(p.name for p in cube.iterdir()) == ["formula.cnf", "proof.drat", "proof.lrat"]
        with open(cube / "formula.cnf") as text:
            formula = lrat.read_cnf(text)
        with open(cube / "proof.lrat") as proof:
            lrat.check(formula, proof)  # the project's checker again, cube by cube
        lines = (cube / "formula.cnf").read_text().splitlines()
        units.append({int(line.split()[0]) for line in lines if len(line.split()) == 2
                      and line[0] not in "cp"})  # fmt: skip
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == ["cubes.txt", "formula.cnf"]
    common = set.intersection(*units)
    fixed = [sorted(found - common, key=abs) for found in units]
    assert (folder / "cubes.txt").read_text().splitlines() == [
        " ".join(["a", *map(str, cube), "0"]) for cube in fixed
    ]  # cube K is the one cube-K refutes
    assert len({tuple(abs(lit) for lit in cube) for cube in fixed}) == 1  # the same 2 cells
    assert {tuple(lit > 0 for lit in cube) for cube in fixed} == {
        (True, True), (True, False), (False, True), (False, False),
    }  # fmt: skip


@needs_cadical
def test_check_proof_checks_a_split_proof_whole(queens, tmp_path):
    """Without theorem bounds (``--axioms none``) 6 at 2 is refuted in 4 cubes; check-proof
    accepts the cube file, and refuses it when a cube's proof is tampered with, when a
    cube is left out, or when a cube's formula is another."""
    folder = tmp_path / "proof"
    run = queens("decide", "6", "--problem", "domination", "--value", "2", "-b", "sat",
                 "--axioms", "none", "--split", "2", "--proof", str(folder))  # fmt: skip
    assert run.returncode == 1 and "assumes: nothing beyond the board's rules" in run.stdout
    cnf, manifest = str(folder / "formula.cnf"), folder / "cubes.txt"
    run = queens("check-proof", cnf, str(manifest))
    assert (run.returncode, run.stdout.split(" (")[0]) == (
        0, "valid: 4 cubes cover every case, each refuted"), run.stdout  # fmt: skip

    cube = folder / "cube-2"
    lines = (cube / "proof.lrat").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if " d " not in line and line.count(" ") > 4)
    words = lines[at].split()
    lines[at] = " ".join(words[:-2] + words[-1:])  # its last hint, the conflict, removed
    (cube / "proof.lrat").write_text("\n".join(lines) + "\n")
    run = queens("check-proof", cnf, str(manifest))
    assert (run.returncode, run.stdout) == (1, f"invalid: cube 2: step {words[0]}: its hints "
                                               "end without a conflict\n")  # fmt: skip
    (cube / "proof.lrat").unlink()  # the cube's DRAT is checked instead: valid
    assert queens("check-proof", cnf, str(manifest)).returncode == 0

    kept = manifest.read_text().splitlines()
    manifest.write_text("\n".join(kept[:3]) + "\n")
    run = queens("check-proof", cnf, str(manifest))
    last = kept[3].split()[1:-1]
    assert (run.returncode, run.stdout) == (1, f"invalid: the cubes leave out the case "
                                               f"{' '.join(last)}\n")  # fmt: skip
    manifest.write_text("\n".join([kept[1], kept[0], *kept[2:]]) + "\n")
    run = queens("check-proof", cnf, str(manifest))
    assert run.returncode == 1 and run.stdout.startswith("invalid: cube 0: the cube's formula")


@needs_cadical
def test_split_proof_refuses_a_checkpoint(queens, tmp_path):
    run = queens("decide", "5", "--problem", "domination", "--value", "2", "-b", "sat",
                 "--split", "2", "--proof", str(tmp_path / "p"),
                 "--checkpoint", str(tmp_path / "c.sqlite"))  # fmt: skip
    assert run.returncode == 2 and "--checkpoint" in run.stderr
    assert not list(tmp_path.iterdir())
