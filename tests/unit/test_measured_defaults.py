"""The measured defaults: the generated table is well-formed, the defaults follow it, and
the line saying a run is beyond its backend's reach shows on a terminal only."""

from __future__ import annotations

import importlib
import io
import time
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

import queenslab as ql
from queenslab import registry
from queenslab.cli.reach import say_beyond_reach
from queenslab.core.backend import Task
from queenslab.core.kind import SYMMETRY_CHOICES
from queenslab.core.problem import MAX_N, Problem
from queenslab.problems import defaults, kind, kind_names, measured

ROOT = Path(__file__).resolve().parents[2]


def check_ranges(rows: list[tuple]) -> None:
    """From 1 to MAX_N, each range where the last ended."""
    assert rows[0][0] == 1 and rows[-1][1] == MAX_N
    for row, following in pairwise(rows):
        assert row[0] <= row[1] and following[0] == row[1] + 1


def check_setting(
    problem: str, backend: str, model: str | None, symmetry: str | None, start: str | None
) -> None:
    """A model, symmetry and start of the kind; None for all: the backend's own search."""
    assert backend in registry.names()
    if model is None:
        cls = registry.backend_class(backend)
        assert symmetry is start is None and cls.searches_itself(Task.OPTIMIZE, problem)
        return
    assert model in kind(problem).models and symmetry in SYMMETRY_CHOICES
    assert start in ("none", defaults.HEURISTIC)


def test_the_table_names_existing_kinds_backends_models_and_symmetries():
    assert measured.BEST
    # each kind names the run that measured it (a run may measure some kinds again)
    assert measured.SOURCES.keys() == measured.BEST.keys() and all(measured.SOURCES.values())
    assert measured.BUDGET.keys() == measured.BEST.keys()
    assert all(budget > 0 for budget in measured.BUDGET.values())
    for problem, rows in measured.BEST.items():
        assert problem in kind_names()
        check_ranges(rows)
        for first, _, backend, *chosen in rows:
            check_setting(problem, backend, *chosen)
            # the fastest setting is its backend's fastest at that n
            setting = defaults.setting(Problem(first, kind=problem), backend)
            assert setting == (None if chosen[0] is None else tuple(chosen))
        for backend, own in measured.SETTINGS[problem].items():
            check_ranges(own)
            for _, _, *chosen in own:
                check_setting(problem, backend, *chosen)
        assert set(measured.SETTINGS[problem]) <= set(measured.REACH[problem])


@pytest.fixture
def table(monkeypatch):
    """A table of our own: sat with hilbert and lex-leader fastest up to n = 7, milp past
    it; milp proved n <= 13, sat n <= 14, which from n = 8 starts from the heuristic."""
    monkeypatch.setattr(measured, "BUDGET", {"domination": 600.0})
    best = [
        (1, 7, "sat", "hilbert", "lex-leader", "none"),
        (8, MAX_N, "milp", "lines", "none", "none"),
    ]
    monkeypatch.setattr(measured, "BEST", {"domination": best})
    settings = {
        "sat": [(1, 7, "hilbert", "lex-leader", "none"), (8, MAX_N, "lines", "none", "heuristic")],
        "milp": [(1, MAX_N, "lines", "none", "none")],
    }
    monkeypatch.setattr(measured, "SETTINGS", {"domination": settings})
    monkeypatch.setattr(measured, "REACH", {"domination": {"milp": 13, "sat": 14}})


def test_the_default_backend_is_the_fastest_measured_for_the_n(table):
    assert registry.resolve(Task.OPTIMIZE, Problem(6, kind="domination")).name == "sat"
    assert registry.resolve(Task.DECIDE, Problem(9, kind="domination")).name == "milp"
    # not measured: another variant, another kind, placement
    toroidal = Problem(6, variant="toroidal", kind="domination")
    assert registry.resolve(Task.OPTIMIZE, toroidal).name == "milp"
    assert registry.resolve(Task.OPTIMIZE, Problem(6, kind="peaceable")).name == "milp"
    assert registry.resolve(Task.SOLVE, Problem(8)).name == "small"
    # a model or symmetry asked for: the fastest still first, since it builds models
    asked = registry.resolve(Task.OPTIMIZE, Problem(6, kind="domination"), native=False)
    assert asked.name == "sat"


def test_the_model_and_symmetry_are_the_backends_fastest_and_the_stats_say_so(table):
    result = ql.optimize(6, problem="domination")
    assert (result.backend, result.objective) == ("sat", 3)
    assert (result.stats["model"], result.stats["symmetry"]) == ("hilbert", "lex-leader")
    named = ql.decide(6, "domination", 3, "milp")
    assert named.status == "yes"
    assert (named.stats["model"], named.stats["symmetry"]) == ("lines", "none")
    assert result.stats["start"] == "none"
    asked = ql.optimize(6, problem="domination", backend="sat", model="cells")
    assert (asked.stats["model"], asked.stats["symmetry"]) == ("cells", "none")
    unmeasured = ql.optimize(5, problem="domination", variant="toroidal", backend="sat")
    assert (unmeasured.stats["model"], unmeasured.stats["symmetry"]) == ("cells", "none")


def test_a_measured_warm_start_runs_the_heuristic_first_and_the_stats_say_so(table):
    """Where the backend's measured setting starts from graph-search (sat from n = 8 here),
    a run with no model, symmetry or start begins from its answer; asked otherwise, not."""
    result = ql.optimize(8, problem="domination", backend="sat")
    assert (result.status, result.objective) == ("optimal", 5)
    chosen = (result.stats["model"], result.stats["symmetry"], result.stats["start"])
    assert chosen == ("lines", "none", "heuristic") and result.stats["moves"] > 0
    off = ql.optimize(8, problem="domination", backend="sat", from_heuristic=False)
    assert (off.stats["model"], off.stats["start"]) == ("lines", "none")
    assert "moves" not in off.stats  # graph-search's steps
    asked = ql.optimize(8, problem="domination", backend="sat", model="lines")
    assert asked.stats["start"] == "none"
    with pytest.raises(ql.UsageError, match="not both"):
        ql.optimize(8, problem="domination", start=result.answer, from_heuristic=True)


@pytest.mark.slow
def test_the_heuristic_ahead_of_the_model_leaves_it_half_the_time(monkeypatch):
    """A warm start's search that would run to the limit gets half of it, so the model it
    starts is still built and states its bound (domination n = 12: at least 6 queens)."""
    from queenslab.heuristics import graph_search

    def endless(board, graph, rng, stop, *rest):  # rest: patience (and tell)
        while not stop():
            time.sleep(0.01)
        return graph_search.Outcome([(0, c) for c in range(board.n)], 1)  # row 0 covers all

    monkeypatch.setitem(graph_search.SEARCHES, "domination", endless)
    result = ql.optimize(12, problem="domination", backend="sat", model="lines",
                         from_heuristic=True, time_limit=8)  # fmt: skip
    assert result.stats["start"] == "heuristic" and result.bound == 6


def test_coloring_with_no_options_starts_the_cover_from_the_heuristic():
    """Issue 48: where n colours do not suffice (n = 8, 9, 10) the cover search refutes n
    and the heuristic's n + 1 colouring meets that bound, so the measured default for a
    colouring beyond n = 7 is the exact cover started from graph-search's answer, and
    ``optimize`` with no options proves it."""
    for n in range(8, 13):
        problem = Problem(n, kind="coloring")
        setting = defaults.setting(problem, defaults.best_backend(problem))
        assert setting is not None and setting[::2] == ("exact-cover", defaults.HEURISTIC)
    result = ql.optimize(8, problem="coloring")
    assert (result.status, result.objective) == ("optimal", 9)
    assert (result.stats["model"], result.stats["start"]) == ("exact-cover", "heuristic")
    small = ql.optimize(6, problem="coloring")  # no 6-cover: the bound 7, then a colouring
    assert (small.status, small.objective, small.stats["model"]) == ("optimal", 7, "exact-cover")


def test_domination_past_the_small_boards_follows_the_frontier_recipe():
    """Issue 48: `optimize 15 --problem domination` with no options took the 8 s winner at
    n = 13 (a finder's: there the optimum meets its lower bound) and did not prove 9 in
    660 s. Measured at the frontier too, the default from n = 14 on is the recipe there
    (sat, lines, lex-leader, from the heuristic: 25.5 CPU s at n = 14, against 140)."""
    for n in (14, 15, 16, 20):
        problem = Problem(n, kind="domination")
        assert defaults.best_backend(problem) == "sat"
        assert defaults.setting(problem, "sat") == ("lines", "lex-leader", defaults.HEURISTIC)


@pytest.fixture
def bench(monkeypatch):
    """benchmarks/defaults.py as a module, its runs stubbed: proven in the CPU seconds
    ``bench.seconds`` gives each backend."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    module = importlib.import_module("defaults")
    seconds = {"sat": 1.0, "maxsat": 5.0}

    def measure(asked, budget):
        return replace(asked, status="optimal", cpu=seconds[asked.backend])

    monkeypatch.setattr(module, "measure", measure)
    monkeypatch.setattr(module, "seconds", seconds, raising=False)
    return module


def test_the_benchmark_fails_loudly_when_a_recipe_beats_the_default(bench, monkeypatch, capsys):
    """``benchmarks/defaults.py --check``: a documented recipe that proves the optimum at its
    n in fewer CPU seconds than the default the table chose there is named on stderr, and
    the run ends with exit code 1; a default as fast passes."""
    default = [(1, MAX_N, "maxsat", "precedence", "none", "none")]
    monkeypatch.setattr(measured, "BEST", {"coloring": default})
    recipe = "-b sat --model exact-cover --from-heuristic"
    monkeypatch.setattr(bench, "RECIPES", {"coloring": (5, recipe)})
    with pytest.raises(SystemExit) as failed:
        bench.main(["--check"])
    assert failed.value.code == 1
    err = capsys.readouterr().err
    assert (
        f"a recipe beats the default: `queens optimize 5 --problem coloring {recipe}` proved "
        "the optimum in 1.0 CPU s; the default (maxsat precedence none none): optimal in 5.0"
    ) in err
    bench.seconds["maxsat"] = 0.5
    bench.main(["--check"])
    assert "recipe" not in capsys.readouterr().err


def test_a_run_beyond_its_backends_reach_names_a_better_one(table):
    problem = Problem(16, kind="domination")
    assert defaults.beyond_reach(problem, "milp") == (
        "domination n=16 is beyond what milp proved in 600 CPU s here (n <= 13); "
        "sat with --model lines --from-heuristic reached n = 14"
    )
    assert defaults.beyond_reach(replace(problem, n=13), "milp") is None
    assert defaults.beyond_reach(problem, "sat").endswith("no backend measured proved more")
    assert defaults.beyond_reach(problem, "cpsat") is None  # not measured: nothing to say
    assert defaults.beyond_reach(replace(problem, variant="toroidal"), "milp") is None


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream", [Terminal, io.StringIO])
def test_the_line_shows_on_a_terminal_and_not_when_piped(table, monkeypatch, stream):
    err = stream()
    monkeypatch.setattr("sys.stderr", err)
    say_beyond_reach(Problem(16), "domination", "milp")
    say_beyond_reach(Problem(16), "domination", None)  # the default: the best measured
    expected = "queens: domination n=16 is beyond what milp proved in 600 CPU s here"
    assert err.getvalue().startswith(expected) if stream is Terminal else not err.getvalue()
