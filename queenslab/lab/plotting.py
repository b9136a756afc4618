"""Figures for the lab commands: matplotlib imported only when a plot is asked for."""

from __future__ import annotations

from typing import Any


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(figure: Any, path: str) -> None:
    """Write ``figure`` as a PNG at ``path``, whole or not at all, and free it."""
    from queenslab.output import atomic_path

    with atomic_path(path) as temp:
        figure.tight_layout()
        figure.savefig(temp, dpi=120, format="png", bbox_inches="tight")
    pyplot().close(figure)
