"""Notebook displays: placements as boards, results as small HTML cards.

The vocabulary (``queenslab.core``) knows nothing of pictures; this module teaches IPython
to draw its objects (``register_with_ipython``, called when queenslab is imported inside
a running IPython). Boards come from ``pictures.preview_svg``, so a result with 10^6
queens still displays in a few kB. ``table`` is shared with the lab's reports.
"""

from __future__ import annotations

import sys
from html import escape
from typing import Any

from queenslab.io.pictures import preview_svg

#: Status -> colour of its badge.
_STATUS_COLOURS = {"solved": "#2e7d32", "optimal": "#2e7d32", "infeasible": "#6a1b9a"}


def result_html(result: Any) -> str:
    """A card: status badge, the answer (count, objective), seconds, board, statistics."""
    status = str(result.status)
    colour = _STATUS_COLOURS.get(status, "#b26a00")
    facts = [("backend", result.backend), ("n", result.n), ("variant", result.variant)]
    for name in ("total", "unique", "objective"):
        if getattr(result, name, None) is not None:
            facts.append((name, getattr(result, name)))
    facts.append(("seconds", f"{result.seconds:.3f}"))
    placement = getattr(result, "placement", None)
    board = f"<div>{preview_svg(placement)}</div>" if placement is not None else ""
    return (
        '<div style="display:flex;gap:1em;align-items:flex-start">'
        f'<div><span style="background:{colour};color:white;padding:2px 8px;'
        f'border-radius:4px">{escape(status)}</span>'
        f"{table(facts)}{table(sorted(result.stats.items()), 'statistics')}</div>"
        f"{board}</div>"
    )


def table(pairs: list[tuple[str, Any]], caption: str = "") -> str:
    if not pairs:
        return ""
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    body = "".join(
        f'<tr><th style="text-align:left">{escape(str(k))}</th><td>{escape(_number(v))}</td></tr>'
        for k, v in pairs
    )
    return f"<table>{title}{body}</table>"


def _number(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def register_with_ipython() -> bool:
    """Draw placements (SVG) and results (HTML cards) in the running IPython, if any."""
    shell_module = sys.modules.get("IPython")
    shell = shell_module.get_ipython() if shell_module is not None else None
    if shell is None:
        return False
    formatters = shell.display_formatter.formatters
    formatters["image/svg+xml"].for_type_by_name(
        "queenslab.core.placement", "Placement", preview_svg
    )
    for kind in ("SolveResult", "CountResult", "OptimizeResult"):
        formatters["text/html"].for_type_by_name("queenslab.core.result", kind, result_html)
    return True
