"""The armies kept in docs/data: each checked by the peaceable kind's checker and by the
independent oracle, and reproduced by the command it names."""

from __future__ import annotations

import json

import queenslab as ql
from queenslab.boards import board
from queenslab.problems import kind
from tests import kind_oracle
from tests.conftest import ROOT

RECORD = ROOT / "docs" / "data" / "peaceable-n16-37.json"


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
