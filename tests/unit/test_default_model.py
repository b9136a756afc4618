"""One rule for the model a question is built with when none is asked for
(``problems.defaults.chosen``): optimize, decide, count, export and problem_model build
the same one, and a run's stats say which and why."""

from __future__ import annotations

import queenslab as ql
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.problems import defaults, kind


def test_every_entry_point_builds_the_model_the_rule_chooses():
    problem = Problem(8, kind="domination")
    question = Question(kind("domination"))
    model, symmetry, why = defaults.chosen(problem, "sat", question)
    assert why.startswith("measured fastest on sat for n = ")
    optimum = ql.optimize(8, kind="domination", backend="sat")
    decided = ql.decide(8, kind="domination", value=optimum.objective, backend="sat")
    for result in (optimum, decided):
        assert (result.stats["model"], result.stats["symmetry"]) == (model, symmetry)
        assert result.stats["chosen"] == why
    counted = ql.count(7, kind="domination", backend="sat")
    counting = defaults.chosen(Problem(7, kind="domination"), "sat", question, counts=True)
    assert counted.stats["model"] == counting[0] and counted.stats["symmetry"] == "none"
    assert counted.total == ql.count(7, kind="domination", backend="cpsat", model="cells").total
    best = defaults.best_backend(problem)
    exported = defaults.chosen(problem, best, question)
    assert ql.problem_model(8, kind="domination").name == f"domination-{exported[0]}"


def test_what_is_asked_is_what_is_built_and_said():
    result = ql.optimize(6, kind="domination", backend="sat", model="cells")
    assert (result.stats["model"], result.stats["symmetry"], result.stats["chosen"]) == (
        "cells", "none", "asked",
    )  # fmt: skip


def test_a_board_the_table_never_measured_takes_the_kinds_first_model():
    result = ql.optimize(5, kind="domination", backend="cpsat", variant="toroidal")
    assert result.stats["model"] == "cells" and result.stats["chosen"] == defaults.NOT_MEASURED
