"""The tables the lab commands write: Markdown, CSV or JSON, chosen by name or file suffix.

A table is its cells (what Markdown shows: ``6.68 ms [6.58–6.81]``), its numbers (what CSV
holds: one number a cell, the quartiles in columns of their own, seconds in seconds) and
its data (what JSON holds: the same figures with everything behind them), built once by
each engine.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from queenslab.core.errors import UsageError

#: Table format -> the suffixes that select it for ``--output``.
FORMATS: dict[str, tuple[str, ...]] = {
    "markdown": (".md", ".markdown"),
    "csv": (".csv",),
    "json": (".json",),
}
DEFAULT_FORMAT = "markdown"
#: Short names accepted by --format.
ALIASES = {"md": "markdown"}
#: Every name --format accepts.
FORMAT_NAMES = (*FORMATS, *ALIASES)


@dataclass
class Table:
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    data: dict[str, Any]
    #: Lines printed under a Markdown table (what a reader needs to read it).
    notes: list[str] = field(default_factory=list)
    #: The CSV table: its columns and rows of numbers (None: an empty cell) and names.
    numbers: tuple[Sequence[str], Sequence[Sequence[Any]]] = ((), [])

    def markdown(self) -> str:
        lines = [_md_row(self.columns), _md_row(["---"] * len(self.columns))]
        lines += [_md_row(row) for row in self.rows]
        return "\n".join(lines + (["", *self.notes] if self.notes else [])) + "\n"

    def write(self, fmt: str, out: TextIO) -> None:
        if fmt == "json":
            json.dump(self.data, out, indent=1)
            out.write("\n")
        elif fmt == "csv":
            columns, rows = self.numbers
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(columns)
            writer.writerows(rows)
        else:
            out.write(self.markdown())


def _md_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |"


def choose_format(name: str | None, output: str | None) -> str:
    """The format named, else the one ``output``'s suffix implies, else Markdown."""
    if name is not None:
        return ALIASES.get(name, name)
    if output is not None:
        suffix = Path(output).suffix.lower()
        for fmt, suffixes in FORMATS.items():
            if suffix in suffixes:
                return fmt
        if suffix:
            known = ", ".join(s for suffixes in FORMATS.values() for s in suffixes)
            raise UsageError(
                f"cannot tell a table format from {output!r} (use {known} or --format)"
            )
    return DEFAULT_FORMAT
