"""Traces as one self-contained HTML page a room can read: board, caption, tree or chart.

Everything is inline (the steps as JSON, the script, the style): the page opens from a
USB stick in a lecture room without a network. One trace fills the window; two traces of
the same board (``--compare``) stand side by side and step together. The player
(``player.js``) lays out and draws; what it draws is decided here and in the modules it
reads: the steps (``tracer``), their captions (``captions``), the tree's nodes (``tree``)
and, for local search, the queens under attack (``replay`` over the board layer).

Steps travel as arrays, ``[kind index, field values...]`` in the order of ``SCHEMA``, so
that the full n = 10 tree with every test (about 384,000 steps) stays a few megabytes.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from html import escape
from importlib.resources import files
from typing import Any

from queenslab.core.problem import Problem
from queenslab.io.pictures import STYLE
from queenslab.trace import method
from queenslab.trace.captions import CAPTIONS, FIGURES, LINE_WORDS
from queenslab.trace.replay import replay
from queenslab.trace.tracer import Tracer
from queenslab.trace.tree import nodes

#: Fields of each step kind, in the order the page carries them.
SCHEMA: dict[str, list[str]] = {
    "place": ["row", "col", "given", "free", "domains", "pruned", "forward", "revisions"],
    "remove": ["row", "col"],
    "reject": ["row", "col", "by", "line"],
    "wipeout": ["row"],
    "prune": ["domains", "pruned", "revisions"],
    "swap": ["rows", "cols", "conflicts"],
    "move": ["row", "col", "conflicts", "plateau"],
    "restart": ["cols", "conflicts", "restart"],
    "solution": ["cols"],
    "end": ["status", "solutions", "stats"],
}
#: The text scale of ``--projector``: captions at least 3% of the screen's height.
PROJECTOR = 1.5
_KINDS = list(SCHEMA)
_LINES = list(LINE_WORDS)


def page(tracers: list[Tracer], problem: Problem, title: str, scale: float = 1.0) -> str:
    """The HTML document replaying ``tracers`` (one, or two side by side) on ``problem``,
    its text at ``scale`` unless the address asks for another (``?scale=``)."""
    data = {
        "title": title,
        "scale": scale,
        "n": problem.n,
        "blocked": [list(cell) for cell in problem.blocked],
        "givens": [list(cell) for cell in problem.givens],
        "style": asdict(STYLE),
        "captions": CAPTIONS,
        "figures": FIGURES,
        "lines": LINE_WORDS,
        "schema": SCHEMA,
        "traces": [_trace(tracer, problem) for tracer in tracers],
    }
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (
        _TEMPLATE.replace("__TITLE__", escape(title))
        .replace("__STYLE__", _asset("player.css"))
        .replace("__SCRIPT__", _asset("player.js"))
        .replace("__DATA__", payload)
    )


def _trace(tracer: Tracer, problem: Problem) -> dict[str, Any]:
    traced, orders = method(tracer.method)
    entry: dict[str, Any] = {
        "label": tracer.method,
        "mrv": orders.get("variables") == "mrv",
        "steps": [_pack(step) for step in tracer.steps],
        "tree": nodes(tracer.steps) if traced.tree else None,
        "attacked": None if traced.tree else attacked_rows(tracer, problem),
    }
    return entry


def _pack(step: dict[str, Any]) -> list[Any]:
    """``[kind index, values...]``, trailing absent fields dropped; lines by index."""
    values = [
        _LINES.index(step[name]) if name == "line" else step.get(name)
        for name in SCHEMA[step["kind"]]
    ]
    while values and values[-1] is None:
        values.pop()
    return [_KINDS.index(step["kind"]), *values]


def attacked_rows(tracer: Tracer, problem: Problem) -> list[list[int]]:
    """Per step, the rows whose queen another queen attacks (complete boards only)."""
    rows: list[list[int]] = []
    for state in replay(tracer.n, tracer.steps):
        pairs = problem.board.check(state).attacking if -1 not in state else ()
        rows.append(sorted({row for pair in pairs for row in pair}))
    return rows


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__STYLE__</style></head>
<body>
<header>
<h1>__TITLE__</h1>
<div id="controls">
<button id="home" title="start (Home)">|&#x25C0;</button>
<button id="back" title="step back (&larr;, PageUp)">&#x25C0;</button>
<button id="play" title="play / pause (space)">play</button>
<button id="step" title="step (&rarr;, PageDown)">&#x25B6;</button>
<button id="end" title="end (End)">&#x25B6;|</button>
<input id="scrub" type="range" min="0" max="0" value="0" aria-label="step">
<span id="status"></span>
<label title="steps per second ([ and ])">speed <input id="speed" type="range" min="0"
 max="100" value="30"></label><span id="rate"></span>
<button id="next-solution" title="next solution (S; shift+S: previous)">next solution</button>
<button id="next-failure" title="next failure (F; shift+F: previous)">next failure</button>
<button id="help-button" title="keys (?)">?</button>
</div>
<div id="legend"></div>
</header>
<main id="panels"></main>
<div id="help" hidden><b>Keys</b>: &rarr; &darr; PageDown step &middot; &larr; &uarr; PageUp back
&middot; shift: 10 steps &middot; space play/pause &middot; Home/End &middot; [ ] speed &middot;
S / F next solution / failure &middot; A AC-3's revisions &middot; &lt; &gt; smaller / larger
text &middot; tree: wheel or + &minus; zoom,
drag to pan, click a node to see its board, shift+click to fold it, C fold the subtrees without
a solution, 0 fit.</div>
<script id="trace-data" type="application/json">__DATA__</script>
<script>__SCRIPT__</script>
</body></html>
"""


def _asset(name: str) -> str:
    """The player's style sheet or script, shipped beside this module."""
    return files("queenslab.trace").joinpath(name).read_text(encoding="utf-8")
