"""One signature style on every entry point: ``n`` positional, the rest keyword-only with
the same names everywhere (``kind=`` for the question); the older calls still work for
one release, each with a DeprecationWarning."""

from __future__ import annotations

import inspect
from dataclasses import FrozenInstanceError

import pytest

import queenslab as ql

ENTRY_POINTS = [ql.solve, ql.count, ql.enumerate_solutions, ql.optimize, ql.decide, ql.export,
                ql.problem_model]  # fmt: skip


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda f: f.__name__)
def test_n_is_the_one_positional_argument_and_kind_names_the_question(entry):
    parameters = list(inspect.signature(entry).parameters.values())
    assert parameters[0].name == "n"
    assert parameters[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in parameters[1:])
    names = {p.name for p in parameters}
    assert "kind" in names and "problem" not in names


def test_the_old_positional_calls_warn_and_answer_the_same():
    with pytest.warns(DeprecationWarning, match=r"count\(n, backend\) by position"):
        old = ql.count(6, "backtrack")
    assert old.total == ql.count(6, backend="backtrack").total == 4
    with pytest.warns(DeprecationWarning, match=r"decide\(n, kind, value, backend\)"):
        decided = ql.decide(5, "domination", 3, "cpsat")
    assert decided.status == ql.decide(5, kind="domination", value=3, backend="cpsat").status
    with pytest.warns(DeprecationWarning, match=r"export\(n, format\)"):
        assert ql.export(4, "dimacs") == ql.export(4, format="dimacs")


def test_problem_is_the_deprecated_name_of_kind():
    with pytest.warns(DeprecationWarning, match=r"optimize\(problem=\.\.\.\) is deprecated"):
        old = ql.optimize(5, problem="domination", backend="cpsat")
    assert old.objective == ql.optimize(5, kind="domination", backend="cpsat").objective == 3
    with pytest.raises(TypeError, match="both kind= and its old name problem="):
        ql.optimize(5, kind="domination", problem="domination")
    with pytest.raises(TypeError, match="two values for 'backend'"):
        ql.count(6, "backtrack", backend="bitmask")
    with pytest.raises(TypeError, match="takes n and keyword arguments"):
        ql.solve(6, "backtrack", "extra")


def test_a_returned_result_is_read_only():
    """Checked once by the api, a result is not edited afterwards, its stats included."""
    result = ql.optimize(5, kind="domination", backend="cpsat")
    with pytest.raises(FrozenInstanceError, match="cannot set 'objective'"):
        result.objective = 2
    with pytest.raises(TypeError):
        result.stats["model"] = "mine"
    assert result.to_json()["objective"] == 3
    counted = ql.count(6, backend="backtrack")
    with pytest.raises(FrozenInstanceError):
        counted.total = 5
