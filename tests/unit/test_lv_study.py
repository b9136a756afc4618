"""The Las Vegas study: exact tables, Monte Carlo within its intervals, JSON, plot."""

from __future__ import annotations

import json
import math
import signal
from fractions import Fraction

import pytest

from queenslab.core.errors import UsageError
from queenslab.lab.lv_study import print_study, run_study, write_plot
from tests.conftest import signal_after, start_queens


def _safe(cols: list[int], c: int) -> bool:
    r = len(cols)
    return all(c != q and abs(c - q) != r - i for i, q in enumerate(cols))


def _backtrack(n: int, prefix: list[int]) -> tuple[bool, int]:
    """Seed-style backtracking below a fixed prefix: (solved, queens placed)."""
    placed = 0
    cols = list(prefix)
    nxt = 0
    while len(cols) >= len(prefix):
        if len(cols) == n:
            return True, placed
        c = next((c for c in range(nxt, n) if _safe(cols, c)), None)
        if c is None:
            if len(cols) == len(prefix):
                return False, placed
            nxt = cols.pop() + 1
            continue
        cols.append(c)
        placed += 1
        nxt = 0
    return False, placed


def _oracle(n: int, step: int) -> tuple[Fraction, Fraction, Fraction]:
    """(p, E[nodes; success], E[nodes; failure]) by listing every random prefix."""
    p = ok = bad = Fraction(0)

    def go(prefix: list[int], prob: Fraction) -> None:
        nonlocal p, ok, bad
        if len(prefix) == step:
            solved, placed = _backtrack(n, prefix)
            nodes = 1 + step + placed
            if solved:
                p, ok = p + prob, ok + prob * nodes
            else:
                bad += prob * nodes
            return
        safe = [c for c in range(n) if _safe(prefix, c)]
        if not safe:
            bad += prob * (1 + len(prefix))
        for c in safe:
            go([*prefix, c], prob / len(safe))

    go([], Fraction(1))
    return p, ok, bad


def test_exact_table_for_eight_queens():
    result = run_study(8, exact=True)
    first = result.rows[0]
    assert (first.p, first.s, first.e, first.t) == (1.0, 114.0, 0.0, 114.0)
    assert result.best_step == 2
    assert [row.step for row in result.rows] == list(range(9))
    # Pure Las Vegas (all 8 rows random) always costs 9 nodes when it succeeds.
    assert result.rows[8].s == 9.0
    assert result.rows[8].p == pytest.approx(0.1293, abs=5e-5)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_exact_mode_matches_an_independent_enumeration(n):
    result = run_study(n, exact=True)
    for row in result.rows:
        p, ok, bad = _oracle(n, row.step)
        assert row.p == pytest.approx(float(p), abs=1e-12)
        if p:
            assert row.s == pytest.approx(float(ok / p))
            assert row.t == pytest.approx(
                float(ok / p + (1 - p) / p * (bad / (1 - p) if p < 1 else 0))
            )
        if p < 1:
            assert row.e == pytest.approx(float(bad / (1 - p)))


def test_monte_carlo_estimates_fall_within_their_intervals_of_the_exact_values():
    exact = run_study(8, exact=True)
    estimate = run_study(8, repeat=2000, seed=11)
    assert estimate.mode == "monte-carlo"
    for mc, ex in zip(estimate.rows, exact.rows, strict=True):
        for key in ("p", "s", "e", "t"):
            if key in mc.ci:
                low, high = mc.ci[key]
                value = getattr(ex, key)
                assert low - 1e-9 <= value <= high + 1e-9, (mc.step, key, value, mc.ci[key])


def test_monte_carlo_is_reproducible_from_the_seed():
    first, again = run_study(9, repeat=200, seed=3), run_study(9, repeat=200, seed=3)
    assert first.to_json() == again.to_json()
    assert first.to_json() != run_study(9, repeat=200, seed=4).to_json()


def test_json_follows_the_design(capsys):
    print_study(run_study(8, exact=True), "json")
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 8 and data["mode"] == "exact" and data["best_step"] == 2
    assert data["rows"][0] == {"step": 0, "p": 1.0, "s": 114.0, "e": 0.0, "t": 114.0}


def test_no_solution_gives_infinite_t_and_no_best_step():
    result = run_study(3, exact=True)
    assert all(row.p == 0 and math.isinf(row.t) for row in result.rows)
    assert result.best_step is None
    assert result.to_json()["rows"][0]["t"] is None


def test_exact_mode_refuses_trees_too_big_to_walk():
    with pytest.raises(UsageError, match="--exact"):
        run_study(30, exact=True)


def test_plot_is_written(tmp_path):
    path = tmp_path / "lv.png"
    write_plot([run_study(8, repeat=100, seed=1)], str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_prints_the_exact_table(capsys):
    from queenslab.cli import main

    assert main(["lv-study", "--n", "8", "--exact", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["mode"], data["best_step"], data["rows"][0]["t"]) == ("exact", 2, 114.0)


def test_progress_moves_per_batch_of_trials_and_batches_change_nothing(monkeypatch):
    import queenslab.lab.lv_study as study

    told = []
    whole = run_study(9, repeat=250, seed=2)
    batched = run_study(9, repeat=250, seed=2, done=told.append)
    assert batched.to_json() == whole.to_json()
    assert sum(told) == 10 * 250 and max(told) == study.BATCH


def test_thirteen_boards_get_thirteen_colours(monkeypatch, tmp_path):
    from queenslab.io import figures

    drawn = {}
    monkeypatch.setattr(figures, "save", lambda fig, path: drawn.setdefault("axes", fig.axes[0]))
    write_plot([run_study(n, repeat=4, seed=1) for n in range(4, 17)], str(tmp_path / "lv.png"))
    lines = [container.lines[0] for container in drawn["axes"].containers]
    colours = {tuple(line.get_color()) for line in lines}
    assert len(colours) == 13


@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [(signal.SIGINT, 130, "queens: interrupted\n"), (signal.SIGTERM, 143, "queens: terminated\n")],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_signal_stops_the_trials_inside_the_kernel(signum, code, line):
    """The main thread ran the trials' kernel: SIGTERM waited for it (minutes), and Ctrl-C
    ended in "SystemError: CPUDispatcher(<function lv_trials>) returned a result with an
    exception set"."""
    process = start_queens("lv-study", "--n", "40", "--repeat", "1000000")
    assert signal_after(process, signum=signum) == (code, "", line)
