"""The armies backend (exact.armies): its kernel against a brute force over the colourings
of the diagonals, its symmetry reduction against none, and its decisions, optimisations,
checkpoints, Dask runs and stops through the API. The harness (test_kind_backends.py)
holds it to the brute-force optima on every variant it declares."""

from __future__ import annotations

import itertools
import random
import sqlite3
import threading
import time

import numpy as np
import pytest

import queenslab as ql
from queenslab import registry
from queenslab.api import make_problem
from queenslab.boards import board
from queenslab.core.backend import Task
from queenslab.core.errors import StoppedWithAnswer, UsageError
from queenslab.core.run import PartRun, Run
from queenslab.exact import armies_kernel
from queenslab.exact.armies import ArmiesBackend
from queenslab.exact.armies_plan import MAX_OUTER_LINES, Picks, Plan
from tests import kind_oracle


def _diagonal_best(n: int, variant: str, blocked: set, rows: int, cols: int) -> int:
    """The most cells of the rarer colour over every colouring of the diagonals, written
    out with NumPy (no code of the search): the pair's true value."""
    wraps = variant == "toroidal"
    cells = [(r, c) for r in range(n) for c in range(n) if (r, c) not in blocked]
    ups = sorted({(r - c) % n if wraps else r - c for r, c in cells})
    downs = sorted({(r + c) % n if wraps else r + c for r, c in cells})
    lines = len(ups) + len(downs)
    colourings = (np.arange(1 << lines)[:, None] >> np.arange(lines)) & 1
    white = np.zeros(len(colourings), int)
    black = np.zeros(len(colourings), int)
    for r, c in cells:
        up = ups.index((r - c) % n if wraps else r - c)
        down = len(ups) + downs.index((r + c) % n if wraps else r + c)
        both = colourings[:, up] + colourings[:, down]
        if rows >> r & 1 and cols >> c & 1:
            white += both == 2
        elif not rows >> r & 1 and not cols >> c & 1:
            black += both == 0
    return int(np.minimum(white, black).max())


def _reaches(plan: Plan, rows: int, cols: int, target: int) -> Picks | None:
    """What this pair's answer at ``target`` is read back from, None when it falls short."""
    front = np.empty((len(plan.sides), target + 1), np.int64)
    chosen = np.empty_like(front)
    found = armies_kernel.reaches(
        rows, cols, target, plan.cells, plan.part_start, plan.part_u, plan.part_v,
        np.zeros(3, np.int64), np.zeros(1, np.uint8), front, chosen,
    )  # fmt: skip
    assert found in (armies_kernel.YES, armies_kernel.NO)
    return plan.picks(front, chosen) if found == armies_kernel.YES else None


@pytest.mark.parametrize(
    ("n", "variant", "blocked"),
    [(4, "standard", ()), (4, "standard", ((1, 2), (3, 3))), (5, "toroidal", ()),
     (4, "toroidal", ((0, 0),)), (6, "toroidal", ((2, 3),))],
)  # fmt: skip
def test_each_pair_decides_and_reads_back_its_true_value(n, variant, blocked):
    """For sampled row and column colourings: the kernel says yes exactly up to the
    brute force's value, and the answer read back at each target reaches it (at the
    value, exactly that many queens of each colour)."""
    plan = Plan.of(board(n, variant, blocked))
    rng = random.Random(n)
    for rows, cols in [(rng.randrange(1 << n), rng.randrange(1 << n)) for _ in range(25)]:
        best = _diagonal_best(n, variant, set(blocked), rows, cols)
        assert _reaches(plan, rows, cols, best + 1) is None
        for target in range(1, best + 1):
            picks = _reaches(plan, rows, cols, target)
            assert picks is not None
            armies = plan.answer(rows, cols, picks)
            assert len(armies["white"]) == len(armies["black"]) >= target
            assert kind_oracle.fault("peaceable", n, variant, blocked, armies) is None
        assert best == 0 or len(armies["white"]) == best


@pytest.mark.parametrize(("n", "blocked"), [(6, ()), (5, ((0, 1), (2, 2))), (7, ())])
def test_one_pair_per_orbit_decides_as_every_pair(n, blocked):
    """The board's symmetries and the colour swap lose no answer: at every target, the
    search of one pair per orbit says yes exactly when some pair of all 2^(2n) does."""
    plan = Plan.of(board(n, "standard", blocked))
    for target in range(1, 10):
        stop = np.zeros(1, np.uint8)
        reduced = any(plan.search(rows, target, stop, np.zeros(3, np.int64))[0] >= 0
                      for rows in plan.jobs())  # fmt: skip
        every = any(_reaches(plan, rows, cols, target) is not None
                    for rows, cols in itertools.product(range(1 << n), repeat=2))  # fmt: skip
        assert reduced == every, target


def test_the_orbits_are_about_a_sixteenth_of_the_pairs():
    """Eight symmetries of the square and the colour swap: at n = 8 the pairs searched
    are about 2^16 / 16 (a few more: pairs that a symmetry fixes have smaller orbits)."""
    plan = Plan.of(board(8))
    assert len(plan.jobs()) == 1 << 7  # the colour swap keeps the row colourings without row 7
    full = (1 << 16) - 1
    kept = sum(armies_kernel.canonical(key, full, plan.images) for key in range(1 << 16))
    assert (1 << 16) // 16 <= kept < (1 << 16) // 13


@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("variant", ["standard", "toroidal"])
def test_decide_agrees_with_the_brute_force_at_every_value(n, variant):
    best, _ = kind_oracle.optimum("peaceable", n, variant)
    for value in range(best + 2):
        result = ql.decide(n, "peaceable", value, "armies", variant=variant, workers=1)
        assert result.status == ("yes" if value <= best else "no"), (value, best)
        if result.status == "yes":
            assert result.objective >= value
            assert kind_oracle.fault("peaceable", n, variant, (), result.answer) is None


def test_random_blocked_boards_reach_the_brute_force_optimum():
    rng = random.Random(7)
    for _ in range(8):
        n = rng.randint(3, 5)
        blocked = tuple(sorted(rng.sample([(r, c) for r in range(n) for c in range(n)], n - 1)))
        variant = rng.choice(["standard", "toroidal"])
        best, _ = kind_oracle.optimum("peaceable", n, variant, blocked)
        result = ql.optimize(n, problem="peaceable", backend="armies", variant=variant,
                             blocked=blocked, workers=2)  # fmt: skip
        assert (result.status, result.objective, result.bound) == ("optimal", best, best)


def test_optimize_starts_from_a_right_start_and_refuses_a_wrong_one():
    start = ql.optimize(7, problem="peaceable", backend="armies").answer
    warm = ql.optimize(7, problem="peaceable", backend="armies", start=start)
    assert (warm.objective, warm.stats["rounds"]) == (7, 1)  # only the proof: no answer beats 7
    wrong = {"white": [[0, 0]], "black": [[0, 1]]}
    with pytest.raises(UsageError, match="not a peaceable answer"):
        ql.optimize(7, problem="peaceable", backend="armies", start=wrong)


def test_the_news_climb_to_the_optimum_and_end_on_its_bound():
    events = []

    def told(event, news, _seconds):
        events.append((event, news.objective, news.bound))

    ql.optimize(8, problem="peaceable", backend="armies", on_news=told)
    solutions = [value for event, value, _ in events if event == "solution"]
    assert solutions == sorted(set(solutions)) and solutions[-1] == 9
    assert events[0] == ("bound", None, 16) and events[-1] == ("bound", 9, 9)


def test_ctrl_c_keeps_the_best_armies_found():
    def interrupt(event, news, _):
        if event == "solution" and news.objective >= 3:
            raise KeyboardInterrupt

    with pytest.raises(StoppedWithAnswer) as stopped:
        ql.optimize(9, problem="peaceable", backend="armies", on_news=interrupt)
    best = stopped.value.result
    assert best.status == "feasible" and best.objective >= 3
    assert best.cpu_seconds > 0  # the run's, not the 0.0 of a result never timed
    assert best.bound == Plan.of(board(9)).upper_bound() == 20  # min(4 x 5, 5 x 4)
    assert best.answer["white"] and len(best.answer["white"]) == len(best.answer["black"])


def test_a_checkpoint_resumes_a_stopped_proof_and_serves_a_later_optimisation(
    tmp_path, monkeypatch
):
    """Ctrl-C in the middle of a proof keeps the refuted row colourings; the rerun
    searches only the others, and a later optimisation of the board reuses every row."""
    path = str(tmp_path / "armies.sqlite")
    whole = ql.decide(9, "peaceable", 13, "armies", workers=1)
    searched = Plan.search

    calls = []

    def interrupted(plan, rows, target, stop, counts):
        calls.extend([rows] if plan.n == 9 else [])  # not the kernels' load on a tiny board
        if len(calls) == 90:
            raise KeyboardInterrupt
        return searched(plan, rows, target, stop, counts)

    with monkeypatch.context() as patch:
        patch.setattr(Plan, "search", interrupted)
        with pytest.raises(KeyboardInterrupt):
            ql.decide(9, "peaceable", 13, "armies", workers=1, checkpoint=path)
    searched_rows = len(calls) - 1  # each refuted, the 90th interrupted
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*), MAX(total) FROM done").fetchone() == (searched_rows, 12)
    resumed = ql.decide(9, "peaceable", 13, "armies", workers=2, checkpoint=path)
    assert resumed.status == whole.status == "no"
    assert 0 < resumed.stats["pairs"] < whole.stats["pairs"]
    again = ql.decide(9, "peaceable", 14, "armies", checkpoint=path)  # bound 12 < 14 everywhere
    assert (again.status, again.stats.get("pairs", 0)) == ("no", 0)
    best = ql.optimize(9, problem="peaceable", backend="armies", checkpoint=path)
    assert (best.status, best.objective) == ("optimal", 12)


def test_a_checkpoint_of_another_board_is_refused(tmp_path):
    path = str(tmp_path / "armies.sqlite")
    ql.decide(6, "peaceable", 6, "armies", checkpoint=path)
    with pytest.raises(UsageError, match="belongs to another"):
        ql.decide(6, "peaceable", 6, "armies", checkpoint=path, blocked=[(0, 0)])


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_answers(dask_scheduler):
    for value, status in ((9, "yes"), (10, "no")):
        result = ql.decide(8, "peaceable", value, "armies", scheduler=dask_scheduler)
        assert result.status == status
    best = ql.optimize(8, problem="peaceable", backend="armies", scheduler=dask_scheduler)
    assert (best.status, best.objective) == ("optimal", 9)


def test_what_the_search_cannot_take_is_refused_in_one_line():
    with pytest.raises(UsageError, match="leaps"):
        Plan.of(board(5, "superqueens"))
    with pytest.raises(UsageError, match="no proof file"):
        ql.decide(5, "peaceable", 5, "armies", proof="unused")
    with pytest.raises(UsageError, match="add --split D or -b armies"):
        ql.decide(5, "peaceable", 5, "sat", checkpoint="unused.sqlite")
    with pytest.raises(UsageError, match="superqueens"):
        ql.decide(5, "peaceable", 5, "armies", variant="superqueens")
    with pytest.raises(UsageError, match="workers must be at most"):  # 10^8 threads: 7 GB
        ql.decide(5, "peaceable", 5, "armies", workers=10**8)
    with pytest.raises(UsageError, match="counts this machine's CPU"):
        ql.optimize(5, problem="peaceable", backend="armies", scheduler="tcp://127.0.0.1:9",
                    cpu_limit=10)  # fmt: skip


def test_a_small_target_is_met_without_a_search_at_the_largest_n():
    """The points a few colourings surely reach answer a small target: at n = 30 the pair
    found needs no node of the exact search (which walks 2^29 subsets there)."""
    plan = Plan.of(board(30))
    counts = np.zeros(3, np.int64)
    cols, picks = plan.search(0b1, 3, np.zeros(1, np.uint8), counts)
    assert cols >= 0 and counts[0] == 1 and counts[2] == 0
    armies = plan.answer(0b1, cols, picks)
    assert len(armies["white"]) == len(armies["black"]) >= 3
    assert kind_oracle.fault("peaceable", 30, "standard", (), armies) is None
    assert ql.decide(30, "peaceable", 3, "armies").status == "yes"


def test_the_kernel_stops_inside_the_search_of_one_pair():
    """A pair whose search walks millions of nodes at n = 30 ends at the stop flag, set by
    another thread once the search has begun: a limit or Ctrl-C is seen mid-pair."""
    plan = Plan.of(board(30))
    stop, counts, found = np.zeros(1, np.uint8), np.zeros(3, np.int64), []
    rows = (1 << 15) - 1  # 15 white rows: 120 of each colour is beyond what the sample reaches
    worker = threading.Thread(target=lambda: found.append(plan.search(rows, 120, stop, counts)))
    worker.start()
    patience = time.monotonic() + 60
    while counts[2] == 0 and worker.is_alive() and time.monotonic() < patience:
        time.sleep(0.01)  # the search has begun once it counts nodes
    stop[0] = 1
    worker.join(60)
    assert not worker.is_alive() and counts[2] > 0
    assert found == [(armies_kernel.STOPPED, ())]


def test_a_stop_of_the_whole_run_sets_the_flag_of_its_round():
    """The round's kernels poll the flag of the round's PartRun: a deadline or Ctrl-C of
    the whole run, seen by the pool through the part, sets it (it used not to)."""
    whole = Run()
    part = PartRun(whole.should_stop)
    flag = part.stop_flag
    assert not part.should_stop() and flag[0] == 0
    whole.stop()
    assert part.should_stop() and flag[0] == 1


def test_the_kernels_run_off_the_main_thread(monkeypatch):
    """The main thread only waits, so Ctrl-C reaches it at once: a kernel running there
    held the signal back until it returned, and a handler's exception raised while a
    kernel's arrays were boxed ended in "SystemError: CPUDispatcher(part_frontier)
    returned a result with an exception set"."""
    threads = set()
    searched = Plan.search

    def search(plan, rows, target, stop, counts):
        if plan.n == 6:  # not the tiny board whose search loads the kernels
            threads.add(threading.current_thread())
        return searched(plan, rows, target, stop, counts)

    monkeypatch.setattr(Plan, "search", search)
    assert ql.decide(6, "peaceable", 5, "armies", workers=1).status == "yes"
    assert threads and threading.main_thread() not in threads


def test_the_default_beyond_the_largest_n_is_a_backend_that_takes_the_board():
    """The armies search takes n <= 30: past it the measured default passes to a backend
    that takes the board, and naming armies is one line."""
    for task in (Task.OPTIMIZE, Task.DECIDE):
        assert registry.resolve(task, make_problem(30, kind="peaceable")).name == "armies"
        chosen = registry.resolve(task, make_problem(31, kind="peaceable"))
        assert chosen.name != "armies" and chosen.largest_n >= 31
    with pytest.raises(UsageError, match=r"'armies' takes n <= 30, not 31; backends that do"):
        ql.decide(31, "peaceable", 3, "armies")
    assert ArmiesBackend.largest_n == MAX_OUTER_LINES // 2  # a pair of colourings: one int64
