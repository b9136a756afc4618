"""Peaceable armies of queens: every formulation against brute force and published values,
the checker against hand-made wrong answers, lex-leader against the orbits it keeps."""

from __future__ import annotations

from itertools import combinations

import pytest

from queenslab.boards import board
from queenslab.boards.symmetry import D4
from queenslab.problems import kind
from queenslab.problems.peaceable import FORMULATIONS, Armies, Peaceable
from tests import oracle
from tests.bool_solver import answers, optimum

MODELS = list(FORMULATIONS)
#: OEIS A250000, n = 1..8 (for comparison only; nothing in the package reads it).
PUBLISHED = [0, 0, 1, 2, 4, 5, 7, 9]


def brute_force(n: int, variant: str = "standard", blocked=()) -> int:
    """The largest m: for each white army, black takes every cell no white queen reaches."""
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in set(blocked)]
    best = 0
    for size in range(1, len(cells) + 1):
        for white in combinations(cells, size):
            free = sum(
                cell not in white and not any(oracle.attack(n, variant, w, cell) for w in white)
                for cell in cells
            )
            best = max(best, min(size, free))
    return best


def solve(n: int, model: str, symmetry: str = "none", variant="standard", blocked=()) -> int:
    b = board(n, variant, blocked)
    kind_ = Peaceable()
    bm = kind_.build(b, model, symmetry)
    value, values = optimum(bm)
    armies = kind_.decode(b, bm, values)
    assert kind_.check(b, armies) is None, armies
    assert kind_.value(armies) == value
    return value


def test_the_kind_is_registered():
    assert isinstance(kind("peaceable"), Peaceable)
    assert next(iter(Peaceable.models)) == "lines"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("n", range(1, 6))
def test_every_model_finds_the_published_optimum(model, n):
    assert solve(n, model) == PUBLISHED[n - 1]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    ("n", "variant", "blocked"),
    [(3, "standard", ()), (4, "standard", ()), (4, "toroidal", ()), (4, "superqueens", ()),
     (4, "standard", ((0, 0), (1, 2), (3, 3))), (3, "toroidal", ((1, 1),))],
)  # fmt: skip
def test_every_model_agrees_with_brute_force(model, n, variant, blocked):
    assert solve(n, model, variant=variant, blocked=blocked) == brute_force(n, variant, blocked)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("n", [4, 5])
def test_lex_leader_keeps_the_optimum(model, n):
    assert solve(n, model, "lex-leader") == PUBLISHED[n - 1]


def _orbits(n: int, found: set[tuple[bool, ...]], swap: bool) -> int:
    """Classes of answers (white half, black half) under D4 and, optionally, the swap."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    seen, classes = set(), 0
    for answer in found:
        if answer in seen:
            continue
        classes += 1
        half = len(cells)
        for symmetry in D4:
            index = [cells.index(symmetry.cell(n, *cell)) for cell in cells]
            w = tuple(answer[index.index(i)] for i in range(half))
            b = tuple(answer[half + index.index(i)] for i in range(half))
            seen.update({w + b, b + w} if swap else {w + b})
    return classes


@pytest.mark.parametrize("model", MODELS)
def test_lex_leader_keeps_exactly_one_answer_per_class(model):
    n, b, k = 4, board(4), Peaceable()
    everything = answers(k.build(b, model), PUBLISHED[n - 1])
    leaders = answers(k.build(b, model, "lex-leader"), PUBLISHED[n - 1])
    assert leaders <= everything
    assert len(leaders) == _orbits(n, everything, swap=not FORMULATIONS[model].black_forced)


def test_models_agree_on_the_number_of_optima():
    b, k = board(4), Peaceable()
    counts = {
        model: len(answers(k.build(b, model), 2)) for model in MODELS if model != "white-only"
    }
    assert len(set(counts.values())) == 1, counts


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("n", [6, 7])
def test_every_model_finds_the_published_optimum_on_bigger_boards(model, n):
    assert solve(n, model, "lex-leader") == PUBLISHED[n - 1]


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
    wrapped = Armies(frozenset({(0, 1)}), frozenset({(1, 0)}))
    assert k.check(board(4), wrapped) is not None  # an ordinary diagonal
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
