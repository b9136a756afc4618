"""``queens decide --split D``: the JSON record's cube statistics, no progress when piped,
and one-line usage errors (exit 2)."""

from __future__ import annotations

import json


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
        (["--scheduler", "tcp://127.0.0.1:9"], "serve --split"),
    ]:
        run = queens(*base, *extra)
        assert run.returncode == 2 and message in run.stderr, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1
