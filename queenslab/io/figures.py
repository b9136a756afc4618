"""Figures for every command that draws: matplotlib is imported only when a plot is asked
for, always on the file-only Agg backend, and a figure is written whole or not at all."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

#: Figure formats, chosen by the --plot file's suffix.
SUFFIXES = (".png", ".svg", ".pdf")


def plot_path(text: str) -> str:
    """An argparse type for --plot: a known suffix in an existing directory, checked before
    the run so a long study never ends on an unwritable figure."""
    suffix = _suffix(text)
    if suffix not in SUFFIXES:
        raise argparse.ArgumentTypeError(f"a plot file ends in {', '.join(SUFFIXES)}: {text!r}")
    if not os.path.isdir(os.path.dirname(text) or "."):
        raise argparse.ArgumentTypeError(f"no directory for {text!r}")
    return text


def _suffix(path: str) -> str:
    """The file's suffix in lower case (os.path: pathlib costs a count's start-up 4 ms)."""
    return os.path.splitext(path)[1].lower()


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(figure: Any, path: str) -> None:
    """Write ``figure`` at ``path`` in the format its suffix names, whole or not at all."""
    from queenslab.io.output import atomic_path

    with atomic_path(path) as temp:
        figure.tight_layout()
        figure.savefig(temp, dpi=120, format=_suffix(path)[1:], bbox_inches="tight")
    pyplot().close(figure)


def tree_profile(profile: Sequence[int], title: str, path: str) -> None:
    """The nodes of each depth of a search tree as bars on a log scale (the tree profile)."""
    figure, axes = pyplot().subplots(figsize=(6, 3.5))
    axes.bar(range(len(profile)), profile, color="#4c72b0")
    axes.set_yscale("log")
    axes.set_xlabel("depth (queens placed)")
    axes.set_ylabel("nodes")
    axes.set_title(title)
    axes.set_xticks(range(len(profile)))
    save(figure, path)
