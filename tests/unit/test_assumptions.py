"""The facts a model states beyond the board's rules are recorded where they are added
(``ModelBuilder.assume``), and ``axioms="none"`` leaves out every one not asked for."""

from __future__ import annotations

import numpy as np
import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.problems import defaults, kind


def _names(model):
    return [fact.name for fact in model.assumptions]


@pytest.mark.parametrize("model", ["cells", "lines", "hilbert"])
def test_domination_states_its_theorem_bound_only_with_axioms(model):
    stated = kind("domination").build(board(10), model)
    assert stated.stated_bound() == 5
    bound = stated.assumptions[0]
    assert (bound.name, bound.kind) == ("lower-bound", "theorem")
    assert "at least 5" in bound.statement and "Finozhenok and Weakley 2007" in bound.source
    bare = kind("domination").build(board(10), model, axioms="none")
    assert bare.stated_bound() is None and bare.assumptions == []
    assert bare.beneath_objective == [] and len(bare.linear) == len(stated.linear) - 1


def test_the_line_models_sums_are_an_implied_fact():
    stated = kind("domination").build(board(6), "lines")
    assert _names(stated) == ["lower-bound", "lines-held"] and stated.beneath_objective
    assert stated.assumptions[1].kind == "implied"


def test_spencers_bound_is_cited_where_it_is_the_one_stated():
    (fact,) = kind("independent-domination").build(board(11), "cells").assumptions
    assert "at least 5" in fact.statement and "Cockayne" in fact.source


def test_asked_symmetry_breaking_stays_and_is_named_without_axioms():
    built = kind("domination").build(board(6), "cells", "lex-leader", axioms="none")
    (fact,) = built.assumptions
    assert (fact.name, fact.kind) == ("lex-leader", "symmetry")
    assert "Crawford" in fact.source


def test_colouring_names_its_clique_bound_and_colour_symmetry_breaking():
    coloring = kind("coloring")
    stated = coloring.build(board(5), "precedence")
    assert _names(stated) == ["colours-in-order", "clique-bound", "value-precedence"]
    bare = coloring.build(board(5), "precedence", axioms="none")
    assert bare.assumptions == [] and bare.stated_bound() is None
    assert _names(coloring.build(board(5), "representatives")) == ["clique-bound"]


def test_colouring_by_exact_cover_names_the_reformulation_and_without_axioms_is_precedence():
    coloring = kind("coloring")
    stated = coloring.build(board(5), "exact-cover")
    assert _names(stated) == ["exact-cover"] and "Vasquez" in stated.assumptions[0].source
    bare = coloring.build(board(5), "exact-cover", axioms="none")
    assert bare.name == "coloring-precedence" and bare.assumptions == []


def test_a_refuted_cover_is_named_as_the_search_it_came_from():
    """n = 6 has no cover by 6 disjoint solutions (there are 4): the model states 7."""
    built = kind("coloring").build(board(6), "exact-cover")
    assert _names(built)[0] == "exact-cover" and "no-cover" in _names(built)
    assert built.stated_bound() == 7


def test_a_callers_bound_and_givens_are_named():
    question = Question(kind("domination"), "cells", bound=6, axioms="none")
    (fact,) = question.build(board(10)).assumptions
    assert (fact.kind, fact.statement) == ("bound", "the optimum is at least 6")
    placement = kind("placement", np.ones((6, 6), dtype=int), [(0, 1), (1, 3)])
    (given,) = placement.build(board(6), placement.model_name(None), axioms="none").assumptions
    assert given.kind == "given" and "0:1, 1:3" in given.statement


def test_without_axioms_the_default_model_keeps_no_measured_symmetry_breaking():
    """The table's sat row for n = 10 breaks symmetry; without axioms only what is asked."""
    problem = Problem(10, kind="domination")
    question = Question(kind("domination"))
    assert defaults.chosen(problem, "sat", question)[1] == "lex-leader"
    bare = Question(kind("domination"), axioms="none")
    assert defaults.chosen(problem, "sat", bare)[:2] == ("hilbert", "none")


def test_a_decide_no_carries_the_formulas_assumptions():
    stated = ql.decide(6, kind="domination", value=2, backend="cpsat", model="cells")
    assert stated.status is ql.Status.NO and [a.name for a in stated.assumptions] == ["lower-bound"]
    assert stated.to_json()["assumptions"][0]["source"] == "Finozhenok and Weakley 2007"
    bare = ql.decide(6, kind="domination", value=2, backend="cpsat", axioms="none")
    assert bare.status is ql.Status.NO and bare.to_json()["assumptions"] == []


def test_a_split_no_carries_them_too():
    result = ql.decide(6, kind="domination", value=2, backend="sat", model="cells", split=1)
    assert result.status is ql.Status.NO and result.assumptions[0].name == "lower-bound"


def test_a_yes_reports_no_assumptions_its_answer_is_checked():
    assert "assumptions" not in ql.decide(6, kind="domination", value=3).to_json()


def test_a_backends_own_search_has_no_formula_to_name():
    result = ql.decide(4, kind="peaceable", value=3, backend="armies")
    assert result.status is ql.Status.NO and result.to_json()["assumptions"] is None


def test_bad_axioms_are_one_line():
    with pytest.raises(UsageError, match="unknown axioms 'some'; choose from: all, none"):
        ql.decide(6, kind="domination", value=2, axioms="some")


def test_a_fact_of_an_unknown_kind_is_refused_in_one_line():
    from queenslab.core.expressions import ModelBuilder

    with pytest.raises(UsageError, match="unknown kind of assumption 'lemma'; choose from: "):
        ModelBuilder("m").assume("x", "a fact", kind="lemma")
