"""The defaults the benchmark measured (``problems.measured``), looked up per kind and n.

No backend, model or symmetry setting proves every kind fastest at every size, and a
setting that wins at one n can lose at the next (docs/problems.md), so the defaults are
what ``benchmarks/defaults.py`` measured on the standard board, not a guess: the backend
tried first when none is named (``registry``), the model and symmetry a model backend
builds when none is asked for, whether graph-search's answer starts it (``api.optimize``
runs it first: where the cover search refutes n colours, the heuristic's n + 1 is what
proves the optimum), and the one line saying a run is beyond what its backend proved.
Other variants and boards with blocked cells were not measured: they keep the kind's first
model, no symmetry breaking, no warm start and the registry's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from queenslab.boards import DEFAULT_VARIANT
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.problems import measured

#: The table's start that runs graph-search first (``--from-heuristic``); "none": no start.
HEURISTIC = "heuristic"


def _measured(problem: Problem) -> bool:
    return problem.variant == DEFAULT_VARIANT and not problem.blocked


def _at(rows: Sequence[tuple[Any, ...]], n: int) -> tuple[Any, ...] | None:
    """The row of ``(first n, last n, ...)`` ranges that holds ``n``, less its range."""
    row = _row(rows, n)
    return None if row is None else tuple(row[2:])


def _row(rows: Sequence[tuple[Any, ...]], n: int) -> tuple[Any, ...] | None:
    """The row of ``(first n, last n, ...)`` ranges that holds ``n``."""
    return next((tuple(row) for row in rows if row[0] <= n <= row[1]), None)


def best_backend(problem: Problem) -> str | None:
    """The backend that proved this kind's optimum fastest at this n; None: not measured."""
    if not _measured(problem):
        return None
    row = _at(measured.BEST.get(problem.kind, []), problem.n)
    return None if row is None else row[0]


def _setting_row(problem: Problem, backend: str) -> tuple[Any, ...] | None:
    """The table's row ``(first n, last n, model, symmetry, start)`` of ``backend`` that
    holds this board; None where nothing was measured for it."""
    if not _measured(problem):
        return None
    return _row(measured.SETTINGS.get(problem.kind, {}).get(backend, []), problem.n)


def setting(problem: Problem, backend: str) -> tuple[str, str, str] | None:
    """The (model, symmetry, start) with which ``backend`` proved this kind fastest at
    this n."""
    row = _setting_row(problem, backend)
    return None if row is None else (row[2], row[3], row[4])


def from_heuristic(problem: Problem, backend: str, question: Question) -> bool:
    """Whether ``backend`` starts from graph-search's answer: it did in its measured
    setting, and neither a model, a symmetry nor a start was asked for (``tuned`` then
    builds the rest of that setting)."""
    if not question.native or question.start is not None:
        return False
    chosen = setting(problem, backend)
    return chosen is not None and chosen[2] == HEURISTIC


def tuned(
    problem: Problem,
    run: Run,
    backend: str,
    question: Question,
    builds: bool = True,
    *,
    counts: bool = False,
) -> Question:
    """The question ``backend`` answers, by the one rule every task and entry point
    follows (``chosen``); the run's stats say which model and symmetry ran and why
    (``stats["chosen"]``). ``builds``: the caller builds the model itself, so the question
    names the model built even where none was measured; False (a portfolio) leaves a
    question without a measured setting to its members as it came."""
    model, symmetry, why = chosen(problem, backend, question, counts=counts)
    if why == NOT_MEASURED and not builds:
        return question
    run.choose(backend, model, symmetry, why)
    return replace(question, model=model, symmetry=symmetry)


#: ``chosen``'s reason where the table has no row for the board.
NOT_MEASURED = "the kind's first model: nothing measured for this board"


def chosen(
    problem: Problem, backend: str | None, question: Question, *, counts: bool = False
) -> tuple[str, str, str]:
    """The one rule for the model and symmetry a question is built with, for optimize,
    decide, solve, count, enumerate, export and ``problem_model`` alike: (model, symmetry,
    why). What was asked for, else what ``backend`` (None: the backend measured fastest)
    proved fastest at this n, else the kind's first model without symmetry breaking.
    ``counts``: the answers are counted, so a measured model that cannot count them is
    passed over, and no symmetry breaking is added (it would count classes); nor with
    ``axioms="none"``, which states only what was asked for."""
    kind = question.kind
    if question.model is not None or question.symmetry != "none":
        return kind.model_name(question.model), question.symmetry, "asked"
    name = backend if backend is not None else best_backend(problem)
    row = None if name is None else _setting_row(problem, name)
    if row is None or (counts and row[2] in kind.uncounted):
        first = kind.counting_model_name(None) if counts else kind.model_name(None)
        return first, question.symmetry, NOT_MEASURED
    # axioms="none": symmetry breaking only when asked, whatever was measured
    own = counts or question.axioms == "none"
    symmetry = question.symmetry if own else row[3]
    return row[2], symmetry, f"measured fastest on {name} for n = {row[0]}..{row[1]}"


def beyond_reach(problem: Problem, backend: str) -> str | None:
    """One line when ``problem`` is larger than any n ``backend`` proved within the
    benchmark's budget, naming the backend that proved the largest one (the fastest of
    those at that n) and its setting; None within its reach or where nothing was measured."""
    reach = measured.REACH.get(problem.kind, {})
    if not _measured(problem) or backend not in reach or problem.n <= reach[backend]:
        return None
    proved = f"n <= {reach[backend]}" if reach[backend] else "none of the n measured"
    line = (
        f"{problem.kind} n={problem.n} is beyond what {backend} proved in "
        f"{measured.BUDGET[problem.kind]:g} CPU s here ({proved})"
    )
    top = max(reach.values())
    if top <= reach[backend]:
        return line + "; no backend measured proved more"
    furthest = [name for name in reach if reach[name] == top]
    fastest = best_backend(replace(problem, n=top))
    best = fastest if fastest in furthest else furthest[0]
    chosen = setting(replace(problem, n=top), best)
    return line + f"; {best}{flags(chosen)} reached n = {reach[best]}"


def flags(chosen: tuple[str, str, str] | None) -> str:
    """The options of a measured (model, symmetry, start) as a user types them."""
    if chosen is None:
        return ""
    model, symmetry, start = chosen
    words = f" with --model {model}"
    if symmetry != "none":
        words += f" --symmetry {symmetry}"
    return words + (" --from-heuristic" if start == HEURISTIC else "")
