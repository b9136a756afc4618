"""Warm starts and bounds between paradigms: what one run found, given to another.

A local search finds good answers fast and proves nothing; a model backend proves but may
spend minutes finding what the heuristic had at once. So an optimisation may begin from
a ``start`` (an answer in the kind's JSON form: a previous run's, a heuristic's) and a
``bound`` on the optimum proven elsewhere (a previous run's JSON ``bound``: a lower bound
when minimising, an upper one when maximising).

Neither is taken on trust where it can be checked: the start must pass the kind's own
checker before any search, and a bound the start beats is refused. A bound cannot be
checked (that would be the proof itself): it must be a proven one, or the run may report
a wrong optimum. The start is the run's first news and its incumbent until something
better comes, so the result is never worse than the start; the bound is stated in the
model (``Question.build``) and kept in the result's bound.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from queenslab.boards import Board
from queenslab.core.errors import UsageError
from queenslab.core.integers import integer
from queenslab.core.kind import Question
from queenslab.core.model import Sense
from queenslab.core.result import OptimizeResult, Status
from queenslab.core.run import News, Run


def warmed(question: Question, board: Board, start: Any = None, bound: Any = None) -> Question:
    """``question`` with its start (JSON data, read and checked by the kind) and proven
    bound; a one-line UsageError for a wrong start or a bound the start beats."""
    kind = question.kind
    answer = None
    if start is not None:
        answer = kind.from_json(start)
        why = kind.check(board, answer)
        if why is not None:
            raise UsageError(f"the start is not a {kind.name} answer on this board: {why}")
    if bound is not None:
        bound = integer(bound, "bound")
        if answer is not None and kind.goal().better(kind.value(answer), bound):
            side = "lower" if kind.goal() is Sense.MIN else "upper"
            raise UsageError(
                f"the start's value {kind.value(answer)} beats the {side} bound {bound}: "
                "give a bound that was proven"
            )
    return replace(question, start=answer, bound=bound)


def announce(question: Question, run: Run) -> None:
    """The start and the bound as the run's first news (before any search)."""
    if question.start is not None:
        value = question.kind.value(question.start)
        run.learn("solution", News(value, question.start, question.bound))
    elif question.bound is not None:
        run.learn("bound", News(bound=question.bound))


def tighter(question: Question, bound: int | None) -> int | None:
    """The better of a backend's proven ``bound`` and the one given."""
    if bound is None or question.bound is None:
        return question.bound if bound is None else bound
    return bound if question.kind.goal().tighter(bound, question.bound) else question.bound


def kept(question: Question, result: OptimizeResult) -> OptimizeResult:
    """``result`` (its answer in the kind's form) never worse than the start, its bound
    the tighter of its own and the one given; optimal when they meet. UsageError when its
    answer beats the bound given, which therefore was not proven."""
    kind = question.kind
    start = question.start
    if start is not None and (
        result.objective is None or kind.goal().better(kind.value(start), result.objective)
    ):
        result.answer, result.objective = start, kind.value(start)
        result.status = Status.FEASIBLE
    result.bound = tighter(question, result.bound)
    if result.objective is None or result.bound is None:
        return result
    if question.bound is not None and kind.goal().better(result.objective, question.bound):
        raise UsageError(
            f"an answer of value {result.objective} beats the bound {question.bound} given: "
            "that bound was not proven"
        )
    if result.objective == result.bound:
        result.status = Status.OPTIMAL
    return result
