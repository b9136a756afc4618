"""Notebook displays: results and cross-check reports as small HTML cards and tables.

Jupyter calls ``_repr_html_`` on the last value of a cell; results and reports delegate
here so the markup lives in one place. Boards come from ``draw.preview_svg``, so a result
with 10^6 queens still displays in a few kB.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from queenslab.draw import preview_svg

if TYPE_CHECKING:
    from queenslab.crosscheck import CrosscheckReport

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
        f"{_table(facts)}{_table(sorted(result.stats.items()), 'statistics')}</div>"
        f"{board}</div>"
    )


def crosscheck_html(report: CrosscheckReport) -> str:
    """The report's table: one row per n, one column per backend, disagreements in red."""
    names = [*report.counters, *report.heuristics]
    head = "".join(f"<th>{escape(h)}</th>" for h in ["n", "OEIS", *names, ""])
    rows = []
    for row in report.rows:
        cells = [str(row.n), "?" if row.oeis is None else str(row.oeis)]
        cells += [row.counts[name].text() for name in report.counters]
        cells += [
            row.heuristics[h].text() if h in row.heuristics else "-" for h in report.heuristics
        ]
        verdict = "" if row.ok else "disagree" if row.disagrees else "failed"
        style = "" if row.ok else ' style="color:#d32f2f;font-weight:bold"'
        body = "".join(f"<td>{escape(cell)}</td>" for cell in [*cells, verdict])
        rows.append(f"<tr{style}>{body}</tr>")
    summary = "all agree" if report.ok else "DISAGREEMENT: see the rows in red"
    return (
        f"<table><caption>cross-check, {escape(report.variant)}: {summary}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _table(pairs: list[tuple[str, Any]], caption: str = "") -> str:
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
