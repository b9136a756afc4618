"""A student edition and an instructor key from one exercise source (docs/course/*.md).

Why one source: the exercise, the hand-in template and the answer stay together, so the
two pages cannot drift apart. A source is Markdown with one ``## K. Title`` section per
exercise, each holding ``**Exercise.**``, ``**Hand in.**`` and ``**Answer.**`` in that
order. The student edition keeps each section up to its answer; the key keeps it all.
Both get each exercise's marks from its check (``queenslab.course``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from queenslab.course import Exercise

_SECTION = re.compile(r"^(?=## )", re.M)
_NUMBER = re.compile(r"^## (\d+)\. ")

_STUDENT = (
    "The student edition: the exercises without their answers. Check an answer yourself "
    "with `queens check-exercise K FILE` (in a notebook: "
    "`queenslab.course.check(K, FILE)`): it marks each part right or wrong, never shows "
    "the answer, and exits 0 only when every part is right."
)
_KEY = (
    "The instructor key: each exercise with its worked answer and the answer file the "
    "check accepts. The tests run every answer's Python session and pass every answer "
    "file through its check, so the figures are what the package computes today."
)


def editions(source: str, exercises: Mapping[int, Exercise]) -> tuple[str, str]:
    """The student edition and the key of one source, in that order."""
    head, *sections = _SECTION.split(source)
    title, _, intro = head.partition("\n")
    student, key = (
        [f"{title}: student edition\n\n{_STUDENT}\n{intro}"],
        [f"{title}: instructor key\n\n{_KEY}\n{intro}"],
    )
    for section in sections:
        number = _NUMBER.match(section)
        if number is None or int(number[1]) not in exercises:
            raise ValueError(f"an exercise section without a check: {section.splitlines()[0]}")
        if "**Answer.**" not in section or "**Hand in.**" not in section:
            raise ValueError(f"exercise {number[1]} needs a hand-in and an answer")
        heading, _, text = section.partition("\n")
        marked = f"{heading}\n\n{marks(exercises[int(number[1])])}\n{text}"
        student.append(marked.split("**Answer.**", 1)[0].rstrip() + "\n\n")
        key.append(marked)
    return "".join(student), "".join(key)


def marks(exercise: Exercise) -> str:
    """The line under an exercise's heading: its marks and how they are split."""
    parts = "; ".join(f"{part.asks} ({part.marks})" for part in exercise.parts)
    return f"*{exercise.marks} marks: {parts}.*"
