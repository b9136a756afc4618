"""Colouring the queens graph: every formulation on every translator, against an exact
colouring by brute force and the published chromatic numbers; the checker against wrong
colourings; symmetry breaking that keeps a colouring of every class."""

from __future__ import annotations

import importlib
from functools import cache

import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.core.errors import UsageError
from queenslab.core.result import Status
from queenslab.exact import dancing_cells
from queenslab.lab import reference
from queenslab.problems import coloring_exact_cover as exact_cover
from queenslab.problems import kind
from queenslab.problems.coloring import Coloring, ColourClasses, clique_bound, dsatur
from tests import kind_oracle, oracle
from tests.translators import ENUMERATORS, TRANSLATORS, load_solvers, optima, solve

MODELS = list(Coloring.models)


@pytest.fixture(scope="module", autouse=True)
def loaded():
    load_solvers()


@cache
def chromatic(n: int, variant: str = "standard", blocked: tuple = ()) -> int:
    """The fewest colours, by backtracking over the cells in order with 1, 2, ... colours."""
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in blocked]
    near = [[j for j in range(i) if oracle.attack(n, variant, cells[i], cells[j])]
            for i in range(len(cells))]  # fmt: skip

    def colourable(k: int, colour: list[int]) -> bool:
        i = len(colour)
        if i == len(cells):
            return True
        for c in range(min(k, max(colour, default=-1) + 2)):  # a new colour: the next one
            if all(colour[j] != c for j in near[i]) and colourable(k, [*colour, c]):
                return True
        return False

    return next(k for k in range(len(cells) + 1) if colourable(k, []))


def value(name: str, n: int, model: str, symmetry: str = "none", **board_args) -> int:
    outcome = solve(name, "coloring", n, model, symmetry, **board_args)
    assert outcome.status is Status.OPTIMAL
    return outcome.objective


def test_the_kind_is_registered_with_precedence_first():
    assert isinstance(kind("coloring"), Coloring)
    assert next(iter(Coloring.models)) == "precedence"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("name", TRANSLATORS)
def test_every_model_proves_the_published_chromatic_number(model, name):
    for n in range(1, 6):
        assert value(name, n, model) == reference.optimum("coloring", n) == chromatic(n)


BOARDS = [(4, "toroidal", ()), (5, "toroidal", ()), (4, "standard", ((0, 0), (1, 2), (3, 3))),
          (5, "standard", ((2, 2),))]  # fmt: skip


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("n", "variant", "blocked"), [*BOARDS, (4, "superqueens", ())])
def test_every_model_agrees_with_brute_force(model, n, variant, blocked):
    if model == "assignment" and variant == "superqueens":
        pytest.skip("10 colours of 11 interchangeable: proving it takes minutes")
    if model == "exact-cover" and blocked:
        pytest.skip("exact cover needs a board without blocked cells (refused: tested below)")
    for name in ENUMERATORS:
        got = value(name, n, model, variant=variant, blocked=blocked)
        assert got == chromatic(n, variant, blocked)


@pytest.mark.parametrize("name", ENUMERATORS)
def test_lex_leader_and_precedence_keep_a_colouring_of_every_class(name):
    """Value precedence names the colours once; lex-leader over the board's symmetries then
    keeps at least one colouring of each class (not exactly one: the products of a board
    symmetry and a renaming of colours get no constraint of their own)."""
    b = board(4)
    every = set(optima(name, "coloring", 4, "precedence"))
    leaders = set(optima(name, "coloring", 4, "precedence", "lex-leader"))
    assert every == set(optima(name, "coloring", 4, "representatives"))
    assert leaders <= every
    for p in every:
        orbit = {
            ColourClasses.of({s.cell(4, *cell): c for cell, c in p.colours().items()})
            for s in b.symmetries()
        }
        assert orbit & leaders


def test_the_representatives_model_refuses_lex_leader():
    with pytest.raises(UsageError, match="representatives"):
        Coloring().build(board(4), "representatives", "lex-leader")


@pytest.mark.parametrize(("n", "variant"), [(5, "standard"), (5, "toroidal"), (4, "toroidal"),
                                             (4, "standard")])  # fmt: skip
def test_exact_cover_counts_the_colourings_of_brute_force(n, variant):
    """Where n colours do (n = 5) and do not (n = 4) suffice: the optimum and
    every optimal colouring, as classes, as the brute force finds them."""
    best, count = kind_oracle.optimum("coloring", n, variant)
    for name in ENUMERATORS:
        assert value(name, n, "exact-cover", variant=variant) == best
    if n == 5:  # the fallback's optima are the precedence model's, tested above
        found = set(optima("sat", "coloring", n, "exact-cover", variant=variant))
        assert len(found) == count
        assert all(Coloring().check(board(n, variant), p) is None for p in found)


def test_exact_cover_refuses_blocked_cells_and_lex_leader():
    with pytest.raises(UsageError, match="without blocked cells"):
        Coloring().build(board(5, blocked=((0, 0),)), "exact-cover")
    with pytest.raises(UsageError, match="lex-leader"):
        Coloring().build(board(5), "exact-cover", "lex-leader")


@pytest.mark.parametrize("n", [5, 7, 11])
def test_polyas_translates_are_the_cover_without_a_search(monkeypatch, n):
    """For n prime to 6 the n shifts of c = 2r (mod n) partition the board (Pólya 1918)."""
    monkeypatch.setattr(dancing_cells, "first_cover", _no_search)
    found = exact_cover.solutions(board(n))
    chosen = exact_cover.cover(board(n), found)
    cells = sorted(cell for i in chosen for cell in exact_cover.cells(found[i]))
    assert len(chosen) == n and cells == sorted(board(n).open_cells())


def _no_search(*_args):
    raise AssertionError("searched where a cover was known")


@pytest.mark.parametrize("n", [4, 6, 8])
def test_without_a_cover_the_search_proves_there_is_none(n):
    assert exact_cover.cover(board(n), exact_cover.solutions(board(n))) is None


@pytest.mark.parametrize("backend", ["sat", "cpsat", "milp", "maxsat"])
def test_the_cover_found_while_building_is_proven_optimal_before_any_solver(monkeypatch, backend):
    """The cover meets the clique bound the model states: no solver runs (each translator
    fails here if called), and decide answers yes from it too."""
    translator = importlib.import_module(f"queenslab.models.zero_one.{backend}")
    monkeypatch.setattr(translator, "optimize", _no_search)
    result = ql.optimize(7, problem="coloring", backend=backend, model="exact-cover")
    assert (result.status, result.objective, result.bound) == (ql.Status.OPTIMAL, 7, 7)
    assert len(result.answer) == 7  # classes, checked by the api with the kind's checker
    decided = ql.decide(7, "coloring", 7, backend, model="exact-cover")
    assert decided.status is ql.Status.YES and len(decided.answer) == 7


def test_a_heuristic_colouring_at_the_clique_bound_builds_no_model(monkeypatch):
    """With no options n = 12 starts from graph-search, whose folded search finds 12
    colours, the clique bound it proved: no solution is enumerated for a model, no solver
    runs, and the stats say who proved it."""
    monkeypatch.setattr(exact_cover, "solutions", _no_search)
    monkeypatch.setattr(importlib.import_module("queenslab.models.zero_one.sat"), "optimize",
                        _no_search)  # fmt: skip
    result = ql.optimize(12, problem="coloring", time_limit=600)
    assert (result.status, result.objective, result.bound) == (ql.Status.OPTIMAL, 12, 12)
    assert result.stats["start"] == "heuristic"
    assert result.stats["proven_by"].startswith("graph-search")


def test_decide_below_the_cover_asks_the_solver_and_says_no():
    assert ql.decide(7, "coloring", 6, "sat", model="exact-cover").status is ql.Status.NO


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 13))
def test_exact_cover_proves_the_published_chromatic_number(n):
    """Through the api, which starts from the cover the building found; where there is
    none (n = 2, 3, 4, 6, 8, 9, 10), the heuristic's colouring starts the fallback, whose
    bound n + 1 the exhausted search proved."""
    start = None
    if n in (8, 9, 10):
        start = ql.optimize(n, problem="coloring", backend="graph-search", time_limit=60).answer
    result = ql.optimize(n, problem="coloring", backend="sat", model="exact-cover", start=start)
    published = reference.optimum("coloring", n)
    assert (result.status, result.objective) == (ql.Status.OPTIMAL, published)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cpsat", "sat"])
def test_the_default_model_proves_the_published_value_up_to_8(name):
    for n in range(6, 9):
        assert value(name, n, "precedence") == reference.optimum("coloring", n)


@pytest.mark.parametrize(("n", "variant"), [(8, "standard"), (7, "toroidal"), (6, "superqueens")])
def test_dsatur_is_a_proper_colouring_within_bounds(n, variant):
    b = board(n, variant)
    classes = ColourClasses.of(dsatur(b))
    assert Coloring().check(b, classes) is None
    assert clique_bound(b) <= len(classes.classes)


B = board(3)


def _classes(*groups):
    return ColourClasses(tuple(frozenset(g) for g in groups))


@pytest.mark.parametrize(
    ("classes", "complaint"),
    [
        (_classes([(0, 0), (1, 2), (2, 1)], [(0, 1), (1, 0)]), "has no colour"),
        (
            _classes([(0, 0), (0, 1)], *[[(r, c)] for r in (1, 2) for c in range(3)], [(0, 2)]),
            "share colour 0 and a row",
        ),
        (_classes([(0, 0)], [(0, 0)]), "two colours"),
        (_classes([(3, 0)]), "off the board"),
    ],
)
def test_the_checker_rejects_wrong_colourings(classes, complaint):
    assert complaint in Coloring().check(B, classes)


def test_the_checker_knows_leaps_and_wrapped_diagonals():
    k = Coloring()
    pairs = {(r, c) for r in range(4) for c in range(4)} - {(0, 0), (1, 2)}
    knight = ColourClasses((frozenset({(0, 0), (1, 2)}), *(frozenset({p}) for p in pairs)))
    assert k.check(board(4), knight) is None
    assert "leap" in k.check(board(4, "superqueens"), knight)
    pairs = {(r, c) for r in range(4) for c in range(4)} - {(0, 0), (1, 3)}
    wrapped = ColourClasses((frozenset({(0, 0), (1, 3)}), *(frozenset({p}) for p in pairs)))
    assert k.check(board(4), wrapped) is None
    assert "diag" in k.check(board(4, "toroidal"), wrapped)


def test_blocked_cells_take_no_colour():
    b = board(2, blocked=[(0, 0)])
    k = Coloring()
    assert "has no colour" in k.check(b, _classes([(0, 1)], [(1, 0)]))
    assert k.check(b, _classes([(0, 1)], [(1, 0)], [(1, 1)])) is None
    assert "blocked" in k.check(b, _classes([(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]))


def test_classes_compare_whatever_the_colour_names():
    a = ColourClasses.of({(0, 0): 3, (1, 2): 3, (0, 1): 0})
    assert a == ColourClasses.of({(0, 0): 0, (1, 2): 0, (0, 1): 7})
    assert a.colours() == {(0, 0): 0, (1, 2): 0, (0, 1): 1}
    assert Coloring().to_json(a) == [[[0, 0], [1, 2]], [[0, 1]]]
