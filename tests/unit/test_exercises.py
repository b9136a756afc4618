"""The course kit's worked answers are what the package computes today.

docs/exercises.md: each exercise's answer is a Python session, run here exercise by
exercise (the printed values are the answers). docs/teaching.md: its first-solution node
table is compared with a fresh run of the sweep that made it.
"""

from __future__ import annotations

import doctest
import re

import pytest

from queenslab.exact import csp
from queenslab.exact.csp import Strategy
from queenslab.lab.sweep import configurations, run_sweep
from tests.conftest import ROOT

EXERCISES = re.split(r"^## ", (ROOT / "docs" / "exercises.md").read_text(), flags=re.M)[1:]


def test_there_are_eight_to_ten_exercises_each_with_an_answer():
    assert 8 <= len(EXERCISES) <= 10
    for text in EXERCISES:
        assert "**Exercise.**" in text and "**Answer.**" in text, text.splitlines()[0]


@pytest.mark.parametrize("text", EXERCISES, ids=lambda t: t.split(".", 1)[0])
def test_each_worked_answer_is_what_the_package_computes(text, monkeypatch):
    monkeypatch.setattr(csp, "VALUE_ORDERS", dict(csp.VALUE_ORDERS))  # exercise 7 registers
    answer = text.split("**Answer.**", 1)[1]
    session = "\n".join(re.findall(r"```python\n(.+?)```", answer, re.S))
    test = doctest.DocTestParser().get_doctest(session, {}, text.splitlines()[0], None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.tries > 0 and runner.failures == 0


def _teaching_table() -> dict[str, list[str]]:
    """The node table of docs/teaching.md: method -> its cells (the n, then over n)."""
    text = (ROOT / "docs" / "teaching.md").read_text()
    section = text.split("## First-solution node counts", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([\w+-]+)` \| (.+) \|$", section, re.M)
    return {method: [cell.strip() for cell in cells.split("|")] for method, cells in rows}


SIZES = range(8, 17)


@pytest.mark.parametrize(
    "sizes",
    [SIZES[:3], pytest.param(SIZES, marks=pytest.mark.slow)],
    ids=["n=8-10", "n=8-16"],
)
def test_the_teaching_node_table_is_what_the_sweep_makes(sizes):
    """The command the page shows, run again: 9 runs per cell (seeds 0 to 8)."""
    table = _teaching_table()
    grid = configurations(["csp"], ["solve"], {"values": ["static", "lcv", "random"]})
    assert len(table) == len(grid) == 18
    report = run_sweep(grid, list(sizes), ["solve"], repeat=9)
    assert report.ok, report.problems
    columns, lines = report.table().numbers
    for line, config in zip(lines, grid, strict=True):
        method = Strategy(**dict(config.options)).label()
        measured = [line[columns.index(f"n={n} effort")] for n in sizes]
        shown = [int(cell.replace(",", "")) for cell in table[method][: len(sizes)]]
        assert measured == shown, method
        if len(sizes) == len(SIZES):
            assert line[-1] == int(table[method][-1].replace(",", "")), method
