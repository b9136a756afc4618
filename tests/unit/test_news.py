"""The news of milp and maxsat (HiGHS's callbacks, RC2's cores and oracle models): each
better answer and bound in order, every answer a checked one, the last the result; a CPU
limit ends HiGHS. No test looks at the clock."""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.core.model import BoolModel, Sense
from queenslab.core.run import News
from queenslab.models.zero_one.outcome import Improvements
from queenslab.problems import kind

pytest.importorskip("pysat")
pytest.importorskip("pyomo")


def heard(backend: str, problem: str, n: int) -> tuple[list[tuple[str, News]], ql.OptimizeResult]:
    news: list[tuple[str, News]] = []

    def listen(event: str, now: News, _seconds: float) -> None:
        if event != "tick":
            news.append((event, now))

    return news, ql.optimize(n, problem=problem, backend=backend, on_news=listen)


@pytest.mark.parametrize("backend", ["milp", "maxsat"])
@pytest.mark.parametrize(("problem", "n"), [("domination", 9), ("peaceable", 6)])
def test_news_come_in_order_each_answer_checked_and_the_last_is_the_result(backend, problem, n):
    news, result = heard(backend, problem, n)
    question, field = kind(problem), board(n)
    answers = [now for event, now in news if event == "solution"]
    bounds = [now.bound for _, now in news if now.bound is not None]
    assert answers, "no answer was told before the result"
    for now in answers:
        assert question.check(field, now.answer) is None
        assert question.value(now.answer) == now.objective
    values = [now.objective for now in answers]
    rising = question.sense is Sense.MAX
    assert values == sorted(values, reverse=not rising) and len(set(values)) == len(values)
    assert bounds == sorted(bounds, reverse=rising)
    last = news[-1][1]
    assert (last.objective, last.bound) == (result.objective, result.bound)
    assert question.to_json(last.answer) == result.answer


def test_a_cpu_limit_ends_highs():
    """HiGHS had only a wall-clock limit: its interrupt callback now looks at the run."""
    result = ql.optimize(16, problem="domination", backend="milp", cpu_limit=0.5)
    assert result.status in (ql.Status.FEASIBLE, ql.Status.LIMIT)


def test_improvements_pass_on_only_what_improves():
    model = BoolModel("two")
    model.minimise([(1, model.var("a")), (1, model.var("b"))])
    told: list[tuple[tuple[bool, ...] | None, int | None]] = []
    news = Improvements(model, lambda values, bound: told.append((values, bound)))
    news((True, True), None)
    news((True, True), 0)  # the same answer: only the bound is news
    news(None, 0)  # nothing new
    news((True, False), 0)
    news((True, True), 1)  # a worse answer, a better bound
    news(None, 0)  # a worse bound
    assert told == [((True, True), None), (None, 0), ((True, False), 0), (None, 1)]
