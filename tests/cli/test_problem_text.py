"""Every problem kind's answer prints as a board in text (coloured cells, two armies...)."""

from __future__ import annotations

import pytest

from queenslab.problems import BUILTIN

KINDS_WITHOUT_WEIGHTS = [name for name in BUILTIN if name != "placement"]


@pytest.mark.parametrize("name", KINDS_WITHOUT_WEIGHTS)
def test_an_optimum_prints_its_board_in_text(queens, name):
    run = queens("optimize", "5", "--problem", name, "--backend", "cpsat")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    title, *rows = run.stdout.splitlines()
    assert title.startswith(f"{name} n=5: optimal ")
    assert len(rows) == 5 and all(len(row.split()) == 5 for row in rows)
