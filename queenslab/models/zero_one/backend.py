"""What the model backends share to answer any problem kind: each names its translator.

A kind's question (``core.kind.Question``) is built into a ``BoolModel``, solved by the
backend's translator (``translator.Translator``, found by name in ``translator.TRANSLATORS``,
a plug-in's as the package's own) with the backend's own settings (``workers``,
``solver``, ``encoding``), its values evaluated against that model (values that break it
are the translator's bug, ``BackendBug`` naming it), and only then decoded by the kind.
Every task runs on every kind: solve is any answer of the model without its objective,
decide the model bounded at the value, optimize the model itself; count and enumerate
stream the translator's ``solutions`` of the model fixed at the optimum (every answer,
for a kind without an objective), refused in one line by a translator without them.

A backend with a search of its own for a kind (placement's: counting and enumerating
cube by cube on the pool, a feasibility solve tuned to the solver) declares it in ``tasks``
and writes it as ``own_<task>``: it is used when no model was asked for
(``Backend.searches_itself``). Such a search runs on the kind's own model, translated as
here (``models.cnf.board_cnf``, ``models.cpsat.build``, ``models.milp.state``): it
never states the question a second time. Otherwise solve, optimize and decide build the model and
symmetry setting asked for, or when none was, the one measured fastest for this backend,
kind and n (``problems.defaults.tuned``); count and enumerate the measured model too, when
it counts the answers, without symmetry breaking unless asked.

Optimising runs in a forked child, the model built there too; counting and enumerating
prove the optimum that way first, build the model of the answers at that value in a child
too (so the limit covers it), then stream those answers from this process.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from queenslab.core import warm_start
from queenslab.core.backend import EVERY_KIND, Backend, Family, Task
from queenslab.core.errors import BackendBug, CapabilityError, LimitReached, Undecided, UsageError
from queenslab.core.kind import Question
from queenslab.core.model import BoolModel
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, DecideResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import News, Run
from queenslab.models.zero_one.outcome import Outcome, Start
from queenslab.models.zero_one.translator import TRANSLATORS, Solutions, Translator
from queenslab.problems.defaults import tuned
from queenslab.runtime import forked

#: Every task, on any kind's 0-1 model: what a model backend declares under ``EVERY_KIND``.
MODEL_TASKS = frozenset(Task)


class KindModels(Backend):
    """Base of a model backend: every task on any kind through the translator it names.

    A backend of a plug-in's translator is one line, ``name = translator = "its-name"``
    in a subclass: it takes its family and tasks from here; a backend with options
    (the translator's settings), packages or a summary declares them as any backend."""

    #: The translator's name (``translator.TRANSLATORS``: built in, from an entry point,
    #: or ``register_translator``), looked up when a task runs.
    translator: ClassVar[str]
    family: ClassVar[Family] = Family.MODEL
    tasks: ClassVar[MappingProxyType[str, frozenset[Task]]] = MappingProxyType(
        {EVERY_KIND: MODEL_TASKS}
    )

    def _kind_translator(self) -> Translator:
        return TRANSLATORS.get(self.translator)

    def _solutions(self) -> Solutions:
        """The translator's ``solutions``; a one-line CapabilityError, before any work,
        from one that declares it cannot enumerate."""
        found = self._kind_translator().solutions
        if found is None:
            raise CapabilityError(
                f"backend {self.name!r} cannot count or enumerate: its translator "
                f"{self.translator!r} streams no answers"
            )
        return found

    def _checked(self, model: BoolModel, outcome: Outcome) -> Outcome:
        """``outcome``, once its values satisfy ``model``; BackendBug naming the translator
        otherwise (the model is the one it was given: the kind is not to blame)."""
        if outcome.values is not None:
            self._vouch(model, outcome.values)
        return outcome

    def _vouch(self, model: BoolModel, values: Sequence[bool]) -> None:
        broken = model.violations(values, first=True)
        if broken:
            raise self._bug(model, broken[0])

    def _bug(self, model: BoolModel, broken: str) -> BackendBug:
        return BackendBug(
            f"{self.translator} returned values that violate its model {model.name}: {broken}"
        )

    def _own(self, task: Task, question: Question) -> bool:
        return self.searches_itself(task, question.kind.name, question.native)

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        if self._own(Task.SOLVE, question):
            return self.own_solve(problem, run, question)
        stopped = SolveResult(Status.LIMIT)
        question = tuned(problem, run, self.name, question)
        return forked.in_child(lambda: self._solve_here(problem, run, question), run, stopped)

    def _solve_here(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        """Any answer of the model, its objective (if any) left out."""
        with run.phase("build"):
            model = question.build(problem.board).without_objective()
        outcome = self._satisfy(model, run)
        if outcome.values is not None:
            answer = question.kind.decode(problem.board, model, outcome.values)
            return SolveResult(Status.SOLVED, answer)
        if outcome.status in (Status.INFEASIBLE, Status.LIMIT):
            return SolveResult(outcome.status)
        return SolveResult(Status.UNKNOWN)

    def _satisfy(self, model: BoolModel, run: Run) -> Outcome:
        """An answer of ``model``, which has nothing to optimise: the one its building
        found, if it holds, else the translator's, checked."""
        found = model.found_values()
        if found is not None:
            return Outcome(Status.FEASIBLE, tuple(found))
        return self._checked(model, self._kind_translator().optimize(model, run, self.settings))

    def enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Any]:
        if self._own(Task.ENUMERATE, question):
            return self.own_enumerate(problem, run, question)
        return self._model_enumerate(problem, run, question)

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        if self._own(Task.COUNT, question):
            return self.own_count(problem, run, question)
        return self._model_count(problem, run, question)

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        return self._model_optimize(problem, run, tuned(problem, run, self.name, question))

    # The backend's own searches of a kind (placement's cube counts), for the tasks
    # ``tasks`` lists under it: strategies over the kind's model, never a second model.
    def own_solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        raise self.lacks(Task.SOLVE, question.kind.name)

    def own_enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Any]:
        raise self.lacks(Task.ENUMERATE, question.kind.name)

    def own_count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        raise self.lacks(Task.COUNT, question.kind.name)

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

        broken: list[str] = []  # what an answer told broke, raised once the solver is done

        def tell(values: Sequence[bool] | None, bound: int | None) -> None:
            bound = warm_start.tighter(question, bound)
            if values is not None and not broken:
                broken.extend(model.violations(values, first=True))
            if values is not None and not broken:
                value = model.value(values)
                if start is None or model.sense.better(value, start.value):
                    answer = kind.decode(problem.board, model, values)
                    run.learn("solution", News(value, answer, bound))
                    return
            run.learn("bound", News(bound=bound))

        outcome = self._kind_translator().optimize(model, run, self.settings, tell, start)
        if broken:
            raise self._bug(model, broken[0])
        self._checked(model, outcome)
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
        return decided(problem, question, model, self._satisfy(model, run), value)

    def _model_count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        self._solutions()  # refused before any work
        question = tuned(problem, run, self.name, question, counts=True)
        found, optimum = 0, None
        try:
            best = self._kind_proven(problem, run, question)
            optimum = None if best is None else best.objective
            for _ in self._kind_optima(problem, run, question, best):
                found += 1
                run.tally(1)
                run.report(found, None)
        except (LimitReached, Undecided) as stopped:
            run.stats.add(found=found)
            status = Status.LIMIT if isinstance(stopped, LimitReached) else Status.UNKNOWN
            return CountResult(None, status=status, kind=problem.kind, optimum=optimum)
        return CountResult(found, kind=problem.kind, optimum=optimum)

    def _model_enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Any]:
        self._solutions()  # refused before any work
        question = tuned(problem, run, self.name, question, counts=True)
        best = self._kind_proven(problem, run, question)
        yield from self._kind_optima(problem, run, question, best)

    def _kind_proven(self, problem: Problem, run: Run, question: Question) -> OptimizeResult | None:
        """The optimum, optimal or infeasible (None for a kind without an objective, whose
        every answer counts); LimitReached when a limit came first, and a solver's failure
        raised with its words (Undecided, never taken for a limit)."""
        if question.kind.sense is None:
            return None
        best = self._model_optimize(problem, run, question)
        if best.status is Status.UNKNOWN:
            raise Undecided(f"{self.translator} failed: {best.message or 'no reason given'}")
        if best.status not in (Status.OPTIMAL, Status.INFEASIBLE):
            raise LimitReached
        return best

    def _kind_optima(
        self, problem: Problem, run: Run, question: Question, best: OptimizeResult | None
    ) -> Iterator[Any]:
        """The answers at the proven optimum ``best`` (none when it is infeasible; every
        answer when there is no optimum to reach, ``best`` None), each checked against the
        model the translator was given."""
        if best is not None and best.objective is None:
            return
        optimum = None if best is None else best.objective

        def build() -> BoolModel:
            with run.phase("build"):
                built = question.build(problem.board)
                if optimum is None:
                    return built.without_objective()
                return built.with_objective_at(optimum)

        model = forked.in_child(build, run, None)  # so the time limit covers building it
        if model is None:
            raise LimitReached
        for values in self._solutions()(model, run, self.settings):
            self._vouch(model, values)
            yield run.counted(question.kind.decode(problem.board, model, values))


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
    here, checked by the api), a proof of infeasibility a no, which rests on the facts the
    model assumed (``BoolModel.assumptions``)."""
    result = DecideResult(
        Status.UNKNOWN, kind=problem.kind, value=value, message=outcome.message,
        assumptions=tuple(model.assumptions),
    )  # fmt: skip
    if outcome.values is not None:
        result.status = Status.YES
        result.answer = question.kind.decode(problem.board, model, outcome.values)
    elif outcome.status is Status.INFEASIBLE:
        result.status = Status.NO
    elif outcome.status is Status.LIMIT:
        result.status = Status.LIMIT
    return result
