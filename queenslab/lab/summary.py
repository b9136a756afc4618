"""What the lab reports of repeated runs: quartiles that keep the timed-out runs.

Timed-out runs are kept as infinite values: they rank above every finished run, so a
quartile that falls on one reads "limit" instead of silently shrinking the sample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Quartiles:
    """First quartile, median and third quartile; ``math.inf`` marks a timed-out rank."""

    q1: float
    median: float
    q3: float

    def to_json(self) -> dict[str, float | None]:
        """Numbers, with None where a quartile fell on a timed-out run."""
        return {
            key: (None if math.isinf(value) else round(value, 6))
            for key, value in (("q1", self.q1), ("median", self.median), ("q3", self.q3))
        }


def quartiles(values: Sequence[float]) -> Quartiles | None:
    """Quartiles by linear interpolation between ranks (None for no values)."""
    if not values:
        return None
    ranked = sorted(values)
    return Quartiles(*(_at(ranked, p) for p in (0.25, 0.5, 0.75)))


def _at(ranked: Sequence[float], fraction: float) -> float:
    position = fraction * (len(ranked) - 1)
    low = math.floor(position)
    weight = position - low
    if weight == 0:
        return ranked[low]
    below, above = ranked[low], ranked[low + 1]
    if math.isinf(above):
        return math.inf
    return below + weight * (above - below)


def number(value: float, scale: float = 1.0) -> str:
    """A figure for a table: 3 significant digits, thousands separated, "limit" for inf."""
    if math.isinf(value):
        return "limit"
    value *= scale
    if float(value).is_integer() or abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def spread(found: Quartiles | None, unit: str = "") -> str:
    """``median unit [q1–q3]`` for a table cell ("-" when nothing was measured).

    Seconds below one are shown in milliseconds; the quartiles share the median's unit.
    """
    if found is None:
        return "-"
    scale, suffix = 1.0, ""
    if unit == "s":
        scale, suffix = (1000.0, " ms") if found.median < 1 else (1.0, " s")
    middle = number(found.median, scale) + ("" if math.isinf(found.median) else suffix)
    if found.q1 == found.q3:
        return middle
    return f"{middle} [{number(found.q1, scale)}–{number(found.q3, scale)}]"


def figures(found: Quartiles | None) -> list[float | None]:
    """Median, first and third quartile as numbers for a CSV table; None (an empty cell)
    where nothing was measured or a quartile fell on a timed-out run."""
    if found is None:
        return [None, None, None]
    return [_plain(v) for v in (found.median, found.q1, found.q3)]


def _plain(value: float) -> float | None:
    """A figure as written in CSV: whole numbers without ".0", others to the microsecond."""
    if math.isinf(value):
        return None
    return int(value) if float(value).is_integer() else round(value, 6)
