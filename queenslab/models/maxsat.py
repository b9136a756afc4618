"""The ``maxsat`` backend: every kind's 0-1 model as weighted MaxSAT, solved by RC2.

The translator (``zero_one.maxsat``) does the work: hard clauses from the model's
constraints, one soft clause per weighted literal of its objective after each
exactly-one constraint's least cost is moved into the offset. Weighted placement is the
placement kind's model like any other: its rows and columns are exactly-one constraints,
so the reduction that made it fast (Kuhn's, row then column) is no longer its own code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from queenslab.boards import VARIANTS
from queenslab.core.backend import Family, Feature
from queenslab.models import cnf
from queenslab.models.zero_one.backend import KindModels


class MaxSatBackend(KindModels):
    name = "maxsat"
    family = Family.MODEL
    translator = "maxsat"
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "pysat RC2 MaxSAT: hard clauses, one weighted soft clause per objective term"
    requires: ClassVar[Mapping[str, str]] = {"pysat": "python-sat"}
    options = (cnf.ENCODING_OPTION,)

    def load(self) -> None:
        import pysat.examples.rc2  # noqa: F401
