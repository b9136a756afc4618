"""The public entry points, one per task: pick a backend, run it, time it, and check
everything it returns.

Every question is a problem kind (``queenslab.problems``; placement, n peaceful queens,
is the default one), and every call goes one way: the kind with its weights and givens
and the model asked for become a ``Question``, ``registry.resolve`` picks the backend,
its one method for the task runs, and each answer it returns passes the kind's own
checker (``ProblemKind.check``, which shares no code with the models or searches: O(n)
for a placement of millions of queens). Its value must be the one reported, a bound must
lie on the right side of it, and an incomplete backend may never claim that no answer
exists; a backend that breaks this raises ``BackendBug`` instead of reaching the user.

Timing: ``startup_seconds`` (imports, compiled kernels) is measured apart; ``seconds`` is
the backend's work, split into ``build_seconds`` and ``solve_seconds``. The time limit
covers the whole call, start-up and model building included.

The arguments every entry point shares, written once here (each function's docstring
documents only its own). ``n`` is positional and everything else keyword-only, with the
same name for the same thing everywhere; the older positional calls and ``problem=`` still
work for this release, with a DeprecationWarning:

    n: the board size, or a ready ``Problem`` (its givens, variant, blocked cells
        and kind then come with it: passing them again is refused).
    backend: a registered backend name (``ql.backends()``); None picks the fastest
        sensible one for this task and board.
    kind: the question: a kind's name (``ql.kinds()``: ``"placement"``, n queens,
        the default; ``"domination"``...) or a ``ProblemKind`` instance, a user's own.
        (``problem=``, its old name, is deprecated.)
    givens: queens placed in advance, as (row, column) cells, 0-based (placement).
    variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
    blocked: cells that may not hold a queen.
    model: the kind's 0-1 formulation (``ProblemKind.models``). None: a specialist's
        own search for placement; otherwise one rule for every task, export and
        ``problem_model`` (``problems.defaults.chosen``): the model and symmetry measured
        fastest at this n, else the kind's first model; ``stats["chosen"]`` says which.
    symmetry: ``"lex-leader"`` keeps one answer per class of the board's symmetries.
    time_limit: seconds for the whole call, model building included.
    cpu_limit: CPU seconds for the whole call, its worker processes included (not a Dask
        cluster's: refused with a scheduler).
    **options: backend options (``workers``, ``encoding``, ``formulation``...).

The errors every entry point may raise:

    UsageError: a bad argument (n, cell, variant, option value, time limit).
    CapabilityError: the backend cannot do this task, or not on this board.
    BackendUnavailable: the backend's solver package is not installed.
    BackendBug: the backend returned an answer the kind's checker refuses from a search
        of its own, a solver's values that violate the model it was given, or a false
        claim.
    KindError: the kind cannot be stated as written (its methods raised, its model has
        no variables, an objective is missing); ``ModelMismatch``, one of them: the
        kind's model admits an answer its own checker refuses.
"""

from __future__ import annotations

import contextlib
import functools
import io
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, TextIO, TypeVar, cast

from queenslab import problems, registry
from queenslab.boards import DEFAULT_VARIANT, Cell
from queenslab.core import warm_start
from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import BackendBug, ModelMismatch, StoppedWithAnswer, UsageError
from queenslab.core.integers import integer, workers
from queenslab.core.kind import ProblemKind, Question, check_symmetry
from queenslab.core.model import BoolModel, check_axioms
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, DecideResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import (
    MIN_TIME_LIMIT,
    News,
    NewsCallback,
    ProgressCallback,
    Run,
    cpu_seconds,
)
from queenslab.problems import defaults, kind_class

R = TypeVar("R", SolveResult, CountResult, OptimizeResult, DecideResult)
#: What ``problem=`` takes: a kind's name (``ql.kinds()``) or a kind itself.
KindArgument = str | ProblemKind[Any] | None


F = TypeVar("F", bound=Callable[..., Any])


def _entry(*positional: str) -> Callable[[F], F]:
    """An entry point's one signature style: ``n`` positional, everything else by keyword
    (``kind=`` for the question). The old calls still work for one release, each with a
    DeprecationWarning: the arguments after ``n`` in their former order (``positional``),
    and ``problem=`` for ``kind=``."""

    def wrap(function: F) -> F:
        @functools.wraps(function)
        def call(n: Any, *args: Any, **kwargs: Any) -> Any:
            name = function.__name__
            if len(args) > len(positional):
                raise TypeError(f"{name}() takes n and keyword arguments, got {len(args) + 1} "
                                "positional ones")  # fmt: skip
            if args:
                old = ", ".join(positional[: len(args)])
                warnings.warn(f"{name}(n, {old}) by position is deprecated: pass "
                              f"{old} by keyword", DeprecationWarning, stacklevel=2)  # fmt: skip
            for key, value in zip(positional, args, strict=False):
                if key in kwargs:
                    raise TypeError(f"{name}() got two values for {key!r}")
                kwargs[key] = value
            if "problem" in kwargs:
                warnings.warn(f"{name}(problem=...) is deprecated: pass kind=...",
                              DeprecationWarning, stacklevel=2)  # fmt: skip
                if "kind" in kwargs:
                    raise TypeError(f"{name}() got both kind= and its old name problem=")
                kwargs["kind"] = kwargs.pop("problem")
            return function(n, **kwargs)

        return cast(F, call)

    return wrap


def make_problem(
    n: int | Problem,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    kind: KindArgument = None,
) -> Problem:
    """``n`` itself when it is a Problem (of kind ``kind`` when named), else the problem
    these arguments describe; the kind is looked up and its givens and blocked cells
    checked here."""
    name = kind.name if isinstance(kind, ProblemKind) else kind
    if isinstance(n, Problem):
        if tuple(givens) or tuple(blocked) or variant != DEFAULT_VARIANT:
            raise UsageError("pass givens, variant and blocked cells inside the Problem")
        instance = n if name is None else replace(n, kind=name)
    else:
        instance = Problem(n, tuple(givens), variant, tuple(blocked), name or "placement")
    question = kind if isinstance(kind, ProblemKind) else kind_class(instance.kind)
    question.refuse_board(instance.variant, bool(instance.blocked), bool(instance.givens))
    return instance


def _question(
    instance: Problem,
    problem: KindArgument,
    model: str | None,
    symmetry: str,
    weights: Any = None,
    *,
    counts: bool = False,
    unique: bool = False,
    axioms: str = "all",
) -> Question:
    """What the backend is asked, every part checked: the kind (a user's instance as it
    is, else the named one with ``weights`` and the problem's givens) and its model;
    ``counts``: its answers are counted or enumerated, which some models cannot do."""
    if isinstance(problem, ProblemKind):
        if weights is not None:
            raise UsageError("pass weights to the kind itself")
        question = problem
    else:
        from queenslab.io.weights import check_weights

        matrix = None if weights is None else check_weights(weights, instance.n)
        question = problems.kind(instance.kind, matrix, instance.givens)
    if model is not None or counts:  # counting the default model: it must count too
        checked = question.counting_model_name(model) if counts else question.model_name(model)
        model = None if model is None else checked
    asked = Question(question, model, check_symmetry(symmetry), unique, axioms=check_axioms(axioms))
    if unique and not asked.native:
        raise UsageError(
            f"--unique counts classes with the backends' own searches; on the {question.name} "
            "problem's model count them with --symmetry lex-leader"
        )
    return asked


def _weighted(question: Question) -> None:
    """A kind valued by weights (placement) has no value to optimise or decide without them,
    and a kind without an objective none at all (a one-line KindError)."""
    question.kind.goal()
    if question.kind.takes_weights and question.kind.weights is None:
        raise UsageError(
            f"the {question.kind.name} problem is valued by weights: optimise it with "
            "--weights, or choose a --problem"
        )


def _resolve(
    task: Task,
    instance: Problem,
    question: Question,
    backend: str | None,
    options: dict[str, Any],
    *,
    unique: bool = False,
    profile: bool = False,
) -> Backend:
    """The backend for this call; only model backends when a model or symmetry breaking
    was asked for (a search of one's own would ignore them)."""
    features = registry.needs(instance, unique=unique, profile=profile)
    return registry.resolve(
        task, instance, backend, _checked_options(options), features, native=question.native
    )


def _counted_here(cpu_limit: float | None, scheduler: str | None) -> None:
    """A CPU limit counts this machine's processes: a Dask cluster's CPU it cannot see."""
    if cpu_limit is not None and scheduler:
        raise UsageError("--cpu-limit counts this machine's CPU, not a Dask cluster's: "
                         "use --time-limit with --scheduler")  # fmt: skip


def _checked_options(options: dict[str, Any]) -> dict[str, Any]:
    """The backend options, ``workers`` held to the API's rule for them
    (``core.integers.workers``): -1 and 0 get the same message, "1" and 1.0 are refused,
    and so is more than the machine (or with a ``scheduler``, a cluster) can run."""
    if options.get("workers") is None:
        return options
    return {**options, "workers": workers(options["workers"], options.get("scheduler"))}


def _modelled(engine: Backend, task: Task, question: Question) -> bool:
    """Whether ``engine`` answers ``task`` from the kind's own model (whose values it
    checks against that model), rather than by a search of its own."""
    return engine.family is Family.MODEL and not engine.searches_itself(
        task, question.kind.name, question.native
    )


def _checked_answer(
    question: Question, problem: Problem, answer: Any, backend: str, modelled: bool
) -> int:
    """The value of an answer the kind's own checker accepts. A rejected answer is the
    kind's ``ModelMismatch`` when it came from the kind's model (the model backends
    check the solver's values against the model they gave it, so the model admits it),
    and a ``BackendBug`` when it came from a backend's own search."""
    why = question.kind.check(problem.board, answer)
    if why is None:
        return question.kind.value(answer)
    if modelled:
        raise ModelMismatch(question.kind.name, answer, why)
    raise BackendBug(f"{backend} returned a wrong {problem.kind} answer ({why}): {answer!r}")


def _checked_claim(result: R, engine: Backend) -> None:
    """Only a complete method may say that no answer exists."""
    if result.status in (Status.INFEASIBLE, Status.NO) and engine.family is Family.HEURISTIC:
        raise BackendBug(f"{engine.name} is incomplete but claimed that no answer exists")


def _checked_solution(
    question: Question, problem: Problem, result: SolveResult, modelled: bool
) -> None:
    if result.answer is not None:
        _checked_answer(question, problem, result.answer, result.backend, modelled)
        result.answer = question.kind.to_json(result.answer)
    elif result.status is Status.SOLVED:
        raise BackendBug(f"{result.backend} said solved without an answer")


def _checked_optimum(
    question: Question, problem: Problem, result: OptimizeResult, modelled: bool
) -> None:
    """Check the answer, its value and the bound; then keep the answer as JSON data."""
    backend = result.backend
    result.kind = problem.kind
    if result.answer is None:
        if result.status in (Status.OPTIMAL, Status.FEASIBLE):
            raise BackendBug(f"{backend} said {result.status} without an answer")
        return
    value = _checked_answer(question, problem, result.answer, backend, modelled)
    if result.objective != value:
        raise BackendBug(f"{backend} reported {result.objective}, its answer gives {value}")
    if result.bound is not None:
        if question.kind.goal().better(value, result.bound):
            raise BackendBug(f"{backend} bound {result.bound} is beyond its answer's {value}")
        if result.status is Status.OPTIMAL and result.bound != value:
            raise BackendBug(f"{backend} said optimal with bound {result.bound} and {value}")
    result.answer = question.kind.to_json(result.answer)


def _checked_count(result: CountResult, problem: Problem) -> CountResult:
    result.kind = problem.kind
    for value in (result.total, result.unique):
        if value is not None and value < 0:
            raise BackendBug(f"{result.backend} reported a negative count {value}")
    if result.status is Status.SOLVED and result.total is None:
        raise BackendBug(f"{result.backend} finished a count without a total")
    return result


def _checked_decision(
    question: Question, problem: Problem, result: DecideResult, modelled: bool
) -> None:
    """A yes needs an answer the kind's checker accepts, of the value asked or better. The
    answer is then kept as JSON data."""
    result.kind = problem.kind
    if result.answer is None:
        if result.status is Status.YES:
            raise BackendBug(f"{result.backend} said yes without an answer")
        return
    found = _checked_answer(question, problem, result.answer, result.backend, modelled)
    if question.kind.goal().better(result.value, found):  # worse than the value asked
        raise BackendBug(f"{result.backend} answered yes with value {found}, beyond {result.value}")
    result.objective = found
    result.answer = question.kind.to_json(result.answer)


def _timed(
    engine: Backend,
    task: Task,
    problem: Problem,
    run: Run,
    question: Question,
    work: Callable[[], R],
) -> R:
    """Load the backend for ``task``, run ``work``, and fill the result's timing and identity."""
    start, cpu_start = time.perf_counter(), cpu_seconds()
    try:
        engine.load_for(task, problem, question)
        loaded = time.perf_counter()
        result = work()
    except KeyboardInterrupt:
        run.stop()  # threads and kernels of this run wind down
        raise
    seconds = time.perf_counter() - loaded
    stats = run.stats
    stats.setdefault("build_seconds", 0.0)
    stats["solve_seconds"] = max(0.0, seconds - stats["build_seconds"])
    stats["startup_seconds"] = loaded - start
    result.stats = {**stats, **result.stats}
    result.seconds = seconds
    result.cpu_seconds = cpu_seconds() - cpu_start
    _identify(result, problem, engine.name)
    _checked_claim(result, engine)
    return result


def _identify(result: R, problem: Problem, backend: str) -> None:
    result.n, result.variant, result.backend = problem.n, problem.variant, backend
    result.problem = problem


@_entry("backend")
def solve(
    n: int | Problem,
    *,
    backend: str | None = None,
    kind: KindArgument = None,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    model: str | None = None,
    symmetry: str = "none",
    time_limit: float | None = None,
    seed: int | None = None,
    cpu_limit: float | None = None,
    **options: Any,
) -> SolveResult:
    """Find one answer: for placement (the default), n peaceful queens keeping ``givens``.

    The arguments and errors all entry points share are in ``queenslab.api``'s docstring.

    Args:
        seed: makes randomised backends reproducible (the same seed, the same board).

    Returns:
        A ``SolveResult``: ``status`` (solved, infeasible, limit, unknown), the checked
        ``answer`` when solved (for placement the ``Placement``, also as ``placement``),
        ``seconds`` and ``stats``.

    Example:
        >>> ql.solve(8, backend="cpsat", givens=[(0, 3)]).placement.cols[0]
        3
    """
    instance = make_problem(n, givens, variant, blocked, kind)
    question = _question(instance, kind, model, symmetry)
    run = Run(seed, time_limit, cpu_limit=cpu_limit)
    engine = _resolve(Task.SOLVE, instance, question, backend, options)
    result = _timed(
        engine, Task.SOLVE, instance, run, question,
        lambda: engine.solve(instance, run, question),
    )  # fmt: skip
    _checked_solution(question, instance, result, _modelled(engine, Task.SOLVE, question))
    result.freeze()
    return result


class Solutions(Iterator[Any]):
    """The stream of ``enumerate_solutions``: each answer checked as it comes, as JSON
    data (``ProblemKind.to_json``: for placement the ``Placement``s themselves).

    Every answer must have the value of the first: the optima of a kind, or for
    placement every board. After the stream ends, ``stats`` and ``seconds`` describe the
    run (as on results).
    """

    def __init__(self, engine: Backend, problem: Problem, run: Run, question: Question) -> None:
        self.backend, self.problem, self.run = engine.name, problem, run
        self.stats = run.stats
        self.seconds = 0.0
        self._engine = engine
        self._question = question
        self._stream: Iterator[Any] | None = None
        self._value: int | None = None  # of the first answer: every other must equal it
        self._modelled = _modelled(engine, Task.ENUMERATE, question)

    def __next__(self) -> Any:
        start = time.perf_counter()
        try:
            if self._stream is None:
                self._engine.load_for(Task.ENUMERATE, self.problem, self._question)
                self.stats["startup_seconds"] = time.perf_counter() - start
                start = time.perf_counter()
                self._stream = iter(self._engine.enumerate(self.problem, self.run, self._question))
            answer = next(self._stream)
        except KeyboardInterrupt:
            self.run.stop()
            raise
        finally:
            self.seconds += time.perf_counter() - start
            self.stats["solve_seconds"] = self.seconds - self.stats.get("build_seconds", 0.0)
        value = _checked_answer(self._question, self.problem, answer, self.backend, self._modelled)
        if self._value is None:
            self._value = value
        elif value != self._value:
            raise BackendBug(f"{self.backend} streamed answers of value {self._value} and {value}")
        return self._question.kind.to_json(answer)

    def __enter__(self) -> Solutions:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the search and release what it holds (threads, solvers)."""
        self.run.stop()
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


@_entry("backend")
def enumerate_solutions(
    n: int | Problem,
    *,
    backend: str | None = None,
    kind: KindArgument = None,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    model: str | None = None,
    symmetry: str = "none",
    time_limit: float | None = None,
    cpu_limit: float | None = None,
    **options: Any,
) -> Solutions:
    """Stream every optimal answer, each checked, without holding them all in memory: for
    placement every board, for another kind every optimal answer (its optimum proven
    first).

    Bad arguments raise here, at the call; the search starts at the first ``next()``.
    The arguments and errors all entry points share are in ``queenslab.api``'s docstring.

    Returns:
        A ``Solutions`` iterator of answers as JSON data (``Placement``s for placement);
        close it (or leave a ``with`` block) to stop early.

    Raises:
        LimitReached: (while iterating) the time limit passed first.
        Undecided: (while iterating) the solver failed, in its own words (milp).

    Example:
        >>> sum(1 for _ in ql.enumerate_solutions(6))
        4
    """
    instance = make_problem(n, givens, variant, blocked, kind)
    question = _question(instance, kind, model, symmetry, counts=True)
    _counted_here(cpu_limit, options.get("scheduler"))
    engine = _resolve(Task.ENUMERATE, instance, question, backend, options)
    return Solutions(engine, instance, Run(None, time_limit, cpu_limit=cpu_limit), question)


@_entry("backend")
def count(
    n: int | Problem,
    *,
    backend: str | None = None,
    kind: KindArgument = None,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    model: str | None = None,
    symmetry: str = "none",
    time_limit: float | None = None,
    cpu_limit: float | None = None,
    unique: bool = False,
    profile: bool = False,
    progress: ProgressCallback | None = None,
    **options: Any,
) -> CountResult:
    """Count the optimal answers (for placement every board; for another kind the optimum
    is proven first, and given in ``CountResult.optimum``), or their classes with
    ``symmetry="lex-leader"``.

    The arguments and errors all entry points share are in ``queenslab.api``'s docstring.

    Args:
        unique: placement's own counters: also count the classes under the board's
            symmetry group.
        profile: record ``stats["profile"][d]``, the nodes of the search tree with d
            queens placed (backends with the ``profile`` feature).
        progress: called with (finished, total) work units as a long count goes.

    Returns:
        A ``CountResult``: ``total`` (and ``unique``), or status ``limit`` with ``total``
        None when the time limit came first, and ``lower_bound`` the answers found by then.

    Raises:
        StoppedWithAnswer: Ctrl-C or SIGTERM came; its ``result`` is the count so far, as
            at a limit (``lower_bound``).

    Example:
        >>> ql.count(13, variant="toroidal").total
        4524
    """
    instance = make_problem(n, givens, variant, blocked, kind)
    if unique and instance.givens:
        raise UsageError("--unique counts symmetry classes of a board without givens")
    question = _question(instance, kind, model, symmetry, counts=True, unique=unique)
    if profile and not question.native:
        raise UsageError("--profile records the trees of the backends' own searches")
    _counted_here(cpu_limit, options.get("scheduler"))
    engine = _resolve(
        Task.COUNT, instance, question, backend, options, unique=unique, profile=profile
    )
    run = Run(None, time_limit, progress, profile, cpu_limit)
    modelled = _modelled(engine, Task.COUNT, question)
    run.vet = lambda answer: _checked_answer(question, instance, answer, engine.name, modelled)
    try:
        result = _timed(
            engine, Task.COUNT, instance, run, question,
            lambda: engine.count(instance, run, question),
        )  # fmt: skip
    except KeyboardInterrupt as stop:
        so_far = CountResult(
            None, status=Status.INTERRUPTED, kind=instance.kind, lower_bound=run.found
        )
        so_far.seconds = run.elapsed()
        _identify(so_far, instance, engine.name)
        so_far.freeze()
        raise StoppedWithAnswer(so_far, stop) from stop
    if result.total is None:
        result.lower_bound = run.found
    _checked_count(result, instance).freeze()
    return result


@_entry("weights", "backend")
def optimize(
    n: int | Problem,
    *,
    weights: Any = None,
    backend: str | None = None,
    kind: KindArgument = None,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    model: str | None = None,
    symmetry: str = "none",
    time_limit: float | None = None,
    seed: int | None = None,
    cpu_limit: float | None = None,
    on_news: NewsCallback | None = None,
    start: Any = None,
    bound: int | None = None,
    from_heuristic: bool | None = None,
    **options: Any,
) -> OptimizeResult:
    """The optimum of a problem kind, a certificate answer and the best bound proven; for
    placement, n queens of greatest total weight.

    The arguments and errors all entry points share are in ``queenslab.api``'s docstring.

    Args:
        weights: an n x n matrix of integers within +-10^12: required by the placement
            problem, refused by a kind that takes none.
        seed: makes randomised backends (``graph-search``) reproducible.
        on_news: called as an anytime search finds a better answer or bound
            (``core.run.NewsCallback``), and a few times a second while it waits.
        start: an answer to begin from, in the kind's JSON form (a previous result's
            ``answer``); checked by the kind first, it is the first news and the result is
            never worse (``core.warm_start``).
        bound: a bound on the optimum proven elsewhere (a lower bound when minimising, an
            upper one when maximising, e.g. a previous result's ``bound``): stated in the
            model and kept in the result. It must be proven: it is not checked.
        from_heuristic: True: run ``graph-search`` first, with half the time and CPU
            limits, and start from its answer; False: never; None: as measured fastest for this
            backend, kind and n when no model, symmetry or start is given
            (``problems.defaults``: colouring, whose cover search refutes n colours and
            the heuristic's n + 1 meets that bound). ``stats["start"]`` says which ran:
            ``heuristic``, ``given`` or ``none``.

    Returns:
        An ``OptimizeResult``: status ``optimal`` (proven), ``feasible`` (an answer found
        before the limit, not proven best), ``infeasible`` or ``limit``; ``objective``,
        ``answer`` (checked by the kind's own checker, as JSON data; for placement the
        ``Placement``, also as ``placement``), ``bound`` and ``gap``.

    Raises:
        StoppedWithAnswer: Ctrl-C or SIGTERM came; its ``result`` is the best answer and
            bound found, checked.

    Example:
        >>> import numpy as np
        >>> ql.optimize(4, weights=np.arange(16).reshape(4, 4), backend="cpsat").objective
        30
        >>> best = ql.optimize(5, kind="domination", backend="milp")
        >>> best.status, best.objective, best.bound, len(best.answer)
        (<Status.OPTIMAL: 'optimal'>, 3, 3, 3)
    """
    instance = make_problem(n, givens, variant, blocked, kind)
    question = _question(instance, kind, model, symmetry, weights)
    _weighted(question)
    question = warm_start.warmed(question, instance.board, start, bound)
    _counted_here(cpu_limit, options.get("scheduler"))
    engine = _resolve(Task.OPTIMIZE, instance, question, backend, options)
    modelled = _modelled(engine, Task.OPTIMIZE, question)
    searcher = _heuristic(from_heuristic, instance, engine.name, question)
    run = Run(seed, time_limit, cpu_limit=cpu_limit, on_news=on_news)
    warm_start.announce(question, run)
    run.stats["start"] = "heuristic" if searcher else "none" if start is None else "given"

    def work() -> OptimizeResult:
        nonlocal question  # started from the heuristic's answer: kept on a stop too
        if searcher is not None:
            question, proven = _heuristic_start(searcher, instance, run, question)
            if proven is not None:
                return proven
        return engine.optimize(instance, run, question)

    cpu_start = cpu_seconds()
    try:
        result = _timed(engine, Task.OPTIMIZE, instance, run, question, work)
    except KeyboardInterrupt as stop:
        stopped = OptimizeResult.of_news(run.news, instance.kind, Status.INTERRUPTED)
        best = warm_start.kept(question, stopped)
        best.seconds, best.cpu_seconds = run.elapsed(), cpu_seconds() - cpu_start
        _identify(best, instance, engine.name)
        _checked_optimum(question, instance, best, modelled)
        best.freeze()
        raise StoppedWithAnswer(best, stop) from stop
    _checked_optimum(question, instance, warm_start.kept(question, result), modelled)
    result.freeze()
    return result


def _heuristic(
    asked: bool | None, instance: Problem, backend: str, question: Question
) -> Backend | None:
    """The graph-search backend when it runs first (``optimize``'s ``from_heuristic``);
    a one-line UsageError for a start given too or a kind it has no search for."""
    if asked is None:
        asked = defaults.from_heuristic(instance, backend, question)
    elif asked and question.start is not None:
        raise UsageError("give a start or from_heuristic, not both")
    if not asked:
        return None
    question.refuse_size(instance.n)  # the model it starts is refused: before any search
    return registry.resolve(Task.OPTIMIZE, instance, "graph-search")


def _heuristic_start(
    searcher: Backend, instance: Problem, run: Run, question: Question
) -> tuple[Question, OptimizeResult | None]:
    """``question`` begun from ``searcher``'s best answer, checked; as it was when it found
    none. The search has half the time and CPU the run has left (``_half_of``), so the
    model it starts has at least the other half. Its result too when it is proven optimal
    (the answer meets a bound the search proved, as an n-colouring meets the clique
    bound): no model need be built, and ``stats["proven_by"]`` says so."""
    ahead = _half_of(run)
    found = searcher.optimize(instance, ahead, question)
    run.stats.add(ahead.stats)
    if found.answer is None:
        return question, None
    started = warm_start.warmed(
        question, instance.board, question.kind.to_json(found.answer), question.bound
    )
    if run.news.objective != found.objective:  # not told by the search itself
        warm_start.announce(started, run)
    if found.status is not Status.OPTIMAL:
        return started, None
    run.stats["proven_by"] = f"{searcher.name}: its answer meets the bound it proved"
    return started, found


def _half_of(run: Run) -> Run:
    """A run with ``run``'s seed and half the time and CPU it has left, whose news are
    ``run``'s: what a search ahead of the main one may spend."""

    def half(left: float | None) -> float | None:
        return None if left is None else max(MIN_TIME_LIMIT, left / 2)

    def tell(event: str, news: News, _: float) -> None:
        if event == "tick":
            run.tick()
        else:
            run.learn(event, news)

    return Run(run.seed, half(run.remaining()), cpu_limit=half(run.cpu_left()), on_news=tell)


@_entry("kind", "value", "backend")
def decide(
    n: int | Problem,
    *,
    kind: KindArgument = None,
    value: int | None = None,
    backend: str | None = None,
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    model: str | None = None,
    symmetry: str = "none",
    time_limit: float | None = None,
    cpu_limit: float | None = None,
    proof: str | None = None,
    progress: ProgressCallback | None = None,
    split: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    axioms: str = "all",
    **options: Any,
) -> DecideResult:
    """Is there an answer of value ``value`` or better (at most ``value`` for a minimum,
    at least for a maximum)? One feasibility search.

    The arguments and errors all entry points share are in ``queenslab.api``'s docstring.

    Args:
        value: the value asked about, a whole number.
        proof: a folder (created if missing) where the ``sat`` backend writes the CNF and
            the solver's proof of a ``no``, checked by the project's own checker
            (``queenslab.proofs``) before the result says ``proof == "checked"``.
        progress: called with (bytes, total bytes) of the proof as it is checked, or with
            (cubes refuted, cubes) with ``split``.
        split: cube and conquer (``models.zero_one.split``, sat and cpsat): 2^split cubes
            fixing the variables of the board's ``split`` cells of highest degree, solved
            ``workers`` at a time; no only when every cube is refuted (with ``proof``:
            each cube's CNF and checked proof in ``proof/cube-K``).
        scheduler: with ``split``, solve the cubes as tasks on this Dask scheduler.
        checkpoint: with ``split``, an SQLite file keeping the refuted cubes: a rerun of the
            same question solves only the others.
        axioms: ``"all"`` (the default): the model states every fact it adds beyond the
            board's rules (a theorem's bound, implied sums, its own symmetry breaking);
            ``"none"``: only those asked for (``symmetry``), so that a no, and its proof,
            are about the board alone. Always a model backend's formula, never a search
            of a backend's own.

    Returns:
        A ``DecideResult``: status ``yes`` with ``answer`` (checked by the kind's own
        checker) and its ``objective``; ``no`` (proven), ``limit`` or ``unknown``. A no
        names the facts its formula assumed (``assumptions``; None without a formula).

    Example:
        >>> yes = ql.decide(5, kind="domination", value=3, backend="cpsat")
        >>> yes.status, ql.decide(5, kind="domination", value=2).status
        (<Status.YES: 'yes'>, <Status.NO: 'no'>)
    """
    instance = make_problem(n, (), variant, blocked, kind)
    if value is None:
        raise UsageError("decide needs the value to ask about (--value K)")
    _counted_here(cpu_limit, scheduler)
    asked = integer(value, "value", 0, 10**9)
    question = _question(instance, kind, model, symmetry, axioms=axioms)
    _weighted(question)
    if split is None and (scheduler or checkpoint):
        options = {**options, **_own_split(instance, question, backend, scheduler, checkpoint)}
    pool = None  # with a split, workers are the cubes' pool (``_decide_split``), each cube on one
    if split is not None and options.get("workers") is not None:
        options = dict(options)
        pool = workers(options.pop("workers"), scheduler)
    engine = _resolve(Task.DECIDE, instance, question, backend, options)
    run = Run(None, time_limit, progress, cpu_limit=cpu_limit)
    with _proof_folder(proof):
        result = _timed(
            engine, Task.DECIDE, instance, run, question,
            lambda: engine.decide(instance, run, question, asked, proof)
            if split is None else _decide_split(engine, instance, run, question, asked, split,
                                                proof, scheduler, checkpoint, pool),
        )  # fmt: skip
    result.value = asked
    _checked_decision(question, instance, result, _modelled(engine, Task.DECIDE, question))
    result.freeze()
    return result


def _proof_folder(proof: str | None) -> contextlib.AbstractContextManager[None]:
    """The proof folder's lifetime: one this call creates and leaves empty is removed."""
    if proof is None:
        return contextlib.nullcontext()
    from queenslab.models.zero_one.proved import tidied

    return tidied(proof)


def _own_split(
    problem: Problem,
    question: Question,
    backend: str | None,
    scheduler: str | None,
    checkpoint: str | None,
) -> dict[str, str]:
    """``scheduler`` and ``checkpoint`` without ``split``: options of a backend whose own
    search is split into pieces (armies); a one-line error when the call has none."""
    own = {name: value for name, value in (("scheduler", scheduler), ("checkpoint", checkpoint))
           if value}  # fmt: skip

    def takes(name: str) -> bool:
        cls = registry.backend_class(name)
        return all(registry.uses(cls, option, Task.DECIDE, problem.kind, question.native)
                   for option in own)  # fmt: skip

    able = registry.able(Task.DECIDE, problem, registry.needs(problem), question.native)
    splitting = [name for name in able if takes(name)]
    if backend not in (None, *splitting) or not splitting:
        could = f" or -b {', '.join(splitting)}" if splitting else ""
        verb = "are" if len(own) > 1 else "is"
        raise UsageError(f"--{' and --'.join(own)} {verb} for a split proof: add --split D{could}")
    return own


def _decide_split(
    engine: Backend,
    problem: Problem,
    run: Run,
    question: Question,
    value: int,
    depth: int,
    proof: str | None,
    scheduler: str | None,
    checkpoint: str | None,
    pool: int | None,
) -> DecideResult:
    """The decision by ``depth``-cube split, ``pool`` cubes at a time (None: the backend's
    default workers)."""
    from queenslab.models.zero_one import split

    if engine.settings.get("solver_cmd") and proof is None:
        raise UsageError("--solver-cmd and --split do not go together: cubes run in python-sat")
    depth = integer(depth, "split", 1, split.MAX_DEPTH)
    translator = getattr(engine, "translator", engine.name)
    settings = engine.settings if pool is None else {**engine.settings, "workers": pool}
    return split.decide(
        translator, settings, problem, run, question, value, depth, scheduler, checkpoint, proof
    )


@_entry("format", "out")
def export(
    n: int | Problem,
    *,
    format: str,
    out: TextIO | None = None,
    kind: KindArgument = None,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    weights: Any = None,
    model: str | None = None,
    symmetry: str = "none",
    encoding: str = "pairwise",
) -> str | None:
    """The question in a solver's input format (``queens export``): its kind's 0-1 model,
    placement's too; placement asked as it is (no model, no symmetry) from the board in the
    formats that state no 0-1 model (``mzn``, ``col``), and refused in a format that cannot
    express its task (``dimacs`` has no objective).

    The arguments and errors all entry points share are in ``queenslab.api``'s docstring.

    Args:
        format: ``dimacs``, ``wcnf``, ``opb``, ``lp``, ``mps``, ``cpsat``, ``mzn``,
            ``col`` (``queenslab.exports.FORMATS``).
        out: a text stream to write to; None: the text is returned.
        weights: the placement problem's weights (an objective to maximise).
        encoding: the cardinality encoding of the CNF formats.

    Returns:
        The text when ``out`` is None, else None.

    Example:
        >>> ql.export(4, format="dimacs", kind="domination", model="cells").splitlines()[9]
        'p cnf 80 201'
    """
    from queenslab import exports

    instance = make_problem(n, givens, variant, blocked, kind)
    question = _question(instance, kind, model, symmetry, weights)
    text = io.StringIO()
    target = text if out is None else out
    placement = exports.Instance(instance, question.kind.weights)
    own = question.native and instance.kind == "placement"  # N-queens asked as it is
    write_board = exports.board_writer(placement, format) if own else None
    if write_board is not None:
        write_board(placement, target)
    else:
        write = exports.model_writer(format)
        question = _default_model(instance, question)
        built = question.build(instance.board)
        about = question.kind.formulations()[question.kind.model_name(question.model)]
        write(exports.ModelInstance(instance, built, question.symmetry, encoding, about), target)
    return text.getvalue() if out is None else None


@_entry("kind", "model", "symmetry")
def problem_model(
    n: int | Problem,
    *,
    kind: KindArgument = None,
    model: str | None = None,
    symmetry: str = "none",
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    weights: Any = None,
) -> BoolModel:
    """The 0-1 model of problem kind ``problem`` (None: the Problem's own) on a board, as
    every model backend receives it (``queens export --problem`` writes it).

    Example:
        >>> ql.problem_model(4, kind="domination", model="cells").stats()
        {'variables': 16, 'clauses': 16, 'linear_constraints': 1}
    """
    instance = make_problem(n, (), variant, blocked, kind)
    return _default_model(instance, _question(instance, kind, model, symmetry, weights)).build(
        instance.board
    )


def _default_model(instance: Problem, question: Question) -> Question:
    """The question with the model and symmetry every task would build when none was
    asked for (``problems.defaults.chosen``, the one rule), for export and problem_model."""
    model, symmetry, _ = defaults.chosen(instance, None, question)
    return replace(question, model=model, symmetry=symmetry)
