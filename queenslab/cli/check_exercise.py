"""``queens check-exercise K FILE``: is a student's answer to exercise K right? Marks per
part, right or wrong, never the answer (queenslab.course)."""

from __future__ import annotations

import argparse

from queenslab.core.errors import ExitCode

HELP = "mark an answer to one of the course's exercises (right or wrong per part, with marks)"
EXAMPLES = """examples:
  queens check-exercise 1 answer1.toml
  queens check-exercise 7 middle_first.py
  queens check-exercise 13 bishops.py"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", metavar="K", type=int, help="the exercise's number")
    parser.add_argument(
        "file", metavar="FILE", help="the answer: a TOML file of values, or a .py file where "
        "the exercise asks for code"
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from queenslab.course import check

    grade = check(args.number, args.file)
    print(grade.report())
    return ExitCode.OK if grade.right else ExitCode.NO_SOLUTION
