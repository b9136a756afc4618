"""Slides from an executed lecture notebook: one self-contained HTML page, offline.

Why not nbconvert's reveal.js: it fetches reveal.js from a CDN, and a lecture room may be
offline. This page carries its own style and a few lines of script (the keys of the trace
player and of a presentation clicker), and nothing else.

A cell marked as a slide (Jupyter's cell metadata ``slideshow.slide_type``: ``slide``, the
marking RISE and nbconvert read) begins a slide; cells marked ``-`` or ``fragment`` join the
slide before them; every other cell stays in the notebook only.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import markdown
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

_JOINS = {"-", "fragment", "subslide"}

_STYLE = """
html, body { margin: 0; height: 100%; background: #fff; color: #222;
  font: 3.2vh/1.4 system-ui, sans-serif; }
section { display: none; box-sizing: border-box; height: 100vh; padding: 4vh 6vw;
  overflow: auto; }
section.current { display: block; }
h1 { font-size: 2em; margin: 0 0 .5em; } h2 { font-size: 1.6em; margin: 0 0 .5em; }
pre { font-size: .75em; background: #f6f6f6; padding: .5em; overflow: auto; }
.output pre { background: #fff; border-left: .3em solid #ccc; }
img, svg { max-width: 100%; max-height: 55vh; }
table { border-collapse: collapse; font-size: .8em; } td, th { padding: .1em .5em; }
#counter { position: fixed; right: 1vw; bottom: 1vh; font-size: .6em; color: #888; }
"""

_SCRIPT = """
const slides = document.querySelectorAll("section");
let at = Math.max(0, Math.min(slides.length - 1, parseInt(location.hash.slice(1)) - 1 || 0));
function show(i) {
  at = Math.max(0, Math.min(slides.length - 1, i));
  slides.forEach((s, k) => s.classList.toggle("current", k === at));
  document.getElementById("counter").textContent = (at + 1) + " / " + slides.length;
  history.replaceState(null, "", "#" + (at + 1));
}
document.addEventListener("keydown", (e) => {
  const step = {ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1,
                ArrowLeft: -1, ArrowUp: -1, PageUp: -1}[e.key];
  if (step) { show(at + step); e.preventDefault(); }
  if (e.key === "Home") show(0);
  if (e.key === "End") show(slides.length - 1);
});
show(at);
"""


def slide_type(cell: Any) -> str:
    """A cell's marking (``slide``, ``-``, ``skip``...), ``""`` when it has none."""
    return str(cell.get("metadata", {}).get("slideshow", {}).get("slide_type", ""))


def slides(notebook: Any, title: str, output: Callable[[Any], str]) -> str:
    """The page of ``notebook``'s marked cells; ``output`` turns a cell output into HTML."""
    sections: list[list[str]] = []
    for cell in notebook.cells:
        kind = slide_type(cell)
        if kind == "slide":
            sections.append([])
        elif kind not in _JOINS or not sections:
            continue
        sections[-1].append(_cell(cell, output))
    body = "\n".join(f"<section>\n{''.join(parts)}\n</section>" for parts in sections)
    css = _STYLE + HtmlFormatter(style="friendly").get_style_defs(".codehilite")
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{css}</style></head>\n<body>\n{body}\n"
        f'<div id="counter"></div>\n<script>{_SCRIPT}</script>\n</body></html>\n'
    )


def _cell(cell: Any, output: Callable[[Any], str]) -> str:
    if cell.cell_type == "markdown":
        return markdown.markdown(cell.source, extensions=["fenced_code", "tables", "codehilite"])
    code = highlight(cell.source, PythonLexer(), HtmlFormatter(cssclass="codehilite"))
    shown = "".join(output(out) for out in cell.get("outputs", []))
    return code + (f'<div class="output">{shown}</div>' if shown else "")
