"""The checks of exercises 10 to 13 (lectures 7 to 10, docs/course/lectures-7-10.md):
proofs, symmetry, splitting a search, and a board problem of the student's own.

Each truth is computed here, when an answer is marked; nothing is copied from the key.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from itertools import product
from pathlib import Path
from typing import Any

from queenslab import api as ql
from queenslab.boards import board as make_board
from queenslab.course.grading import Exercise, Part, equals, figure, truth
from queenslab.modelling import ProblemKind, at_most_one
from queenslab.proofs import lrat

#: What a checked "no" of ``queens decide --proof`` may rest on, as exercise 10 offers it;
#: ``theorem`` is read from the decision's own assumptions (its ``assumes:`` line).
#: The solver is not among them: that is the point of a checked proof.
TRUSTED = {
    "encoding": True,  # the CNF says what the question says (the model and its translation)
    "checker": True,  # the proof checker (queenslab.proofs.lrat) is right
    "solver": False,  # the SAT solver is bug-free
    "drat": False,  # the DRAT file is the solver's own (any valid proof would do)
}


def _trusted_truth() -> dict[str, bool]:
    assumed = ql.decide(6, kind="domination", value=2, backend="sat").assumptions
    return {**TRUSTED, "theorem": any(a.kind == "theorem" for a in assumed or ())}


def _proved_without_axioms() -> bool:
    with tempfile.TemporaryDirectory() as folder:
        bare = ql.decide(
            6, kind="domination", value=2, backend="sat", proof=f"{folder}/p", axioms="none"
        )
    return bare.status.value == "no" and bare.proof == "checked" and not bare.assumptions


def _decision(n: int, value: int) -> str:
    return str(ql.decide(n, kind="domination", value=value, backend="sat").status.value)


def _domination(n: int) -> int:
    return figure(ql.optimize(n, kind="domination").objective)


def _truncated_proof_checks() -> bool:
    """Whether the LRAT proof of 'no dominating set of 2 queens at n = 6' still checks
    without its last line."""
    with tempfile.TemporaryDirectory() as folder:
        ql.decide(6, kind="domination", value=2, backend="sat", proof=f"{folder}/p")
        cnf = (Path(folder) / "p" / "formula.cnf").read_text().splitlines()
        steps = (Path(folder) / "p" / "proof.lrat").read_text().splitlines()[:-1]
    try:
        lrat.check(lrat.read_cnf(cnf), steps)
    except lrat.ProofError:
        return False
    return True


def _trusted(value: Any) -> str | None:
    expected = truth(_trusted_truth)
    if not isinstance(value, dict) or set(value) != set(expected):
        return f"expected a table with the keys {', '.join(expected)}, each true or false"
    return None if value == expected else "not this table"


def _orbits(n: int) -> Counter[int]:
    """Classes of n-queens solutions by orbit size under the square's 8 symmetries."""
    solutions = Counter(solution.orbit_size() for solution in ql.enumerate_solutions(n))
    return Counter({size: found // size for size, found in solutions.items()})


def _domination_answers(n: int, symmetry: str) -> int:
    return figure(ql.count(n, kind="domination", symmetry=symmetry).total)


def _count(n: int, **options: Any) -> Any:
    return ql.count(n, **options)


def _cubes(depth: int) -> int:
    stats = ql.decide(8, kind="domination", value=4, backend="sat", split=depth, workers=1).stats
    return int(stats["cubes_total"])


def _bishops_kind(forget_antidiagonals: bool = False) -> Any:
    """Most bishops, none attacking another, as exercise 13 states it: the reference that
    marks a student's model (and, wrong on purpose, the error a wrong model gets)."""

    class Bishops(ProblemKind[frozenset[tuple[int, int]]]):
        name = "course-bishops"
        question = "most bishops, none attacking another"
        sense = "max"
        takes_blocked = False

        def state(self, m: Any, board: Any, model: str) -> None:
            bishop = m.cells("b", board)
            lines: dict[tuple[str, int], list[Any]] = {}
            for (r, c), var in bishop.items():
                lines.setdefault(("down", r - c), []).append(var)
                if not forget_antidiagonals:
                    lines.setdefault(("up", r + c), []).append(var)
            for line in lines.values():
                m.add(at_most_one(line))
            m.maximise(sum(bishop.values()))

        def check(self, board: Any, answer: Any) -> str | None:
            return _bishops_attack(answer)

    return Bishops()


def _bishops_attack(answer: Any) -> str | None:
    for (a, b), (c, d) in product(answer, repeat=2):
        if (a, b) < (c, d) and abs(a - c) == abs(b - d):
            return f"bishops {(a, b)} and {(c, d)} attack each other"
    return None


def _most_bishops(kind: Any) -> list[int]:
    return [figure(ql.optimize(n, kind=kind, backend="cpsat").objective) for n in range(2, 7)]


def _bishops_model(kind: type) -> str | None:
    if _most_bishops(kind()) != truth(_most_bishops, _bishops_kind()):
        return "its optimum is not the most bishops for some n from 2 to 6"
    return None


def _bishops_checker(kind_class: type) -> str | None:
    kind = kind_class()
    for n in range(3, 7):
        if kind.check(make_board(n), frozenset({(0, 0), (n - 1, n - 1)})) is None:
            return f"it accepts two bishops on one diagonal of a board of {n}"
        if kind.check(make_board(n), frozenset({(0, c) for c in range(n)})) is not None:
            return f"it rejects a row of bishops on a board of {n}"
    return None


def _wrong_model_error() -> str:
    try:
        ql.optimize(4, kind=_bishops_kind(forget_antidiagonals=True), backend="cpsat")
    except Exception as error:
        return type(error).__name__
    return "no error"


EXERCISES = (
    Exercise(10, "a checked no", (
        Part("answer_6_2", 1, equals(lambda: _decision(6, 2)),
             "decide's answer: 2 queens dominating the 6 x 6 board"),
        Part("domination_6", 1, equals(lambda: _domination(6)),
             "the fewest queens dominating the 6 x 6 board"),
        Part("truncated_checks", 1, equals(_truncated_proof_checks),
             "does the LRAT proof check without its last line"),
        Part("checks_without_axioms", 1, equals(_proved_without_axioms),
             "is the no proved and checked with --axioms none"),
        Part("trusted", 2, _trusted, "what the checked no rests on"),
    )),
    Exercise(11, "orbits and classes", (
        Part("classes_10", 1, equals(lambda: int(_count(10, unique=True).unique)),
             "classes of 10-queens solutions"),
        Part("half_turn_classes_10", 2, equals(lambda: _orbits(10)[4]),
             "classes of orbit size 4 at n = 10"),
        Part("domination_answers_5", 1, equals(lambda: _domination_answers(5, "none")),
             "minimum dominating sets of the 5 x 5 board"),
        Part("domination_classes_5", 1, equals(lambda: _domination_answers(5, "lex-leader")),
             "their classes (lex-leader)"),
    )),
    Exercise(12, "splitting a search", (
        Part("subproblems_10_blocked", 2, equals(lambda: int(
            _count(10, backend="bitmask", blocked=[(0, 0)]).stats["subproblems"])),
             "subproblems of the count of n = 10 with 0:0 blocked"),
        Part("count_10_blocked", 1, equals(lambda: int(
            _count(10, backend="bitmask", blocked=[(0, 0)]).total)),
             "its solutions"),
        Part("cubes_split_3", 1, equals(lambda: _cubes(3)), "cubes of --split 3"),
    )),
    Exercise(13, "a board problem of your own", (
        Part("Bishops", 3, _bishops_model, "the class Bishops: its optimum at n = 2 to 6"),
        Part("Bishops", 1, _bishops_checker, "the class Bishops: its checker"),
        Part("wrong_model_error", 1, equals(_wrong_model_error),
             "the error a model without the anti-diagonals gets"),
    ), file="py"),
)  # fmt: skip
