"""``queens optimize --start FILE``, ``--from-heuristic`` and ``--bound K``: a result file
read back and used (its value the log's first line), graph-search run first, and every
wrong input refused in one line with exit 2 before any search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import kind_oracle

DOMINATION_6 = ("optimize", "6", "--problem", "domination")


def read_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def result_file(tmp_path_factory) -> Path:
    """A domination answer of value 6 (a queen in each row of column 0), as a result file."""
    path = tmp_path_factory.mktemp("start") / "d6.json"
    answer = [[r, 0] for r in range(6)]
    path.write_text(json.dumps({"n": 6, "problem": "domination", "answer": answer}))
    return path


def test_a_start_file_is_the_first_news_and_the_optimum_is_found(queens, tmp_path, result_file):
    log = tmp_path / "run.jsonl"
    run = queens(*DOMINATION_6, "-b", "sat", "--start", str(result_file), "--format", "json",
                 "--log", str(log))  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "optimal" and record["objective"] == 3
    lines = read_log(log)
    assert (lines[0]["event"], lines[0]["incumbent"]) == ("solution", 6)


def test_a_result_written_by_optimize_starts_another_backend(queens, tmp_path):
    first = tmp_path / "first.json"
    run = queens(*DOMINATION_6, "-b", "cpsat", "--format", "json", "-o", str(first))
    assert run.returncode == 0, run.stderr
    run = queens(*DOMINATION_6, "-b", "maxsat", "--start", str(first), "--bound", "3",
                 "--format", "json")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["objective"] == 3


def test_from_heuristic_runs_graph_search_first_and_starts_from_its_answer(queens, tmp_path):
    log = tmp_path / "run.jsonl"
    run = queens("optimize", "5", "--problem", "peaceable", "-b", "cpsat", "--from-heuristic",
                 "--format", "json", "--log", str(log))  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "optimal" and record["objective"] == 4
    assert kind_oracle.fault("peaceable", 5, "standard", (), record["answer"]) is None
    first = read_log(log)[0]  # graph-search's answer, told before the search
    assert first["event"] == "solution" and 1 <= first["incumbent"] <= 4


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--start", "{wrong}"], "the start is not a domination answer"),
        (["--start", "{start}", "--bound", "7"], "beats the lower bound 7"),
        (["--start", "{start}", "--from-heuristic"], "not allowed with argument --start"),
        (["--start", "{missing}"], "cannot read result file"),
        (["--start", "{peaceable}"], "holds a peaceable answer, not a domination one"),
        (["--start", "{other_n}"], "is an answer for n = 5, not 6"),
        (["--bound", "x"], "--bound must be a whole number"),
    ],
)
def test_wrong_starts_and_bounds_are_one_line_and_exit_2(queens, tmp_path, result_file, extra,
                                                         message):  # fmt: skip
    files = {
        "wrong": {"problem": "domination", "n": 6, "answer": [[0, 0]]},
        "peaceable": {"problem": "peaceable", "n": 6, "answer": {"white": [], "black": []}},
        "other_n": {"problem": "domination", "n": 5, "answer": [[0, 0]]},
    }
    paths = {"start": str(result_file), "missing": str(tmp_path / "none.json")}
    for name, record in files.items():
        paths[name] = str(tmp_path / f"{name}.json")
        Path(paths[name]).write_text(json.dumps(record))
    run = queens(*DOMINATION_6, "-b", "sat", *(arg.format(**paths) for arg in extra))
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and message in run.stderr


def test_from_heuristic_is_refused_for_weighted_placement(queens, tmp_path):
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps([[1] * 4] * 4))
    run = queens("optimize", "4", "--weights", str(weights), "--from-heuristic")
    assert run.returncode == 2 and "optimises a --problem" in run.stderr
