"""What each step says, in words a room can read: "row 3 col 2 attacked by row 1 along a
diagonal".

One template per step kind, filled from the step's fields. A ``[...]`` group shows only
when every field it names is present and not false (0 shows); ``{name?}`` names a field without
printing it. The HTML player receives these templates and fills them with the same rule
(``player.js``, ``fill``), so the page and the animations say the same thing.
"""

from __future__ import annotations

import re
from typing import Any

CAPTIONS: dict[str, str] = {
    "place": "row {row}: [{given?}the given ]queen on col {col}"
    "[; inference removes {pruned} values from the open rows]",
    "remove": "row {row}: the queen on col {col} is taken back",
    "reject": "row {row} col {col} attacked by row {by} {line}",
    "wipeout": "row {row} has no column left: the placement fails",
    "prune": "arc consistency removes {pruned} values before the first choice",
    "swap": "rows {rows} swap their columns: {conflicts} attacking pairs",
    "move": "row {row}: the queen moves to col {col}[{plateau?} sideways (a plateau)]: "
    "{conflicts} attacking pairs",
    "restart": "a fresh start[: {conflicts} attacking pairs]",
    "solution": "a solution: every row has a queen and none is attacked",
    "end": "the search ends: {status}[; solutions found: {solutions}]",
}
#: A search's own figures (its ``end`` step's statistics) as the end caption says them.
FIGURES: dict[str, str] = {
    "nodes": "{} nodes",
    "pruned": "{} values pruned",
    "restarts": "{} restarts",
    "moves": "{} moves",
    "plateau_moves": "{} of them sideways",
    "greedy_tests": "{} cells tested by the greedy start",
    "tail_rows": "{} rows placed at random after it",
    "swap_attempts": "{} swaps tried",
    "steps": "{} swaps tried",
}
#: How a line of attack (``Board.attack_line``) reads in a caption.
LINE_WORDS: dict[str, str] = {
    "row": "along the row",
    "col": "along the column",
    "diag_up": "along a diagonal",
    "diag_down": "along a diagonal",
    "leap": "by a knight's leap",
}

_GROUP = re.compile(r"\[([^\]]*)\]")
_FIELD = re.compile(r"\{(\w+)(\?)?\}")


def caption(step: dict[str, Any]) -> str:
    """The sentence for one step."""

    def shown(name: str) -> bool:
        value = step.get(name)
        return value is not None and value is not False

    def group(match: re.Match[str]) -> str:
        inner = match.group(1)
        return inner if all(shown(name) for name, _ in _FIELD.findall(inner)) else ""

    def field(match: re.Match[str]) -> str:
        name, silent = match.groups()
        return "" if silent else _words(name, step[name])

    return _FIELD.sub(field, _GROUP.sub(group, CAPTIONS[step["kind"]]))


def _words(name: str, value: Any) -> str:
    if name == "line":
        return LINE_WORDS[value]
    if isinstance(value, list):
        return " and ".join(map(str, value))
    return str(value)
