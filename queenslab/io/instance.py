"""Instances as files: a board, its blocked cells and given queens, and where they came from.

The format (JSON, one object; ``version`` 1)::

    {
     "format": "queenslab-instance",
     "version": 1,
     "n": 12,
     "variant": "standard",
     "blocked": [[0, 3], [5, 7]],
     "givens": [[2, 4]],
     "provenance": {"generator": "blocked", "density": 0.5, "seed": 3, "min_open": 4}
    }

Cells are ``[row, col]``, 0-based. ``format``, ``version`` and ``n`` are required, each key
once; ``variant`` (default standard), ``blocked``, ``givens`` and ``provenance`` may be left
out; ``provenance`` is free-form (the generators record
their kind, density, seed and parameters there) and never changes what is solved. Every
command that takes a board reads it with ``--instance FILE``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from queenslab.boards import DEFAULT_VARIANT, Cell
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.io.textfiles import unique_keys

FORMAT = "queenslab-instance"
VERSION = 1
#: A larger file is refused rather than read (e.g. /dev/zero given by mistake).
MAX_BYTES = 64 << 20


@dataclass(frozen=True)
class Instance:
    """A problem and its provenance, as read from or written to an instance file."""

    problem: Problem
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        p = self.problem
        return {
            "format": FORMAT,
            "version": VERSION,
            "n": p.n,
            "variant": p.variant,
            "blocked": [list(cell) for cell in p.blocked],
            "givens": [list(cell) for cell in p.givens],
            "provenance": self.provenance,
        }

    def dumps(self) -> str:
        """The file's text: one field per line, each cell list on one line."""
        fields = self.to_json().items()
        return (
            "{\n"
            + ",\n".join(
                f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in fields
            )
            + "\n}\n"
        )

    @classmethod
    def from_json(cls, data: Any, where: str = "instance") -> Instance:
        """An instance from parsed JSON; a one-line UsageError naming ``where`` otherwise."""
        if not isinstance(data, dict):
            raise UsageError(f"{where}: an instance is a JSON object")
        version = data.get("version")
        if data.get("format") != FORMAT or isinstance(version, bool) or version != VERSION:
            raise UsageError(
                f"{where}: not a {FORMAT} file of version {VERSION} "
                f'(it needs "format": "{FORMAT}" and "version": {VERSION})'
            )
        n = data.get("n")
        if isinstance(n, bool) or not isinstance(n, int):
            raise UsageError(f"{where}: 'n' must be a whole number")
        variant = data.get("variant", DEFAULT_VARIANT)
        provenance = data.get("provenance", {})
        if not isinstance(variant, str) or not isinstance(provenance, dict):
            raise UsageError(f"{where}: 'variant' must be a name and 'provenance' an object")
        blocked, givens = (_cells(data.get(key, []), key, where) for key in ("blocked", "givens"))
        try:
            problem = Problem(n, givens, variant, blocked)
        except UsageError as exc:
            raise UsageError(f"{where}: {exc}") from None
        return cls(problem, provenance)


def _cells(value: Any, key: str, where: str) -> tuple[Cell, ...]:
    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if not isinstance(value, list) or not all(
        isinstance(cell, list) and len(cell) == 2 and all(map(whole, cell)) for cell in value
    ):
        raise UsageError(f"{where}: {key!r} must be a list of [row, col] pairs")
    return tuple((r, c) for r, c in value)


def read(path: str) -> Instance:
    """The instance in the file at ``path``; a one-line UsageError when it is not one."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise UsageError(f"{path} is larger than {MAX_BYTES >> 20} MB: not an instance file")
    try:
        data = json.loads(raw.decode("utf-8"), object_pairs_hook=unique_keys)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise UsageError(f"{path} is not an instance file (JSON): {exc}") from None
    except ValueError as exc:  # a key given twice
        raise UsageError(f"{path}: {exc}") from None
    return Instance.from_json(data, path)


def write(instance: Instance, path: str) -> None:
    """Write ``instance`` to ``path``, whole or not at all."""
    from queenslab.io.output import atomic_output

    with atomic_output(path) as out:
        out.write(instance.dumps())
