"""Users' own kinds on the command line, installed through the ``queenslab.kinds`` entry
points: a wrong kind is one line naming it (exit 2) on every command, never a traceback
or the solver's fault, and one broken plug-in hides none of the others."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from queenslab.boards import board
from queenslab.problems import kind
from tests.conftest import HANG, ROOT, queens_command
from tests.public_kinds import WRONG


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A folder declaring tests/public_kinds.py's kinds, and one broken plug-in."""
    folder = tmp_path_factory.mktemp("kinds")
    info = folder / "userkinds-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: userkinds\nVersion: 1.0\n")
    points = [f"{kind.name} = tests.public_kinds:{kind.__name__}" for kind in WRONG]
    points.append("broken = no_such_module:Kind")
    (info / "entry_points.txt").write_text("[queenslab.kinds]\n" + "\n".join(points) + "\n")
    return folder


def queens(site, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(site), str(ROOT)))}
    return subprocess.run([*queens_command(), *argv], capture_output=True, text=True,
                          env=env, timeout=HANG, cwd=ROOT)  # fmt: skip


COMMANDS = [
    ("solve", "4", "-b", "cpsat"),
    ("count", "4", "-b", "sat"),
    ("enumerate", "4", "-b", "cpsat"),
    ("optimize", "4", "-b", "milp"),
    ("decide", "4", "--value", "3", "-b", "maxsat"),
]


def _wrong_kind_cases() -> list:
    """Every wrong kind on every command, a process each: in the default suite each kind
    once and each command at least once (the kind without an objective on ``optimize``), the
    other 24 pairs as slow tests."""
    cases = []
    for i, wrong in enumerate(WRONG):
        for j, argv in enumerate(COMMANDS):
            marks = () if j == (i + 2) % len(COMMANDS) else (pytest.mark.slow,)
            cases.append(pytest.param(wrong, argv, marks=marks, id=f"{wrong.name}-{argv[0]}"))
    return cases


@pytest.mark.parametrize(("kind", "argv"), _wrong_kind_cases())
def test_a_wrong_kind_is_one_line_naming_it(site, kind, argv):
    run = queens(site, *argv, "--problem", kind.name)
    optimising = argv[0] in ("optimize", "decide") and kind.sense is None
    words = "states no objective" if optimising else WRONG[kind]
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and words in run.stderr, run.stderr
    assert kind.name in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""


def test_a_model_without_diagonals_counts_nothing_unchecked(site):
    """It would count 24 rook placements at n = 4: every counted answer meets the checker."""
    run = queens(site, "count", "4", "--problem", "rooks-as-queens")
    assert run.returncode == 2 and "24" not in run.stdout
    assert "model admits an answer its checker rejects" in run.stderr


def test_a_broken_plugin_hides_none_of_the_others(site):
    run = queens(site, "problems")
    assert run.returncode == 0, run.stderr
    assert "'broken'" in run.stderr and "no_such_module" in run.stderr
    listed = [line.split(" ")[0] for line in run.stdout.splitlines() if not line.startswith(" ")]
    assert {"placement", "domination", "rooks-as-queens"} <= set(listed)
    assert "broken" not in listed


def test_solve_answers_any_kind_with_an_answer_its_checker_accepts(site):
    """``queens solve --problem``: any answer, no objective needed, checked by the kind."""
    run = queens(site, "solve", "6", "--problem", "domination", "--format", "json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    answer = frozenset(tuple(cell) for cell in record["answer"])
    assert record["problem"] == "domination" and record["status"] == "solved"
    assert kind("domination").check(board(6), answer) is None
    text = queens(site, "solve", "4", "--problem", "public-total-domination")
    assert text.returncode == 2 and "unknown problem" in text.stderr  # not declared here
