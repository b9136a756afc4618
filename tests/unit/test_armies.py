"""Peaceable armies of queens: every formulation on every translator that takes it, against
brute force and the published values; the checker against hand-made wrong answers;
lex-leader against the classes of optima it keeps."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from queenslab.boards import board
from queenslab.core.errors import UsageError
from queenslab.core.result import Status
from queenslab.lab import reference
from queenslab.problems import kind
from queenslab.problems.peaceable import FORMULATIONS, Armies, Peaceable
from tests import oracle
from tests.translators import ENUMERATORS, TRANSLATORS, load_solvers, optima, solve

MODELS = list(FORMULATIONS)
#: Bosch's big-M rows have coefficients above 1: no cardinality encoding takes them.
TAKES = {model: list(TRANSLATORS) for model in MODELS} | {"bosch": ["cpsat", "milp"]}
PAIRS = [(model, name) for model in MODELS for name in TAKES[model]]


@pytest.fixture(scope="module", autouse=True)
def loaded():
    load_solvers()


@cache
def brute_force(n: int, variant: str = "standard", blocked: tuple = ()) -> int:
    """The largest m: for each white army, black takes every cell no white queen reaches."""
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in blocked]
    best = 0
    for size in range(1, len(cells) + 1):
        for white in combinations(cells, size):
            free = sum(
                cell not in white and not any(oracle.attack(n, variant, w, cell) for w in white)
                for cell in cells
            )
            best = max(best, min(size, free))
    return best


def value(name: str, n: int, model: str, symmetry: str = "none", **board_args) -> int:
    outcome = solve(name, "peaceable", n, model, symmetry, **board_args)
    assert outcome.status is Status.OPTIMAL
    return outcome.objective


def test_the_kind_is_registered_with_lines_first():
    assert isinstance(kind("peaceable"), Peaceable)
    assert next(iter(Peaceable.models)) == "lines"


@pytest.mark.parametrize(("model", "name"), PAIRS)
def test_every_model_proves_the_published_optimum(model, name):
    for n in range(1, 6):
        expected = reference.optimum("peaceable", n)
        assert value(name, n, model) == expected == (brute_force(n) if n <= 4 else expected)


BOARDS = [
    (4, "toroidal", ()),
    (4, "superqueens", ()),
    (4, "standard", ((0, 0), (1, 2), (3, 3))),
    (3, "toroidal", ((1, 1),)),
]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("n", "variant", "blocked"), BOARDS)
def test_every_model_agrees_with_brute_force_on_every_variant(model, n, variant, blocked):
    for name in ("cpsat", "sat") if model != "bosch" else ("cpsat", "milp"):
        got = value(name, n, model, variant=variant, blocked=blocked)
        assert got == brute_force(n, variant, blocked)


def classes(armies: list[Armies], n: int, swap: bool) -> int:
    """Optima up to the square's symmetries and, with ``swap``, the colours (without it,
    black is forced by white and the answer keeps only some of its cells: white alone)."""
    seen = set()
    for army in armies:
        symmetries = board(n).symmetries()
        if swap:
            images = {(s.cells(n, army.white), s.cells(n, army.black)) for s in symmetries}
            images |= {(b, w) for w, b in images}
        else:
            images = {(s.cells(n, army.white), ()) for s in symmetries}
        seen.add(min(images))
    return len(seen)


@pytest.mark.parametrize("name", ENUMERATORS)
@pytest.mark.parametrize("model", MODELS)
def test_lex_leader_keeps_exactly_one_optimum_per_class(name, model):
    if name not in TAKES[model]:
        pytest.skip(f"{name} does not take the {model} model")
    every = optima(name, "peaceable", 4, model)
    leaders = optima(name, "peaceable", 4, model, "lex-leader")
    assert {a.white for a in leaders} <= {a.white for a in every}
    swap = not FORMULATIONS[model].black_forced
    assert len(leaders) == classes(every, 4, swap) == classes(leaders, 4, swap)


def test_models_agree_on_the_optima():
    """The line flags and pairs state one set of armies; white-only counts white armies."""
    found = {model: set(optima("sat", "peaceable", 4, model)) for model in ("lines", "basic")}
    assert found["lines"] == found["basic"]
    assert len(found["lines"]) == len(optima("cpsat", "peaceable", 4, "bosch"))


@pytest.mark.parametrize("name", ["sat", "maxsat"])
def test_the_cnf_refuses_bosch_in_one_line(name):
    with pytest.raises(UsageError, match="backends that take it: cpsat, milp"):
        solve(name, "peaceable", 4, "bosch")


#: The symmetry setting each backend proves peaceable armies fastest with
#: (docs/problems.md: lex-leader constraints slow HiGHS down 2.5-10x).
BEST_SYMMETRY = {"cpsat": "lex-leader", "milp": "none", "sat": "lex-leader"}


@pytest.mark.slow
@pytest.mark.parametrize("name", BEST_SYMMETRY)
def test_the_default_model_proves_the_published_optimum_up_to_8(name):
    for n in range(6, 9):
        proven = value(name, n, "lines", BEST_SYMMETRY[name])
        assert proven == reference.optimum("peaceable", n)


B = board(4)


@pytest.mark.parametrize(
    ("armies", "complaint"),
    [
        (Armies(frozenset({(0, 0)}), frozenset()), "1 white queens against 0 black"),
        (Armies(frozenset({(0, 0)}), frozenset({(0, 3)})), "attacked along a row"),
        (Armies(frozenset({(0, 0)}), frozenset({(3, 0)})), "attacked along a col"),
        (Armies(frozenset({(0, 0)}), frozenset({(3, 3)})), "attacked along a diag_down"),
        (Armies(frozenset({(0, 3)}), frozenset({(3, 0)})), "attacked along a diag_up"),
        (Armies(frozenset({(1, 1)}), frozenset({(1, 1)})), "holds a white and a black queen"),
        (Armies(frozenset({(0, 0)}), frozenset({(4, 1)})), "blocked or missing"),
    ],
)
def test_the_checker_rejects_wrong_armies(armies, complaint):
    assert complaint in Peaceable().check(B, armies)


def test_the_checker_knows_every_variant_and_blocked_cells():
    k = Peaceable()
    knight = Armies(frozenset({(0, 0)}), frozenset({(1, 2)}))
    assert k.check(board(4), knight) is None
    assert "leap" in k.check(board(4, "superqueens"), knight)
    across = Armies(frozenset({(0, 0)}), frozenset({(1, 3)}))
    assert k.check(board(4), across) is None
    assert "diag" in k.check(board(4, "toroidal"), across)
    behind_a_block = Armies(frozenset({(0, 0)}), frozenset({(0, 2)}))
    assert "row" in k.check(board(4, blocked=[(0, 1)]), behind_a_block)
    on_block = Armies(frozenset({(0, 1)}), frozenset({(3, 3)}))
    assert "blocked" in k.check(board(4, blocked=[(0, 1)]), on_block)


def test_answers_serialise_as_cells():
    k = Peaceable()
    armies = Armies(frozenset({(0, 0), (0, 1)}), frozenset({(2, 3), (3, 2)}))
    assert k.to_json(armies) == {"white": [[0, 0], [0, 1]], "black": [[2, 3], [3, 2]]}
    assert k.value(armies) == 2
