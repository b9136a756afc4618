"""The course's exercises with checks a student runs on an answer (``queens
check-exercise K FILE``, or ``check(K, FILE)`` in a notebook cell): right or wrong per
part, with marks, and never the answer itself.

The exercises' text is docs/course/*.md, one source per set; the site makes a
student edition and an instructor key of each (tools/exercise_pages.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from queenslab.core.errors import UsageError
from queenslab.course import lectures_1_6, lectures_7_10
from queenslab.course.grading import Exercise, Grade, grade, read_answer

#: Exercise number -> its parts and marks.
EXERCISES: dict[int, Exercise] = {
    exercise.number: exercise for exercise in lectures_1_6.EXERCISES + lectures_7_10.EXERCISES
}

__all__ = ["EXERCISES", "Exercise", "Grade", "check", "exercise"]


def exercise(number: int) -> Exercise:
    """Exercise ``number``, or a UsageError naming the numbers there are."""
    if number not in EXERCISES:
        raise UsageError(f"no exercise {number}: they are numbered 1 to {max(EXERCISES)}")
    return EXERCISES[number]


def check(number: int, answer: str | Path | Mapping[str, Any]) -> Grade:
    """Mark ``answer`` (a file, or in a notebook a dict of the values) to exercise ``number``."""
    asked = exercise(number)
    if isinstance(answer, Mapping):
        return grade(asked, answer)
    return grade(asked, read_answer(asked, answer))
