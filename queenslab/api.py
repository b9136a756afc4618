"""The public entry points: pick a backend, run it, time it, and check everything it returns.

Every placement any backend returns passes through ``_checked``: an O(n) test of the
board's rules (the variant's lines and leaps, blocked cells) and of the given queens. A
backend that returns a wrong board, claims infeasibility without being complete, or
reports a negative count raises ``BackendBug`` instead of reaching the user.

A problem kind other than placement (``problem="domination"``...) is answered through the
backends' ``*_kind`` methods; every answer they return passes the kind's own checker
(``ProblemKind.check``, which shares no code with the models), its value must be the one
reported, and a bound must lie on the right side of it.

Timing: ``startup_seconds`` (imports, compiled kernels) is measured apart; ``seconds`` is
the backend's work, split into ``build_seconds`` and ``solve_seconds``. The time limit
covers the whole call, start-up and model building included.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from queenslab import registry
from queenslab.boards import DEFAULT_VARIANT, Cell
from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import StoppedWithAnswer, UsageError
from queenslab.core.integers import integer
from queenslab.core.kind import ProblemKind, Question, check_symmetry
from queenslab.core.model import BoolModel, Sense
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, DecideResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import NewsCallback, ProgressCallback, Run, cpu_seconds
from queenslab.problems import DEFAULT_KIND, kind

R = TypeVar("R", SolveResult, CountResult, OptimizeResult, DecideResult)


class BackendBug(AssertionError):
    """A backend broke its contract: an invalid board, a lost given queen, a false claim."""


def make_problem(
    n: int | Problem,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    problem: str | None = None,
) -> Problem:
    """``n`` itself when it is a Problem (of kind ``problem`` when named), else the problem
    these arguments describe; the kind's name is checked here."""
    if isinstance(n, Problem):
        if tuple(givens) or tuple(blocked) or variant != DEFAULT_VARIANT:
            raise UsageError("pass givens, variant and blocked cells inside the Problem")
        instance = n if problem is None else replace(n, kind=problem)
    else:
        instance = Problem(n, tuple(givens), variant, tuple(blocked), problem or DEFAULT_KIND)
    question = kind(instance.kind)
    if instance.kind != DEFAULT_KIND:
        if instance.givens:
            raise UsageError(f"problem {instance.kind!r} takes no given queens")
        if instance.blocked and not question.takes_blocked:
            raise UsageError(f"problem {instance.kind!r} takes no blocked cells")
    return instance


def _question(
    problem: Problem, model: str | None, symmetry: str, weights: Any = None, counts: bool = False
) -> Question:
    """What a backend is asked about a kind other than placement, every part checked;
    ``counts``: its answers are counted or enumerated, which some models cannot do."""
    question = kind(problem.kind, weights)
    name = question.counting_model_name(model) if counts else question.model_name(model)
    return Question(question, name, check_symmetry(symmetry))


def _placement_only(problem: Problem, model: str | None, symmetry: str) -> None:
    """Placement runs on the backends' own models: refuse a kind's model or symmetry."""
    if model is not None or symmetry != "none":
        raise UsageError(
            "--model and --symmetry choose a problem kind's model (--problem); placement "
            "counts classes with --unique"
        )


def _checked_answer(question: ProblemKind, problem: Problem, answer: Any, backend: str) -> int:
    """The value of an answer the kind's own checker accepts; BackendBug otherwise."""
    why = question.check(problem.board, answer)
    if why is not None:
        raise BackendBug(f"{backend} returned a wrong {problem.kind} answer ({why}): {answer!r}")
    return question.value(answer)


def _checked_optimum(question: ProblemKind, problem: Problem, result: OptimizeResult) -> None:
    """Check the answer, its value and the bound; then keep the answer as JSON data."""
    backend = result.backend
    if result.answer is None:
        if result.status in (Status.OPTIMAL, Status.FEASIBLE):
            raise BackendBug(f"{backend} said {result.status} without an answer")
        return
    value = _checked_answer(question, problem, result.answer, backend)
    if result.objective != value:
        raise BackendBug(f"{backend} reported {result.objective}, its answer gives {value}")
    if result.bound is not None:
        below = question.sense is Sense.MIN
        if (result.bound > value) if below else (result.bound < value):
            raise BackendBug(f"{backend} bound {result.bound} is beyond its answer's {value}")
        if result.status is Status.OPTIMAL and result.bound != value:
            raise BackendBug(f"{backend} said optimal with bound {result.bound} and {value}")
    result.answer = question.to_json(result.answer)


def _checked_options(options: dict[str, Any]) -> dict[str, Any]:
    """The backend options, ``workers`` held to the API's rule for integers
    (``core.integers``): -1 and 0 get the same message, "1" and 1.0 are refused."""
    if options.get("workers") is None:
        return options
    return {**options, "workers": integer(options["workers"], "workers", 1)}


def _checked(problem: Problem, placement: Placement, backend: str) -> Placement:
    if placement.n != problem.n:
        raise BackendBug(f"{backend} returned {placement.n} queens for n={problem.n}")
    if not problem.board.is_valid(placement.cols):
        why = problem.board.check(placement.cols).describe()
        raise BackendBug(f"{backend} returned an invalid placement ({why}): {placement!r}")
    if not problem.keeps_givens(placement):
        raise BackendBug(f"{backend} moved a given queen: {placement!r}")
    return placement


def _timed(
    engine: Backend,
    task: Task,
    problem: Problem,
    run: Run,
    work: Callable[[], R],
    unique: bool = False,
) -> R:
    """Load the backend for ``task``, run ``work``, and fill the result's timing and identity."""
    start, cpu_start = time.perf_counter(), cpu_seconds()
    try:
        engine.load_for(task, problem, unique)
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
    return result


def _identify(result: R, problem: Problem, backend: str) -> None:
    result.n, result.variant, result.backend = problem.n, problem.variant, backend
    result.problem = problem


def solve(
    n: int | Problem,
    backend: str | None = None,
    *,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    seed: int | None = None,
    time_limit: float | None = None,
    **options: Any,
) -> SolveResult:
    """Find one placement of n queens (keeping ``givens``) with the chosen backend.

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).
        seed: makes randomised backends reproducible (the same seed, the same board).

    Returns:
        A ``SolveResult``: ``status`` (solved, infeasible, limit, unknown), the validated
        ``placement`` when solved, ``seconds`` and ``stats``.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        StoppedWithAnswer: for a kind, Ctrl-C or SIGTERM came; its ``result`` is the best
            answer and bound found, checked.
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.

    Example:
        >>> ql.solve(8, "cpsat", givens=[(0, 3)]).placement.cols[0]
        3
    """
    problem = make_problem(n, givens, variant, blocked)
    if problem.kind != DEFAULT_KIND:
        raise UsageError(
            f"solve places n queens; ask the {problem.kind} problem with optimize, count or "
            "enumerate"
        )
    run = Run(seed, time_limit)
    engine = registry.resolve(Task.SOLVE, problem, backend, _checked_options(options))
    result = _timed(engine, Task.SOLVE, problem, run, lambda: engine.solve(problem, run))
    if result.placement is not None:
        _checked(problem, result.placement, engine.name)
    elif result.status is Status.SOLVED:
        raise BackendBug(f"{engine.name} said solved without a placement")
    if result.status is Status.INFEASIBLE and engine.family is Family.HEURISTIC:
        raise BackendBug(f"{engine.name} is incomplete but claimed that no solution exists")
    return result


class Solutions(Iterator[Any]):
    """The stream of ``enumerate_solutions``: each answer checked as it comes.

    Placements for the placement problem; for another kind, its optimal answers as JSON
    data (``ProblemKind.to_json``). After the stream ends, ``stats`` and ``seconds``
    describe the run (as on results).
    """

    def __init__(
        self, engine: Backend, problem: Problem, run: Run, question: Question | None = None
    ) -> None:
        self.backend, self.problem, self.run = engine.name, problem, run
        self.stats = run.stats
        self.seconds = 0.0
        self._engine = engine
        self._question = question
        self._stream: Iterator[Any] | None = None
        self._value: int | None = None  # of the first answer: every other must equal it

    def __next__(self) -> Any:
        start = time.perf_counter()
        try:
            if self._stream is None:
                self._engine.load_for(Task.ENUMERATE, self.problem)
                self.stats["startup_seconds"] = time.perf_counter() - start
                start = time.perf_counter()
                self._stream = iter(self._open())
            answer = next(self._stream)
        except KeyboardInterrupt:
            self.run.stop()
            raise
        finally:
            self.seconds += time.perf_counter() - start
            self.stats["solve_seconds"] = self.seconds - self.stats.get("build_seconds", 0.0)
        if self._question is None:
            return _checked(self.problem, answer, self.backend)
        return self._checked_optimum(answer)

    def _open(self) -> Iterator[Any]:
        if self._question is None:
            return self._engine.enumerate(self.problem, self.run)
        return self._engine.enumerate_kind(self.problem, self.run, self._question)

    def _checked_optimum(self, answer: Any) -> Any:
        assert self._question is not None
        question = self._question.kind
        value = _checked_answer(question, self.problem, answer, self.backend)
        if self._value is None:
            self._value = value
        elif value != self._value:
            raise BackendBug(f"{self.backend} streamed answers of value {self._value} and {value}")
        return question.to_json(answer)

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


def enumerate_solutions(
    n: int | Problem,
    backend: str | None = None,
    *,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    time_limit: float | None = None,
    problem: str | None = None,
    model: str | None = None,
    symmetry: str = "none",
    **options: Any,
) -> Solutions:
    """Stream every solution (each validated) without holding them all in memory; for a
    problem kind, every optimal answer (its optimum proven first).

    Bad arguments raise here, at the call; the search starts at the first ``next()``.

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).
        problem: the question (``queenslab.problems.KINDS``): ``"placement"`` (n queens,
            the default), ``"domination"``, ``"independent-domination"``...
        model: the kind's formulation (``ProblemKind.models``; None: its first).
        symmetry: ``"lex-leader"`` keeps one answer per class of the board's symmetries.

    Returns:
        An iterator of ``Placement`` (of the kind's answers as JSON data for another
        problem); close it (or leave a ``with`` block) to stop early.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        StoppedWithAnswer: for a kind, Ctrl-C or SIGTERM came; its ``result`` is the best
            answer and bound found, checked.
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.
        LimitReached: (while iterating) the time limit passed first.
        Undecided: (while iterating) the solver failed, in its own words (milp).

    Example:
        >>> sum(1 for _ in ql.enumerate_solutions(6))
        4
    """
    instance = make_problem(n, givens, variant, blocked, problem)
    question = None
    if instance.kind == DEFAULT_KIND:
        _placement_only(instance, model, symmetry)
    else:
        question = _question(instance, model, symmetry, counts=True)
    engine = registry.resolve(Task.ENUMERATE, instance, backend, _checked_options(options))
    return Solutions(engine, instance, Run(None, time_limit), question)


def count(
    n: int | Problem,
    backend: str | None = None,
    *,
    unique: bool = False,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    time_limit: float | None = None,
    progress: ProgressCallback | None = None,
    profile: bool = False,
    problem: str | None = None,
    model: str | None = None,
    symmetry: str = "none",
    **options: Any,
) -> CountResult:
    """Count all solutions (and, with ``unique``, the classes under the board's symmetries);
    for a problem kind, its optimal answers (the optimum proven first, and in
    ``CountResult.optimum``), or their classes with ``symmetry="lex-leader"``.

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).
        unique: also count the classes under the board's symmetry group.
        progress: called with (finished, total) work units as a long count goes.
        profile: record ``stats["profile"][d]``, the nodes of the search tree with d
            queens placed (backends with the ``profile`` feature).
        problem: the question (``queenslab.problems.KINDS``): ``"placement"`` (n queens,
            the default), ``"domination"``, ``"independent-domination"``...
        model: the kind's formulation (``ProblemKind.models``; None: its first).
        symmetry: ``"lex-leader"`` keeps one answer per class of the board's symmetries.

    Returns:
        A ``CountResult``: ``total`` (and ``unique``), or status ``limit`` with ``total``
        None when the time limit came first.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        StoppedWithAnswer: for a kind, Ctrl-C or SIGTERM came; its ``result`` is the best
            answer and bound found, checked.
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.

    Example:
        >>> ql.count(13, variant="toroidal").total
        4524
    """
    instance = make_problem(n, givens, variant, blocked, problem)
    if instance.kind != DEFAULT_KIND:
        if unique or profile:
            raise UsageError(
                f"the {instance.kind} problem counts its classes with --symmetry lex-leader "
                "(--unique and --profile are for placements)"
            )
        return _count_kind(instance, _question(instance, model, symmetry, counts=True), backend,
                           Run(None, time_limit, progress), options)  # fmt: skip
    _placement_only(instance, model, symmetry)
    if unique and instance.givens:
        raise UsageError("--unique counts symmetry classes of a board without givens")
    features = registry.needs(instance, unique=unique, profile=profile)
    engine = registry.resolve(Task.COUNT, instance, backend, _checked_options(options), features)
    run = Run(None, time_limit, progress, profile)
    result = _timed(
        engine, Task.COUNT, instance, run, lambda: engine.count(instance, run, unique), unique
    )
    return _checked_count(result, engine.name)


def _count_kind(
    problem: Problem,
    question: Question,
    backend: str | None,
    run: Run,
    options: dict[str, Any],
) -> CountResult:
    engine = registry.resolve(Task.COUNT, problem, backend, _checked_options(options))
    result = _timed(
        engine, Task.COUNT, problem, run, lambda: engine.count_kind(problem, run, question)
    )
    result.kind = problem.kind
    return _checked_count(result, engine.name)


def _checked_count(result: CountResult, backend: str) -> CountResult:
    for value in (result.total, result.unique):
        if value is not None and value < 0:
            raise BackendBug(f"{backend} reported a negative count {value}")
    if result.status is Status.SOLVED and result.total is None:
        raise BackendBug(f"{backend} finished a count without a total")
    return result


def optimize(
    n: int | Problem,
    weights: Any = None,
    backend: str | None = None,
    *,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    time_limit: float | None = None,
    problem: str | None = None,
    model: str | None = None,
    symmetry: str = "none",
    seed: int | None = None,
    cpu_limit: float | None = None,
    on_news: NewsCallback | None = None,
    **options: Any,
) -> OptimizeResult:
    """Place n queens to maximise the total weight of the occupied cells; or answer a
    problem kind (``problem="domination"``...): its optimum, a certificate answer and the
    best bound proven.

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).
        weights: an n x n matrix of integers within +-10^12: required by the placement
            problem, refused by a kind that takes none.
        problem: the question (``queenslab.problems.KINDS``): ``"placement"`` (n queens,
            the default), ``"domination"``, ``"independent-domination"``...
        model: the kind's formulation (``ProblemKind.models``; None: its first).
        symmetry: ``"lex-leader"`` keeps one answer per class of the board's symmetries.
        seed: makes randomised backends (``graph-search``) reproducible.
        cpu_limit: CPU seconds for the whole call, its worker processes included.
        on_news: for a kind, called as an anytime search finds a better answer or bound
            (``core.run.NewsCallback``), and a few times a second while it waits.

    Returns:
        An ``OptimizeResult``: status ``optimal`` (proven), ``feasible`` (a board found
        before the limit, not proven best), ``infeasible`` or ``limit``; ``objective``
        and the validated ``placement``; for a kind, ``answer`` (checked by the kind's
        own checker, as JSON data), ``bound`` and ``gap``.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        StoppedWithAnswer: for a kind, Ctrl-C or SIGTERM came; its ``result`` is the best
            answer and bound found, checked.
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.

    Example:
        >>> import numpy as np
        >>> ql.optimize(4, np.arange(16).reshape(4, 4), "cpsat").objective
        30
        >>> best = ql.optimize(5, problem="domination", backend="milp")
        >>> best.status, best.objective, best.bound, len(best.answer)
        (<Status.OPTIMAL: 'optimal'>, 3, 3, 3)
    """
    from queenslab.io.weights import check_weights

    instance = make_problem(n, givens, variant, blocked, problem)
    matrix = None if weights is None else check_weights(weights, instance.n)
    if instance.kind != DEFAULT_KIND:
        shaped = model is not None or symmetry != "none"
        run = Run(seed, time_limit, cpu_limit=cpu_limit, on_news=on_news)
        return _optimize_kind(instance, _question(instance, model, symmetry, matrix), backend,
                              run, _checked_options(options), shaped)  # fmt: skip
    _placement_only(instance, model, symmetry)
    if matrix is None:
        raise UsageError("the placement problem needs weights (or choose a --problem)")
    engine = registry.resolve(Task.OPTIMIZE, instance, backend, _checked_options(options))
    run = Run(seed, time_limit, cpu_limit=cpu_limit)
    result = _timed(
        engine, Task.OPTIMIZE, instance, run, lambda: engine.optimize(instance, run, matrix)
    )
    if result.placement is not None:
        placement = _checked(instance, result.placement, engine.name)
        achieved = sum(int(matrix[r, c]) for r, c in enumerate(placement))
        if result.objective != achieved:
            raise BackendBug(
                f"{engine.name} reported objective {result.objective}, board gives {achieved}"
            )
    elif result.status in (Status.OPTIMAL, Status.FEASIBLE):
        raise BackendBug(f"{engine.name} said {result.status} without a placement")
    return result


def _optimize_kind(
    problem: Problem,
    question: Question,
    backend: str | None,
    run: Run,
    options: dict[str, Any],
    shaped: bool = False,
) -> OptimizeResult:
    """``shaped``: the caller chose the model or its symmetry breaking, which a backend
    that builds no model (a local search) would ignore: refused there."""
    engine = registry.resolve(Task.OPTIMIZE, problem, backend, _checked_options(options))
    if shaped and engine.family is not Family.MODEL:
        raise UsageError(
            f"backend {engine.name!r} builds no model: --model and --symmetry are for the "
            "model backends (family model in `queens backends`)"
        )
    try:
        work = lambda: engine.optimize_kind(problem, run, question)  # noqa: E731
        result = _timed(engine, Task.OPTIMIZE, problem, run, work)
    except KeyboardInterrupt as stop:
        best = OptimizeResult.of_news(run.news, problem.kind)
        best.seconds = run.elapsed()
        _identify(best, problem, engine.name)
        _checked_optimum(question.kind, problem, best)
        raise StoppedWithAnswer(best, stop) from stop
    result.kind = problem.kind
    _checked_optimum(question.kind, problem, result)
    if result.status is Status.INFEASIBLE and engine.family is Family.HEURISTIC:
        raise BackendBug(f"{engine.name} is incomplete but claimed that no answer exists")
    return result


def decide(
    n: int | Problem,
    problem: str | None = None,
    value: int | None = None,
    backend: str | None = None,
    *,
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    time_limit: float | None = None,
    model: str | None = None,
    symmetry: str = "none",
    proof: str | None = None,
    progress: ProgressCallback | None = None,
    split: int | None = None,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    **options: Any,
) -> DecideResult:
    """Is there an answer of problem kind ``problem`` of value ``value`` or better (at most
    ``value`` for a minimum, at least for a maximum)? One feasibility search.

    Args:
        n: the board size, or a ready ``Problem`` (then ``variant`` and ``blocked`` are
            ignored).
        problem: the question (``queenslab.problems.KINDS``) other than placement.
        value: the value asked about, a whole number.
        backend: a model backend (cpsat, sat, milp, maxsat); None picks one.
        variant, blocked, time_limit, model, symmetry, **options: as for ``optimize``.
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

    Returns:
        A ``DecideResult``: status ``yes`` with ``answer`` (checked by the kind's own
        checker) and its ``objective``; ``no`` (proven), ``limit`` or ``unknown``.

    Raises:
        UsageError: a bad argument; the placement problem (it has no value to decide).
        CapabilityError: the backend cannot decide this kind.
        BackendBug: an answer that fails the checker or misses the value.

    Example:
        >>> ql.decide(5, "domination", 3, "cpsat").status, ql.decide(5, "domination", 2).status
        (<Status.YES: 'yes'>, <Status.NO: 'no'>)
    """
    instance = make_problem(n, (), variant, blocked, problem)
    if instance.kind == DEFAULT_KIND:
        raise UsageError("decide asks a problem's value: choose a --problem other than placement")
    if value is None:
        raise UsageError("decide needs the value to ask about (--value K)")
    if split is None and (scheduler or checkpoint):
        raise UsageError("--scheduler and --checkpoint serve --split D: add it")
    asked = integer(value, "value", 0, 10**9)
    question = _question(instance, model, symmetry)
    engine = registry.resolve(Task.DECIDE, instance, backend, _checked_options(options))
    run = Run(None, time_limit, progress)
    result = _timed(
        engine, Task.DECIDE, instance, run,
        lambda: engine.decide_kind(instance, run, question, asked, proof)
        if split is None else _decide_split(engine, instance, run, question, asked, split,
                                            proof, scheduler, checkpoint),
    )  # fmt: skip
    result.kind, result.value = instance.kind, asked
    _checked_decision(question.kind, instance, result, engine)
    return result


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
) -> DecideResult:
    from queenslab.models.zero_one import split

    if engine.settings.get("solver_cmd") and proof is None:
        raise UsageError("--solver-cmd and --split do not go together: cubes run in python-sat")
    depth = integer(depth, "split", 1, split.MAX_DEPTH)
    translator = getattr(engine, "translator", engine.name)
    return split.decide(
        translator, engine.settings, problem, run, question, value, depth, scheduler, checkpoint,
        proof,
    )  # fmt: skip


def _checked_decision(
    question: ProblemKind, problem: Problem, result: DecideResult, engine: Backend
) -> None:
    """A yes needs an answer the kind's checker accepts, of the value asked or better; a
    no needs a complete backend. The answer is then kept as JSON data."""
    name = engine.name
    if result.status is Status.NO and engine.family is Family.HEURISTIC:
        raise BackendBug(f"{name} is incomplete but claimed that no answer exists")
    if result.answer is None:
        if result.status is Status.YES:
            raise BackendBug(f"{name} said yes without an answer")
        return
    found = _checked_answer(question, problem, result.answer, name)
    if (found > result.value) if question.sense is Sense.MIN else (found < result.value):
        raise BackendBug(f"{name} answered yes with value {found}, beyond {result.value}")
    result.objective = found
    result.answer = question.to_json(result.answer)


def problem_model(
    n: int | Problem,
    problem: str | None = None,
    model: str | None = None,
    symmetry: str = "none",
    *,
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    weights: Any = None,
) -> BoolModel:
    """The 0-1 model of problem kind ``problem`` (None: the Problem's own) on a board, as
    every model backend receives it (``queens export --problem`` writes it).

    Example:
        >>> ql.problem_model(4, "domination").stats()
        {'variables': 16, 'clauses': 16, 'linear_constraints': 0}
    """
    from queenslab.io.weights import check_weights

    instance = make_problem(n, (), variant, blocked, problem)
    matrix = None if weights is None else check_weights(weights, instance.n)
    return _question(instance, model, symmetry, matrix).build(instance.board)
