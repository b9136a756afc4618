"""What the model backends share to answer any problem kind: each names its translator.

A kind's question (``core.kind.Question``) is built into a ``BoolModel``, solved by the
backend's translator with the backend's own settings (``workers``, ``solver``,
``encoding``), and the answer decoded by the kind. A backend with a formulation of its own
for a kind (placement's) declares it in ``tasks`` and writes it as ``own_<task>``: it is
used when no model was asked for (``Backend.searches_itself``). Otherwise optimize and
decide build the model and symmetry setting asked for, or when none was, the one measured
fastest for this backend, kind and n (``problems.defaults.tuned``).

Optimising runs in a forked child, the model built there too; counting and enumerating
prove the optimum that way first, build the model of the answers at that value in a child
too (so the limit covers it), then stream those answers from this process.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, ClassVar

from queenslab.core import warm_start
from queenslab.core.backend import Backend, Task
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.model import BoolModel
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, DecideResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import News, Run
from queenslab.models.zero_one.outcome import Outcome, Start
from queenslab.problems.defaults import tuned
from queenslab.runtime import forked


class KindModels(Backend):
    """Base of a model backend: ``optimize`` and ``decide`` (and, with a ``solutions`` in
    its translator, ``count`` and ``enumerate``) of any kind through ``translator``."""

    #: The translator's module in ``queenslab.models.zero_one``.
    translator: ClassVar[str]

    def _kind_translator(self) -> ModuleType:
        return importlib.import_module(f"queenslab.models.zero_one.{self.translator}")

    def _own(self, task: Task, question: Question) -> bool:
        return self.searches_itself(task, question.kind.name, question.native)

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        if self._own(Task.SOLVE, question):
            return self.own_solve(problem, run, question)
        return super().solve(problem, run, question)

    def enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Any]:
        if self._own(Task.ENUMERATE, question):
            return self.own_enumerate(problem, run, question)
        return self._model_enumerate(problem, run, question)

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        if self._own(Task.COUNT, question):
            return self.own_count(problem, run, question)
        return self._model_count(problem, run, question)

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        if self._own(Task.OPTIMIZE, question):
            return self.own_optimize(problem, run, question)
        return self._model_optimize(problem, run, tuned(problem, run, self.name, question))

    # The backend's own formulations, for the tasks ``tasks`` lists under a kind.
    def own_solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        raise self.lacks(Task.SOLVE, question.kind.name)

    def own_enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Any]:
        raise self.lacks(Task.ENUMERATE, question.kind.name)

    def own_count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        raise self.lacks(Task.COUNT, question.kind.name)

    def own_optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        raise self.lacks(Task.OPTIMIZE, question.kind.name)

    def _model_optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        """The translator's outcome; when the child had to be stopped first, the best answer
        and bound it told on the way (``Run.news``)."""
        result = forked.in_child(lambda: self._optimize_here(problem, run, question), run, None)
        return OptimizeResult.of_news(run.news, problem.kind) if result is None else result

    def _optimize_here(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        """The translator's outcome; with a start (``core.warm_start``, or an answer the
        model's building found), only answers better than it are news, "infeasible"
        (nothing better) proves the start optimal, and so does a start that meets the
        bound the model states, before any solver runs."""
        kind = question.kind
        with run.phase("build"):
            model = question.build(problem.board)
            start, start_answer = _start(problem, run, question, model)
        if start is not None and start.value == model.stated_bound():
            return OptimizeResult(
                Status.OPTIMAL, start.value, kind=problem.kind, answer=start_answer,
                bound=start.value,
            )  # fmt: skip

        def tell(values: Sequence[bool] | None, bound: int | None) -> None:
            bound = warm_start.tighter(question, bound)
            if values is not None:
                value = model.value(values)
                if start is None or model.sense.better(value, start.value):
                    answer = kind.decode(problem.board, model, values)
                    run.learn("solution", News(value, answer, bound))
                    return
            run.learn("bound", News(bound=bound))

        outcome = self._kind_translator().optimize(model, run, self.settings, tell, start)
        if start is not None and outcome.status is Status.INFEASIBLE:
            return OptimizeResult(
                Status.OPTIMAL, start.value, kind=problem.kind, answer=start_answer,
                bound=start.value,
            )  # fmt: skip
        answer = None
        if outcome.values is not None:
            answer = kind.decode(problem.board, model, outcome.values)
        message = outcome.message
        if outcome.status is Status.INFEASIBLE and not message:
            message = model.impossible  # what the kind knows makes it so, if anything
        return OptimizeResult(
            outcome.status, outcome.objective, kind=problem.kind, answer=answer,
            bound=outcome.bound, message=message,
        )  # fmt: skip

    def decide(
        self, problem: Problem, run: Run, question: Question, value: int, proof: str | None = None
    ) -> DecideResult:
        if proof is not None:
            raise UsageError(f"backend {self.name!r} writes no proof; --proof needs -b sat")
        stopped = DecideResult(Status.LIMIT, kind=problem.kind, value=value)
        question = tuned(problem, run, self.name, question)
        return forked.in_child(
            lambda: self._decide_here(problem, run, question, value), run, stopped
        )

    def _decide_here(
        self, problem: Problem, run: Run, question: Question, value: int
    ) -> DecideResult:
        with run.phase("build"):
            model = question.build(problem.board).with_objective_bound(value)
        found = model.found_values()
        if found is not None:  # the building found an answer within the bound: yes
            return decided(problem, question, model, Outcome(Status.FEASIBLE, tuple(found)), value)
        outcome = self._kind_translator().optimize(model, run, self.settings)
        return decided(problem, question, model, outcome, value)

    def _model_count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        found, optimum = 0, None
        try:
            best = self._kind_proven(problem, run, question)
            optimum = best.objective
            for _ in self._kind_optima(problem, run, question, best):
                found += 1
                run.report(found, None)
        except LimitReached:
            run.stats.add(found=found)
            return CountResult(None, status=Status.LIMIT, kind=problem.kind, optimum=optimum)
        return CountResult(found, kind=problem.kind, optimum=optimum)

    def _model_enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Any]:
        best = self._kind_proven(problem, run, question)
        yield from self._kind_optima(problem, run, question, best)

    def _kind_proven(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        """The optimum, optimal or infeasible; LimitReached when a limit came first, and a
        solver's failure raised with its words (never taken for a limit)."""
        best = self._model_optimize(problem, run, question)
        if best.status is Status.UNKNOWN:
            raise RuntimeError(f"{self.translator} failed: {best.message or 'no reason given'}")
        if best.status not in (Status.OPTIMAL, Status.INFEASIBLE):
            raise LimitReached
        return best

    def _kind_optima(
        self, problem: Problem, run: Run, question: Question, best: OptimizeResult
    ) -> Iterator[Any]:
        """The answers at the proven optimum ``best`` (none when it is infeasible)."""
        if best.objective is None:
            return
        optimum = best.objective

        def build() -> BoolModel:
            with run.phase("build"):
                return question.build(problem.board).with_objective_at(optimum)

        model = forked.in_child(build, run, None)  # so the time limit covers building it
        if model is None:
            raise LimitReached
        for values in self._kind_translator().solutions(model, run, self.settings):
            yield question.kind.decode(problem.board, model, values)


def _start(
    problem: Problem, run: Run, question: Question, model: BoolModel
) -> tuple[Start | None, Any]:
    """Where the search begins, as the model's values and as the kind's answer: the
    question's start or the answer the model's building found, the better of the two (the
    found one told as news, so a stop keeps it). (None, None) without either."""
    kind = question.kind
    start, answer = None, question.start
    if answer is not None:
        start = Start(kind.encode(problem.board, model, answer), kind.value(answer))
    found = model.found_values()
    if found is not None and (start is None or model.sense.better(model.value(found), start.value)):
        answer = kind.decode(problem.board, model, found)
        start = Start(dict(enumerate(found)), model.value(found))
        run.learn("solution", News(start.value, answer, question.bound))
    return start, answer


def decided(
    problem: Problem, question: Question, model: BoolModel, outcome: Outcome, value: int
) -> DecideResult:
    """The decision an outcome on the bounded ``model`` gives: an answer is a yes (decoded
    here, checked by the api), a proof of infeasibility a no."""
    result = DecideResult(Status.UNKNOWN, kind=problem.kind, value=value, message=outcome.message)
    if outcome.values is not None:
        result.status = Status.YES
        result.answer = question.kind.decode(problem.board, model, outcome.values)
    elif outcome.status is Status.INFEASIBLE:
        result.status = Status.NO
    elif outcome.status is Status.LIMIT:
        result.status = Status.LIMIT
    return result
