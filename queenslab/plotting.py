"""Figures for the commands that draw: matplotlib is imported only when a plot is asked for."""

from __future__ import annotations

from collections.abc import Sequence
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


def tree_profile(profile: Sequence[int], title: str, path: str) -> None:
    """The nodes of each depth of a search tree as bars on a log scale (the tree profile)."""
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.bar(range(len(profile)), profile, color="#4c72b0")
    axes.set_yscale("log")
    axes.set_xlabel("depth (queens placed)")
    axes.set_ylabel("nodes")
    axes.set_title(title)
    axes.set_xticks(range(len(profile)))
    save(figure, path)
