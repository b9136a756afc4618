"""The course says one thing in every place, and a student can read what an exercise asks
from the commands it gives (issue 47)."""

from __future__ import annotations

import re
import tomllib

import nbformat
import pytest

from queenslab.core.problem import Problem
from queenslab.lab.estimate import exact_size
from tests.conftest import ROOT

GROWTH = "about four from n = 8 to 10, five at n = 12 and 5.5 at n = 13"


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_lecture_1_and_teaching_say_the_same_tree_growth():
    teaching = _flat((ROOT / "docs" / "teaching.md").read_text())
    lecture = nbformat.read(ROOT / "docs" / "notebooks" / "lecture-01-backtracking.ipynb", 4)
    words = _flat(" ".join(c.source for c in lecture.cells if c.cell_type == "markdown"))
    assert GROWTH in teaching and GROWTH in words
    assert "fourfold" not in words + teaching and "sixfold" not in words + teaching


def _growth(n: int) -> float:
    return exact_size(Problem(n + 1)) / exact_size(Problem(n))


def test_the_tree_grows_about_fourfold_from_8_to_10():
    assert [round(_growth(n)) for n in (8, 9)] == [4, 4]


@pytest.mark.slow  # the whole trees of n = 11 to 13: 5.7 million nodes
def test_the_tree_grows_fivefold_at_12_and_five_and_a_half_at_13():
    assert round(_growth(11)) == 5 and round(2 * _growth(12)) / 2 == 5.5


def test_exercise_9_gives_the_commands_that_print_the_clauses_it_asks_for(queens):
    """It asked for clause counts that only -v printed; the DIMACS header gives them."""
    section = (ROOT / "docs" / "course" / "lectures-1-6.md").read_text().split("## 9.")[1]
    commands = re.findall(r"^queens (cnf .+?) \| head -1$", section, re.M)
    key = tomllib.loads(re.search(r"```toml\n(# answer to exercise 9\n.+?)```", section, re.S)[1])
    headers = {}
    for command in commands:
        run = queens(*command.split())
        assert run.returncode == 0, run.stderr
        header = next(line for line in run.stdout.splitlines() if line.startswith("p cnf"))
        headers[command.split("--encoding ")[1]] = [int(x) for x in header.split()[2:]]
    assert headers["pairwise"][1] == key["pairwise_clauses_8"]
    assert headers["seqcounter"][0] == key["seqcounter_variables_8"]
