"""Local search on the queens graph: checked answers, the published optimum on small boards,
the same answer for the same seed, and a stop honoured whenever it comes."""

from __future__ import annotations

import pytest

from queenslab.boards import board
from queenslab.core.run import never
from queenslab.heuristics.graph_search import SEARCHES, search
from queenslab.problems import kind as problem_kind


def valid(b, kind: str, answer) -> str | None:
    """What the kind's own checker says."""
    return problem_kind(kind).check(b, answer)


def value(kind: str, answer) -> int:
    return problem_kind(kind).value(answer)


@pytest.mark.parametrize("kind", SEARCHES)
@pytest.mark.parametrize(
    ("n", "variant", "blocked"),
    [(1, "standard", ()), (2, "standard", ()), (7, "standard", ()), (9, "toroidal", ()),
     (8, "superqueens", ()), (8, "standard", ((0, 0), (3, 4), (7, 7))), (12, "standard", ())],
)  # fmt: skip
def test_every_answer_passes_the_checker(kind, n, variant, blocked):
    b = board(n, variant, blocked)
    outcome = search(b, kind, seed=3, should_stop=never, patience=300)
    assert valid(b, kind, outcome.answer) is None


#: The published optima at n = 8 (A075458, A075324, A250000, A088202): the search's
#: answers must never beat them, and reach them on this small board.
OPTIMA_8 = {"domination": 5, "independent-domination": 5, "peaceable": 9, "coloring": 9}


@pytest.mark.parametrize("kind", SEARCHES)
def test_small_boards_reach_the_published_optimum(kind):
    outcome = search(board(8), kind, seed=1, should_stop=never)
    assert value(kind, outcome.answer) == OPTIMA_8[kind]


@pytest.mark.parametrize("kind", SEARCHES)
def test_the_same_seed_gives_the_same_answer(kind):
    b = board(9)
    first = search(b, kind, seed=5, should_stop=never, patience=200)
    again = search(b, kind, seed=5, should_stop=never, patience=200)
    assert first == again


@pytest.mark.parametrize("kind", SEARCHES)
@pytest.mark.parametrize("calls", [1, 40])
def test_a_stop_ends_the_search_with_a_checked_answer(kind, calls):
    """The search asks ``should_stop`` at every step and returns its best answer so far."""
    asked = 0

    def should_stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > calls

    # colouring: a blocked cell keeps the folded search out (it finds 14 colours, and ends)
    b = board(14, blocked=[(0, 0)] if kind == "coloring" else [])
    outcome = search(b, kind, seed=2, should_stop=should_stop, patience=10**9)
    assert asked == calls + 1
    assert outcome.steps <= calls + 1
    assert valid(b, kind, outcome.answer) is None


def test_a_stop_in_the_folded_search_keeps_the_greedy_colouring():
    """The first ask comes in the folded search (n = 12 is not coloured greedily with 12
    colours); the stop ends the whole search there with its best, checked."""
    asked = []
    outcome = search(board(12), "coloring", 0, lambda: not asked.append(1), patience=10**9)
    assert len(asked) == 1 and outcome.steps == 0
    assert valid(board(12), "coloring", outcome.answer) is None


def test_the_folded_search_colours_a_whole_board_with_n_colours():
    outcome = search(board(12), "coloring", seed=1, should_stop=never, patience=10)
    assert valid(board(12), "coloring", outcome.answer) is None
    assert len(outcome.answer.classes) == outcome.bound == 12


def test_independent_domination_may_be_impossible():
    """Blocked 2:2 is reached only from 0:0 and blocked 2:1 only from 0:1, which attack."""
    b = board(3, blocked=[(r, c) for r in range(3) for c in range(3) if r or c == 2])
    assert (
        search(b, "independent-domination", seed=0, should_stop=never, patience=50).answer is None
    )
    assert search(b, "domination", seed=0, should_stop=never, patience=50).answer == {
        (0, 0),
        (0, 1),
    }


def test_unknown_kinds_are_refused():
    with pytest.raises(ValueError, match="placement"):
        search(board(4), "placement", seed=0, should_stop=never)


def test_a_board_with_no_open_cell_has_the_empty_colouring():
    """The modular start had no colour to compare (max() of nothing: a traceback)."""
    outcome = search(board(2, blocked=((0, 0), (0, 1), (1, 0), (1, 1))), "coloring", 1, never)
    assert value("coloring", outcome.answer) == 0 and outcome.bound == 0
