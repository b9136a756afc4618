"""A split proof's ledger (its checkpoint) is keyed by a fingerprint of the question: the
bounded model and the split variables. The fingerprint read the rows' repr, so when the
row type gained a field (an export's label) every ledger of an unchanged question was
refused as "split another way" (domination n = 20 at 10, 42 cubes refuted). It now reads
a row's terms and bounds only."""

from __future__ import annotations

from dataclasses import dataclass, replace

import queenslab as ql
from queenslab.boards import board
from queenslab.core.model import Linear
from queenslab.models.zero_one.split import _fingerprint, split_variables


@dataclass(frozen=True)
class Labelled(Linear):
    """A row with one more field than the rows the ledgers were written with."""

    label: str = "a row's name"


def _question() -> tuple:
    model = ql.problem_model(8, kind="domination", model="lines", symmetry="lex-leader")
    bounded = model.with_objective_bound(4)
    return bounded, split_variables(board(8), bounded, 4)


def test_a_label_on_the_rows_keeps_the_fingerprint():
    model, variables = _question()
    labelled = replace(
        model, linear=[Labelled(row.terms, row.lower, row.upper) for row in model.linear]
    )
    assert _fingerprint(labelled, variables) == _fingerprint(model, variables)


def test_another_bound_or_split_is_another_fingerprint():
    model, variables = _question()
    first = model.linear[0]
    moved = replace(model, linear=[replace(first, upper=(first.upper or 0) + 1), *model.linear[1:]])
    assert _fingerprint(moved, variables) != _fingerprint(model, variables)
    assert _fingerprint(model, variables[::-1]) != _fingerprint(model, variables)
