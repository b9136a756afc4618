"""The course kit: the worked answers are what the package computes today, each exercise's
check accepts the key's answer and rejects a wrong one, and the student edition holds no
answer.

docs/course/*.md: each exercise's answer is a Python session, run here exercise by
exercise, and an answer file, marked here by ``queens check-exercise``'s check.
docs/teaching.md: its first-solution node table is compared with a fresh run of the sweep
that made it.
"""

from __future__ import annotations

import doctest
import re
import sys

import pytest

from queenslab.course import EXERCISES, check
from queenslab.course.grading import Exercise, Part, TruthError, equals, grade
from queenslab.exact import csp
from queenslab.exact.csp import Strategy
from queenslab.lab.sweep import configurations, run_sweep
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
from exercise_pages import editions

SOURCES = sorted((ROOT / "docs" / "course").glob("*.md"))
SECTIONS = {
    int(text.split(".", 1)[0]): text
    for source in SOURCES
    for text in re.split(r"^## ", source.read_text(), flags=re.M)[1:]
}


def _key_file(number: int) -> tuple[str, str]:
    """The key's answer file of an exercise: its suffix and text."""
    answer = SECTIONS[number].split("**Answer.**", 1)[1]
    found = re.search(rf"```(toml|python)\n(# answer to exercise {number}\n.+?)```", answer, re.S)
    assert found, f"exercise {number} has no answer file in its key"
    return {"toml": ".toml", "python": ".py"}[found[1]], found[2]


def test_every_exercise_has_a_check_and_every_check_an_exercise():
    assert sorted(SECTIONS) == sorted(EXERCISES) == list(range(1, len(EXERCISES) + 1))
    for number, text in SECTIONS.items():
        assert (
            text.index("**Exercise.**") < text.index("**Hand in.**") < text.index("**Answer.**")
        ), number


@pytest.mark.parametrize("number", sorted(SECTIONS))
def test_each_worked_answer_is_what_the_package_computes(number, monkeypatch, tmp_path):
    monkeypatch.setattr(csp, "VALUE_ORDERS", dict(csp.VALUE_ORDERS))  # exercise 7 registers
    monkeypatch.chdir(tmp_path)  # exercise 10 writes its proof here
    answer = SECTIONS[number].split("**Answer.**", 1)[1]
    session = "\n".join(re.findall(r"```python\n(>>> .+?)```", answer, re.S))
    test = doctest.DocTestParser().get_doctest(session, {}, f"exercise {number}", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.tries > 0 and runner.failures == 0


@pytest.mark.parametrize("number", sorted(SECTIONS))
def test_each_check_accepts_the_key(number, tmp_path, monkeypatch):
    monkeypatch.setattr(csp, "VALUE_ORDERS", dict(csp.VALUE_ORDERS))
    suffix, text = _key_file(number)
    path = tmp_path / f"answer{number}{suffix}"
    path.write_text(text)
    grade = check(number, path)
    assert grade.right, grade.report()
    total = EXERCISES[number].marks
    assert f"{total} of {total} marks" in grade.report() and ": wrong" not in grade.report()


def test_the_command_marks_an_answer_file(tmp_path, queens):
    path = tmp_path / "answer1.toml"
    path.write_text(_key_file(1)[1])
    run = queens("check-exercise", "1", str(path))
    assert run.returncode == 0 and run.stdout.startswith("exercise 1 (") and "4 of 4" in run.stdout
    path.write_text(_key_file(1)[1].replace("rejects = 18", "rejects = 17"))
    run = queens("check-exercise", "1", str(path))
    assert run.returncode == 1 and run.stderr == "" and "3 of 4 marks" in run.stdout
    assert "  rejects, failed tests before the first solution (1 mark): wrong" in run.stdout


def _wrong(value):
    """A value of the same type that is not the right one."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "?"
    if isinstance(value, list):
        return value[:-1] if value else [0]
    return {key: _wrong(item) for key, item in value.items()}


@pytest.mark.parametrize("number", [n for n in sorted(SECTIONS) if EXERCISES[n].file == "toml"])
def test_each_check_rejects_a_wrong_value_without_showing_the_right_one(number):
    import tomllib

    key = tomllib.loads(_key_file(number)[1])
    for part in key:
        grade = check(number, {**key, part: _wrong(key[part])})
        assert not grade.right
        wrong = [mark for mark in grade.marks if mark.wrong]
        assert [mark.part.key for mark in wrong] == [part]
        assert grade.got == EXERCISES[number].marks - wrong[0].part.marks
        assert wrong[0].wrong in ("not this value", "not this table"), "the answer given away?"


WRONG_CODE = {
    7: """
def middle_first(search, domains, row, columns):
    return sorted(columns, key=lambda c: abs(2 * c - (search.n - 1)), reverse=True)
STATIC_MEDIAN = 89
MIDDLE_FIRST_MEDIAN = 23
""",
    8: """
from queenslab.modelling import ProblemKind, any_of
class TotalDomination(ProblemKind):  # plain domination: a queen covers its own cell
    name = "wrong-total-domination"
    question = "q"
    sense = "min"
    takes_blocked = False
    def state(self, m, board, model):
        queen = m.cells("q", board)
        for cell in queen:
            m.add(any_of(queen[q] for q in queen if q == cell or board.attacks(q, cell)))
        m.minimise(sum(queen.values()))
    def check(self, board, answer):
        return None
""",
    13: """
from queenslab.modelling import ProblemKind, at_most_one
class Bishops(ProblemKind):  # rooks, not bishops
    name = "not-bishops"
    question = "q"
    sense = "max"
    takes_blocked = False
    def state(self, m, board, model):
        b = m.cells("b", board)
        for i in range(board.n):
            m.add(at_most_one(b[i, c] for c in range(board.n)))
            m.add(at_most_one(b[r, i] for r in range(board.n)))
        m.maximise(sum(b.values()))
    def check(self, board, answer):
        return None
wrong_model_error = "BackendBug"
""",
}


@pytest.mark.parametrize("number", sorted(WRONG_CODE))
def test_each_code_check_rejects_wrong_code(number, tmp_path):
    assert EXERCISES[number].file == "py"
    path = tmp_path / f"answer{number}.py"
    path.write_text(WRONG_CODE[number])
    grade = check(number, path)
    assert not grade.right and grade.got < EXERCISES[number].marks
    assert all(mark.wrong for mark in grade.marks if mark.part.marks > 1), grade.report()


def test_a_bad_answer_file_is_one_line_and_exit_2(tmp_path, queens):
    path = tmp_path / "answer.toml"
    path.write_text("rejects = 18\nplaces = 8\n")
    run = queens("check-exercise", "1", str(path))
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "exercise 1 asks for refused, rejects, placed, not places" in run.stderr
    assert queens("check-exercise", "99", str(path)).returncode == 2
    path.write_text("rejects = [")
    assert queens("check-exercise", "1", str(path)).returncode == 2
    assert queens("check-exercise", "7", str(path)).returncode == 2  # 7 asks for a .py


def test_a_truth_the_package_cannot_compute_is_an_error_not_a_wrong_answer():
    def broken():
        raise ValueError("a bug in the package")

    def run_theirs(value):
        return value()

    exercise = Exercise(99, "t", (Part("x", 1, equals(broken), "x"), Part("f", 1, run_theirs, "f")))
    with pytest.raises(TruthError, match="a bug in the package"):
        grade(exercise, {"x": 1, "f": print})
    theirs = grade(Exercise(99, "t", exercise.parts[1:]), {"f": lambda: 1 / 0})
    assert theirs.marks[0].wrong == "ZeroDivisionError: division by zero"  # their code


def test_a_missing_part_is_wrong_not_an_error():
    grade = check(1, {"rejects": 18})
    assert grade.got == 1 and [m.wrong for m in grade.marks if m.wrong] == ["no answer given"] * 2


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_the_student_edition_has_no_answer_and_the_key_has_them_all(source):
    student, key = editions(source.read_text(), EXERCISES)
    numbers = [int(n) for n in re.findall(r"^## (\d+)\.", source.read_text(), re.M)]
    assert "**Answer.**" not in student and "# answer to exercise" not in student
    assert key.count("**Answer.**") == len(numbers)
    for number in numbers:
        marks = f"*{EXERCISES[number].marks} marks: "
        assert marks in student and marks in key


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
