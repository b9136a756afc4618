"""Any registered kind by its own brute force, with tests/kind_oracle.py's interface: the
answers are the kind's ``candidates`` that its own ``check`` accepts, valued by its
``value``. So a kind registered by a plug-in or a test module is tested by the harness
without a line for it here; the built-in kinds keep kind_oracle, which shares nothing with
queenslab. Answers are compared in the API's JSON form (``to_json``), by their repr.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from queenslab.boards import board
from queenslab.core.model import Sense
from queenslab.problems import kind_class

#: Boards of up to 16 cells: 2^16 sets of cells at most.
MAX_N = 4
#: Kind name -> repr of each answer some brute force accepted -> its value.
_values: dict[str, dict[str, int]] = {}


@cache
def _accepted(name: str, n: int, variant: str, blocked: tuple) -> dict[str, int]:
    """The answers on the board, by the repr of their JSON data, with their values."""
    assert n <= MAX_N, "brute force only"
    kind, field = kind_class(name)(), board(n, variant, blocked)
    found = {
        repr(kind.to_json(answer)): kind.value(answer)
        for answer in kind.candidates(field)
        if kind.check(field, answer) is None
    }
    _values.setdefault(name, {}).update(found)
    return found


def optimum(name: str, n: int, variant: str = "standard", blocked=()) -> tuple[int | None, int]:
    """(the optimum, the number of optimal answers); (None, 0) when there is no answer."""
    values = list(_accepted(name, n, variant, tuple(sorted(blocked))).values())
    if not values:
        return None, 0
    best = (min if kind_class(name).sense is Sense.MIN else max)(values)
    return best, values.count(best)


def fault(name: str, n: int, variant: str, blocked, answer: Any) -> str | None:
    """None when ``answer`` (JSON data) is one the brute force accepts on the board."""
    if repr(answer) in _accepted(name, n, variant, tuple(sorted(blocked))):
        return None
    return f"{answer!r} is not an answer its own check accepts"


def value(name: str, answer: Any) -> int:
    """The value of an answer ``fault`` accepted."""
    return _values[name][repr(answer)]
