"""The portfolio backend: its members race on one question, the first proof (or the best
answer of one member meeting the best bound of another) ends the race, a member that
fails is reported, and a limit keeps the best answer with a bound that holds.

Every brute-force case of every kind and variant runs in tests/harness/test_kind_backends.py
(the portfolio is one more backend there, in the slow tests); here, the optimum and the
decisions of every built-in kind against brute force, and what only a portfolio does.
"""

from __future__ import annotations

import numpy as np
import pytest

import queenslab as ql
from queenslab.core.model import Sense
from queenslab.core.run import News, Run
from queenslab.models import portfolio
from queenslab.problems import BUILTIN
from tests import kind_oracle

KINDS = [kind for kind in BUILTIN if kind != "placement"]
MEMBERS = portfolio.DEFAULT_MEMBERS.split(",")


@pytest.mark.parametrize("problem", KINDS)
def test_optimum_and_decisions_agree_with_the_brute_force_and_name_the_prover(problem):
    n = 5
    best, _ = kind_oracle.optimum(problem, n)
    result = ql.optimize(n, problem=problem, backend="portfolio", time_limit=60)
    assert (result.status, result.objective, result.bound) == (ql.Status.OPTIMAL, best, best)
    if "proven_by" in result.stats:  # the warm start's search proved it: no member ran
        assert result.stats["proven_by"].startswith("graph-search: ")
    else:
        assert result.stats["proved_by"] in (*MEMBERS, "portfolio")
        assert set(result.stats["members"]) == set(MEMBERS)
    sense = 1 if BUILTIN[problem].sense is Sense.MIN else -1
    yes = ql.decide(n, problem, best, "portfolio", time_limit=60)
    assert yes.status is ql.Status.YES and sense * (yes.objective - best) <= 0
    if best - sense >= 0:
        no = ql.decide(n, problem, best - sense, "portfolio", time_limit=60)
        assert (no.status, no.answer) == (ql.Status.NO, None)
        assert no.stats["members"][no.stats["proved_by"]]["status"] == "no"


def test_an_answer_meeting_the_bound_of_another_member_is_a_proof_of_the_portfolio():
    run = Run()
    race = portfolio._Race(run, Sense.MIN)
    race.offer("cpsat", 5, "five", None)
    race.offer("milp", None, None, 4)
    assert not race.met and race.proved_by is None
    race.offer("cpsat", 4, "four", 3)  # cpsat's own bound is below milp's: milp's stays
    assert race.met and race.proved_by == "portfolio"
    assert (race.answer.member, race.bound.member) == ("cpsat", "milp")
    assert run.news == News(4, "four", 4)


def test_a_member_meeting_its_own_bound_proves_it_and_a_maximum_bounds_from_above():
    race = portfolio._Race(Run(), Sense.MAX)
    race.offer("sat", None, None, 9)
    race.offer("milp", 7, "seven", 8)
    assert race.bound.value == 8 and not race.met
    race.offer("milp", 8, "eight", None)
    assert race.proved_by == "milp"


def test_a_failing_member_is_reported_and_the_others_answer(monkeypatch):
    from queenslab.models.zero_one import milp

    def broken(*_args, **_kwargs):
        raise RuntimeError("solver on fire")

    monkeypatch.setattr(milp, "optimize", broken)  # reaches the forked member
    result = ql.optimize(5, problem="domination", backend="portfolio", members="milp,cpsat")
    assert (result.status, result.objective) == (ql.Status.OPTIMAL, 3)
    assert result.stats["proved_by"] == "cpsat"
    assert result.stats["members"]["milp"]["status"] == "error: RuntimeError: solver on fire"
    alone = ql.optimize(5, problem="domination", backend="portfolio", members="milp")
    assert alone.status is ql.Status.UNKNOWN and "solver on fire" in alone.message


def test_a_question_every_member_refuses_is_refused_and_one_refusal_is_reported():
    weights = np.arange(16).reshape(4, 4)  # no cardinality encoding takes this objective
    with pytest.raises(ql.UsageError, match="cardinality"):
        ql.optimize(4, weights, "portfolio", members="sat")
    result = ql.optimize(4, weights, "portfolio", members="sat,cpsat")
    assert (result.status, result.objective) == (ql.Status.OPTIMAL, 30)
    assert result.stats["members"]["sat"]["status"].startswith("error: UsageError")


@pytest.mark.parametrize("limit", [{"time_limit": 2}, {"cpu_limit": 2}], ids=["time", "cpu"])
def test_a_limit_keeps_the_best_answer_with_a_bound_that_holds(limit):
    """Peaceable armies at n = 10 (14, A250000) take minutes to prove on every member."""
    result = ql.optimize(10, problem="peaceable", backend="portfolio", **limit)
    assert result.status in (ql.Status.FEASIBLE, ql.Status.LIMIT), result
    if result.answer is not None:
        assert result.objective <= 14
    assert result.bound is None or result.bound >= 14
    ended = {member["status"] for member in result.stats["members"].values()}
    assert ended <= {"limit", "feasible"}, ended


def test_workers_race_members_a_few_at_a_time():
    result = ql.optimize(4, problem="domination", backend="portfolio", members="milp,cpsat",
                         workers=1)  # fmt: skip
    assert result.stats["proved_by"] == "milp"
    assert result.stats["members"]["cpsat"] == {"status": "not started"}


@pytest.mark.parametrize(
    ("members", "words"),
    [("milp,foo", "no member 'foo'"), ("milp,milp", "named twice"), (",", "separated by")],
)
def test_bad_members_are_refused_in_one_line(members, words):
    with pytest.raises(ql.UsageError, match=words) as refused:
        ql.optimize(4, problem="domination", backend="portfolio", members=members)
    assert "\n" not in str(refused.value)


def test_the_portfolio_writes_no_proof(tmp_path):
    with pytest.raises(ql.UsageError, match="--proof needs -b sat"):
        ql.decide(4, "domination", 2, "portfolio", proof=str(tmp_path))
