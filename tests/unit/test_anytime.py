"""The run's anytime news: kept in order, carried from a forked child to its parent, and
what a stopped search leaves; the CPU limit."""

from __future__ import annotations

import time

from queenslab.core.result import OptimizeResult, Status
from queenslab.core.run import News, Run
from queenslab.runtime import forked


def test_a_bound_keeps_the_answer_and_an_answer_without_a_bound_keeps_the_bound():
    run = Run()
    run.learn("bound", News(bound=3))
    run.learn("solution", News(7, "seven"))
    assert run.news == News(7, "seven", 3)
    run.learn("bound", News(bound=4))
    run.learn("solution", News(5, "five", 4))
    assert run.news == News(5, "five", 4)


def test_the_news_of_a_forked_child_reach_the_parent_and_survive_its_stop():
    """The child tells an answer, then works on without end: the parent, told, stops the
    run, and the answer is what the stopped search leaves."""
    heard: list[tuple[str, News]] = []

    def listen(event: str, news: News, _seconds: float) -> None:
        if event != "tick":
            heard.append((event, news))
            if event == "solution":
                run.stop()

    run = Run(on_news=listen)

    def work() -> str:
        run.learn("bound", News(bound=2))
        run.learn("solution", News(9, frozenset({(0, 1)}), 2))
        time.sleep(600)  # killed by the parent after its grace
        return "never"

    assert forked.in_child(work, run, None) is None
    assert [event for event, _ in heard] == ["bound", "solution"]
    result = OptimizeResult.of_news(run.news, "domination")
    assert (result.status, result.objective, result.bound) == (Status.FEASIBLE, 9, 2)
    assert result.answer == frozenset({(0, 1)})
    assert OptimizeResult.of_news(News(bound=2), "domination").status is Status.LIMIT


def test_a_cpu_limit_ends_busy_work_and_a_forked_child_keeps_counting():
    run = Run(cpu_limit=0.2)
    spins = 0
    while not run.should_stop():
        spins += 1
    assert spins > 0

    child_run = Run(cpu_limit=0.2)

    def spin() -> bool:
        while not child_run.should_stop():
            pass
        return True

    assert forked.in_child(spin, child_run, False) is True
