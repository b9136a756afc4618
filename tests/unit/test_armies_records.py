"""The armies kept in docs/data: each checked by the peaceable kind's checker and by the
independent oracle, and reproduced by the command it names; and the ledger of the proof
that no larger armies exist at n = 16."""

from __future__ import annotations

import json

import queenslab as ql
from queenslab.boards import board
from queenslab.core.problem import Problem
from queenslab.exact.armies_ledger import progress
from queenslab.problems import kind
from tests import kind_oracle
from tests.conftest import ROOT

RECORD = ROOT / "docs" / "data" / "peaceable-n16-37.json"
LEDGER = ROOT / "docs" / "data" / "peaceable-n16-at-38.sqlite"


def test_the_n16_armies_of_37_are_peaceable():
    """a(16) >= 37, the best value known (A250000), certified twice."""
    record = json.loads(RECORD.read_text())
    armies = {"white": record["white"], "black": record["black"]}
    peaceable = kind("peaceable")
    answer = peaceable.from_json(armies)
    assert peaceable.check(board(record["n"]), answer) is None
    assert peaceable.value(answer) == record["value"] == 37
    assert kind_oracle.fault("peaceable", record["n"], "standard", (), armies) is None


def test_the_command_it_names_finds_them_again():
    """The decision's first row colouring (rows 0-7 white) holds them: the same armies."""
    record = json.loads(RECORD.read_text())
    found = ql.decide(16, "peaceable", 37, "armies", workers=1)
    assert found.status == "yes"
    assert sorted(map(list, found.answer["white"])) == sorted(record["white"])
    assert sorted(map(list, found.answer["black"])) == sorted(record["black"])


def test_the_ledger_at_38_refutes_every_row_colouring_so_a16_is_37():
    """The proof's ledger, committed: every row colouring of n = 16 is refuted at 38
    (those the rectangle bound refutes at once, the others by a recorded bound below 38),
    so no armies of 38 exist and, with the armies above, a(16) = 37."""
    found = progress(str(LEDGER), Problem(16, kind="peaceable"), 38)
    assert found.total == 32_768
    assert found.refuted == found.total
    assert found.bound == 37
