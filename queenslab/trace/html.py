"""A trace as one self-contained HTML page: board, controls and (row searches) the tree.

Everything is inline (the steps as JSON, the script, the style): the page opens from a
USB stick in a lecture room without a network. Play, pause, step and a speed slider drive
the replay (back replays from the start to the previous step); the board is a canvas
redrawn after each step, with the free columns of the row just filled shaded green and a
rejected column red, and the tree canvas grows one node per ``place`` (grey once
abandoned, green at a solution).
"""

from __future__ import annotations

import json
from html import escape
from importlib.resources import files
from typing import Any

from queenslab.boards import Board
from queenslab.boards import board as standard_board
from queenslab.trace import TRACED
from queenslab.trace.svg import replay
from queenslab.trace.tracer import Tracer
from queenslab.trace.tree import layout


def page(tracer: Tracer, title: str, board: Board | None = None) -> str:
    """The HTML document replaying ``tracer``'s steps.

    For local searches the queens under attack after each step are marked red: the rows
    come from ``board`` (the standard one by default), replayed here in Python.
    """
    data: dict[str, Any] = {"n": tracer.n, "method": tracer.method, "steps": tracer.steps}
    if TRACED[tracer.method].tree:
        data["tree"] = layout(tracer.steps)
    else:
        data["attacked"] = attacked_rows(tracer, board or standard_board(tracer.n))
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (
        _TEMPLATE.replace("__TITLE__", escape(title))
        .replace("__STYLE__", _asset("player.css"))
        .replace("__SCRIPT__", _asset("player.js"))
        .replace("__DATA__", payload)
    )


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>__STYLE__</style></head>
<body>
<h1>__TITLE__</h1>
<div id="controls">
<button id="play">play</button><button id="pause">pause</button>
<button id="back">back</button><button id="step">step</button><button id="reset">reset</button>
<label>speed <input id="speed" type="range" min="0" max="100" value="30"></label>
<span id="rate"></span>
</div>
<div id="status"></div>
<div id="panels"><canvas id="board" width="480" height="480"></canvas>
<canvas id="tree" width="640" height="480" hidden></canvas></div>
<script id="trace-data" type="application/json">__DATA__</script>
<script>__SCRIPT__</script>
</body></html>
"""


def attacked_rows(tracer: Tracer, board: Board) -> list[list[int]]:
    """Per step, the rows whose queen another queen attacks (complete boards only)."""
    rows: list[list[int]] = []
    for state in replay(tracer.n, tracer.steps):
        pairs = board.check(state).attacking if -1 not in state else ()
        rows.append(sorted({row for pair in pairs for row in pair}))
    return rows


def _asset(name: str) -> str:
    """The player's style sheet or script, shipped beside this module."""
    return files("queenslab.trace").joinpath(name).read_text(encoding="utf-8")
