"""Warm starts and proven bounds (``core.warm_start``): a wrong start refused before any
search, a right one used by every model backend (the first news, never beaten by the
result), the kinds' ``encode`` the inverse of ``decode``, and a right bound keeping the
optimum. Tiny boards; optima from the brute force of ``tests.kind_oracle``."""

from __future__ import annotations

import pytest

from queenslab import api
from queenslab.boards import board
from queenslab.core import warm_start
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.result import OptimizeResult, Status
from queenslab.core.run import Run
from queenslab.models.zero_one import cpsat
from queenslab.problems import kind
from tests import kind_oracle

N = 5
BACKENDS = ("cpsat", "milp", "maxsat", "sat")
#: A right start far from the optimum, per kind (in the kind's JSON form).
POOR = {
    "domination": [[r, 0] for r in range(N)],
    "independent-domination": [[0, 0], [1, 2], [2, 4], [3, 1], [4, 3]],
    "peaceable": {"white": [[0, 0]], "black": [[1, 2]]},
    "coloring": [[[r, c]] for r in range(N) for c in range(N)],
}
#: A wrong start per kind, and what the kind's checker says of it.
WRONG = {
    "domination": ([[0, 0]], "is neither occupied nor attacked"),
    "independent-domination": ([[0, 0], [0, 1], [2, 4], [3, 1], [4, 3]], ""),
    "peaceable": ({"white": [[0, 0]], "black": [[0, 4]]}, "attacked along a row"),
    "coloring": ([[[0, 0], [0, 1]]], ""),
}


def optimum(problem: str) -> int:
    best, _ = kind_oracle.optimum(problem, N)
    assert best is not None
    return best


@pytest.mark.parametrize("problem", sorted(POOR))
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_right_start_is_the_first_news_and_the_optimum_is_still_found(problem, backend):
    news = []
    result = api.optimize(
        N, problem=problem, backend=backend, start=POOR[problem],
        on_news=lambda event, seen, _t: news.append((event, seen.objective)),
    )  # fmt: skip
    start_value = kind(problem).value(kind(problem).from_json(POOR[problem]))
    assert news[0] == ("solution", start_value)
    assert result.status is Status.OPTIMAL and result.objective == optimum(problem)
    assert kind_oracle.fault(problem, N, "standard", (), result.answer) is None


@pytest.mark.parametrize("problem", sorted(POOR))
@pytest.mark.parametrize("backend", BACKENDS)
def test_an_optimal_start_is_proven_optimal(problem, backend):
    best = api.optimize(N, problem=problem, backend="cpsat")
    result = api.optimize(N, problem=problem, backend=backend, start=best.answer)
    assert result.status is Status.OPTIMAL and result.objective == best.objective
    assert result.bound == best.objective


def test_a_result_worse_than_the_start_gives_way_to_the_start():
    best = api.optimize(N, problem="peaceable", backend="cpsat").answer
    question = warm_start.warmed(Question(kind("peaceable")), board(N), start=best)
    worse = kind("peaceable").from_json(POOR["peaceable"])
    result = OptimizeResult(Status.FEASIBLE, 1, kind="peaceable", answer=worse, bound=4)
    kept = warm_start.kept(question, result)
    assert kept.status is Status.OPTIMAL and kept.objective == 4
    assert kept.answer == kind("peaceable").from_json(best)


@pytest.mark.parametrize("problem", sorted(WRONG))
def test_a_wrong_start_is_refused_before_any_search(problem):
    answer, why = WRONG[problem]
    with pytest.raises(UsageError, match=f"the start is not a {problem} answer.*{why}"):
        api.optimize(N, problem=problem, backend="cpsat", start=answer)


@pytest.mark.parametrize(
    ("problem", "start", "message"),
    [
        ("domination", [[0]], r"list of \[row, col\] cells"),
        ("domination", {"white": []}, r"list of \[row, col\] cells"),
        ("peaceable", [[0, 0]], "white"),
        ("coloring", [[0, 0]], r"\[row, col\] cells"),
        ("domination", [[9, 9]], "the start is not a domination answer"),
    ],
)
def test_a_start_of_the_wrong_shape_is_one_line(problem, start, message):
    with pytest.raises(UsageError, match=message):
        api.optimize(N, problem=problem, backend="cpsat", start=start)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("problem", ["domination", "peaceable"])
def test_a_right_bound_keeps_the_optimum(problem, backend):
    best = optimum(problem)
    for bound in (best, best - 1 if problem == "domination" else best + 1):
        result = api.optimize(N, problem=problem, backend=backend, bound=bound)
        assert result.status is Status.OPTIMAL and result.objective == best
        assert kind_oracle.fault(problem, N, "standard", (), result.answer) is None


def test_a_bound_met_by_a_heuristic_makes_its_answer_optimal():
    result = api.optimize(
        N, problem="domination", backend="graph-search", bound=optimum("domination")
    )
    assert result.status is Status.OPTIMAL and result.bound == result.objective == 3


def test_the_bound_is_the_first_news_without_a_start():
    news = []
    api.optimize(N, problem="domination", backend="sat", bound=2,
                 on_news=lambda event, seen, _t: news.append((event, seen.bound)))  # fmt: skip
    assert news[0] == ("bound", 2)


def test_a_bound_the_start_beats_is_refused():
    with pytest.raises(UsageError, match="beats the lower bound 6"):
        api.optimize(N, problem="domination", start=POOR["domination"], bound=6)
    with pytest.raises(UsageError, match="beats the upper bound 0"):
        api.optimize(N, problem="peaceable", start=POOR["peaceable"], bound=0)


def test_an_answer_beyond_the_bound_given_says_the_bound_was_not_proven():
    with pytest.raises(UsageError, match="that bound was not proven"):
        api.optimize(N, problem="domination", backend="graph-search", bound=4)


MODELS = [(name, model) for name in sorted(POOR) for model in kind(name).models]


@pytest.mark.parametrize(("problem", "model"), MODELS)
def test_encode_gives_the_model_the_answer_decode_reads(problem, model):
    """The encoded answer variables fixed, the model still holds, and reads back the
    answer (the white army alone where the black cells follow from it)."""
    question, field = kind(problem), board(N)
    answer = question.from_json(api.optimize(N, problem=problem, backend="cpsat").answer)
    built = question.build(field, model)
    for v, value in question.encode(field, built, answer).items():
        built.clause(v + 1 if value else -(v + 1))
    outcome = cpsat.optimize(built, Run(), {"workers": 1})
    assert outcome.values is not None
    decoded = question.decode(field, built, outcome.values)
    if model == "white-only":
        assert decoded.white == answer.white
    else:
        assert decoded == answer


def test_a_placement_start_is_its_columns():
    weights = [[r * 5 + c for c in range(5)] for r in range(5)]
    best = api.optimize(5, weights, "cpsat")
    result = api.optimize(5, weights, "milp", start=list(best.placement), bound=best.objective)
    assert result.status is Status.OPTIMAL and result.objective == best.objective
