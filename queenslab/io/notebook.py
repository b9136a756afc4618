"""Notebook displays: placements as boards, results as small HTML cards.

The vocabulary (``queenslab.core``) knows nothing of pictures; this module teaches IPython
to draw its objects (``register_with_ipython``, called when queenslab is imported inside
a running IPython). Boards come from ``pictures.preview_svg``, so a result with 10^6
queens still displays in a few kB. ``table`` is shared with the lab's reports;
``gallery`` shows several boards in a row (a solution's images) and ``comparison`` several
results side by side with their statistics (a list prints as text otherwise).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
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
    facts.append(("seconds", seconds_text(result.seconds)))
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
        f'<tr><th style="text-align:left">{escape(str(k))}</th>'
        f"<td>{escape(_number(v, str(k)))}</td></tr>"
        for k, v in pairs
    )
    return f"<table>{title}{body}</table>"


def _number(value: Any, name: str = "") -> str:
    if name.endswith("seconds") and isinstance(value, int | float):
        return seconds_text(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def seconds_text(seconds: float) -> str:
    """A duration a reader takes in at once: 0.35 s, 12.4 ms, 0.9 µs (never 8.81e-07)."""
    if seconds == 0 or seconds >= 1:
        return f"{seconds:.3g} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


@dataclass(frozen=True)
class Html:
    """A ready HTML fragment that notebooks display (and ``str`` gives as text)."""

    html: str
    text: str

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.text


def gallery(placements: Iterable[Any], captions: Iterable[str] | None = None) -> Html:
    """Small boards in a row, each with its caption (e.g. a solution's eight images)."""
    boards = list(placements)
    names = list(captions) if captions is not None else [str(p) for p in boards]
    cells = "".join(
        f'<figure style="margin:0 .6em .6em 0;text-align:center">{_small_board(p)}'
        f"<figcaption>{escape(name)}</figcaption></figure>"
        for p, name in zip(boards, names, strict=True)
    )
    text = "\n".join(f"{name}: {p}" for p, name in zip(boards, names, strict=True))
    return Html(f'<div style="display:flex;flex-wrap:wrap">{cells}</div>', text)


def _small_board(placement: Any) -> str:
    from queenslab.io.pictures import to_svg

    return to_svg(placement, cell=max(4, 120 // max(placement.n, 1)))


def comparison(results: Mapping[str, Any]) -> Html:
    """Results side by side: status, seconds and every statistic, one column per run.

    The effort figures are not the same unit from one paradigm to the next (nodes,
    branches, conflicts, LP iterations): the table shows each under its own name.
    """
    names = list(results)
    keys = sorted({key for r in results.values() for key in r.stats})
    rows = [("status", [str(r.status) for r in results.values()]),
            ("seconds", [seconds_text(r.seconds) for r in results.values()])]  # fmt: skip
    rows += [
        (key, [_number(r.stats[key], key) if key in r.stats else "" for r in results.values()])
        for key in keys
        if key != "profile"
    ]
    head = "".join(f"<th>{escape(name)}</th>" for name in ["", *names])
    body = "".join(
        f'<tr><th style="text-align:left">{escape(key)}</th>'
        + "".join(f'<td style="text-align:right">{escape(v)}</td>' for v in values)
        + "</tr>"
        for key, values in rows
    )
    grid = [["", *names], *([key, *values] for key, values in rows)]
    widths = [max(len(line[i]) for line in grid) for i in range(len(grid[0]))]
    text = "\n".join(
        "  ".join(
            f"{v:<{w}}" if i == 0 else f"{v:>{w}}"
            for i, (v, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in grid
    )
    return Html(f"<table><tr>{head}</tr>{body}</table>", text)


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
