"""Weighted N-queens: every optimizer (and the branch and bound kernel) vs brute force."""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest

import queenslab as ql
from queenslab.core.backend import Feature, Task
from queenslab.core.errors import LimitReached
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.exact.branch_bound import maximize_weight
from queenslab.io.weights import load_weights
from queenslab.registry import backend_class, info, names
from tests import oracle

OPTIMIZERS = [
    pytest.param(name, marks=pytest.mark.skipif(not info(name).available, reason="missing"))
    for name in names()
    if backend_class(name).searches_itself(Task.OPTIMIZE, "placement")
]
SIZES = [5, 6, 7, 8]


@cache
def solutions(n: int) -> np.ndarray:
    return np.array(oracle.all_solutions(n), dtype=np.int64).reshape(-1, n)


def brute_force(weights: np.ndarray, givens: dict[int, int] | None = None) -> int | None:
    n = len(weights)
    boards = solutions(n)
    for r, c in (givens or {}).items():
        boards = boards[boards[:, r] == c]
    if len(boards) == 0:
        return None
    return int(weights[np.arange(n), boards].sum(axis=1).max())


def random_weights(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(-50, 51, size=(n, n))


@pytest.mark.parametrize("name", OPTIMIZERS)
@pytest.mark.parametrize("n", SIZES)
def test_backend_reaches_the_brute_force_optimum(name, n):
    for seed in range(2):
        weights = random_weights(n, seed)
        result = ql.optimize(n, weights, name, time_limit=120)
        assert result.status == ql.Status.OPTIMAL
        assert result.objective == brute_force(weights)
        assert oracle.is_solution(result.placement.to_list(), n)


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_backend_optimum_keeps_given_queens(name):
    if Feature.GIVENS not in backend_class(name).features:
        pytest.skip(f"{name} does not take given queens")
    weights, givens = random_weights(7, 9), {2: 4, 5: 0}
    result = ql.optimize(7, weights, name, givens=givens.items())
    assert result.objective == brute_force(weights, givens)
    assert all(result.placement[r] == c for r, c in givens.items())


def _exact(n, weights, givens=None):
    return maximize_weight(Problem(n, tuple((givens or {}).items())), weights, Run())


@pytest.mark.parametrize("n", SIZES)
def test_branch_and_bound_reaches_the_brute_force_optimum(n):
    for seed in range(4):
        weights = random_weights(n, seed)
        best, cols = _exact(n, weights)
        assert best == brute_force(weights)
        assert oracle.is_solution(cols, n) and weights[np.arange(n), cols].sum() == best


def test_branch_and_bound_keeps_givens_and_proves_infeasibility():
    weights = random_weights(8, 7)
    givens = {0: 3, 5: 1}
    best, cols = _exact(8, weights, givens)
    assert best == brute_force(weights, givens)
    assert cols[0] == 3 and cols[5] == 1
    assert _exact(3, np.ones((3, 3))) is None
    assert _exact(4, np.ones((4, 4)), {0: 0}) is None


def test_branch_and_bound_with_all_negative_weights():
    weights = -np.arange(49).reshape(7, 7) - 1
    assert _exact(7, weights)[0] == brute_force(weights)


def test_branch_and_bound_stops_at_the_deadline():
    weights = random_weights(40, 0)
    with pytest.raises(LimitReached):
        maximize_weight(Problem(40), weights, Run(time_limit=0.001))


def test_every_optimizer_agrees_on_one_instance():
    weights = random_weights(8, 11)
    available = [p.values[0] for p in OPTIMIZERS if info(p.values[0]).available]
    objectives = {name: ql.optimize(8, weights, name).objective for name in available}
    assert set(objectives.values()) == {brute_force(weights)}, objectives


# -- the weights file -------------------------------------------------------------------


def test_json_and_csv_give_the_same_matrix(tmp_path):
    weights = random_weights(5, 3)
    (tmp_path / "w.json").write_text(json.dumps(weights.tolist()))
    (tmp_path / "w.csv").write_text("\n".join(",".join(map(str, r)) for r in weights) + "\n")
    assert np.array_equal(load_weights(str(tmp_path / "w.json"), 5), weights)
    assert np.array_equal(load_weights(str(tmp_path / "w.csv"), 5), weights)


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("rows.json", "[[1, 2], [3, 4]]", "2 rows, expected 3"),
        ("ragged.csv", "1,2,3\n4,5\n6,7,8\n", "row 2 has 2 entries"),
        ("float.json", "[[1, 2, 3], [4, 5.5, 6], [7, 8, 9]]", r"entry \(1, 1\) is 5.5"),
        ("bool.json", "[[1, 2, 3], [4, true, 6], [7, 8, 9]]", "not an integer"),
        ("text.csv", "1,2,3\n4,x,6\n7,8,9\n", "'x', not an integer"),
        ("broken.json", "[[1, 2, 3], [4", "not valid JSON"),
        ("huge.csv", "1,2,3\n4,5,6\n7,8,99999999999999999\n", "beyond the limit"),
    ],
)
def test_bad_weight_files_are_one_line_usage_errors(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ql.UsageError, match=message):
        load_weights(str(path), 3)


def test_cli_optimize_json_and_bad_files_exit_2(queens, tmp_path):
    weights = random_weights(6, 5)
    good = tmp_path / "w.json"
    good.write_text(json.dumps(weights.tolist()))
    name = "milp" if info("milp").available else None
    backend = ["--backend", name] if name else []
    run = queens("optimize", "6", "--weights", str(good), *backend, "--format", "json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    keys = {
        "n",
        "variant",
        "backend",
        "status",
        "objective",
        "cols",
        "seconds",
        "cpu_seconds",
        "stats",
    }
    assert set(record) == keys
    assert record["status"] == "optimal" and record["objective"] == brute_force(weights)

    for argv in (["--weights", str(good)], ["--weights", str(tmp_path / "missing.csv")]):
        bad = queens("optimize", "7", *argv, *backend)
        assert bad.returncode == 2
        assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
