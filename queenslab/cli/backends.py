"""``queens backends``: every backend, what it can do, on which boards, and its options."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from queenslab.core.backend import EVERY_KIND, Feature, Task
from queenslab.core.errors import ExitCode

if TYPE_CHECKING:
    from queenslab.registry import BackendInfo

HELP = "list backends: their own searches, the problems' models they solve, availability"
EXAMPLES = """examples:
  queens backends
  queens backends --verbose
  queens backends --format json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=["text", "json"], default="text")


def run(args: argparse.Namespace) -> int:
    from queenslab.registry import backends

    rows = backends()
    if args.format == "json":
        print(json.dumps([_record(b) for b in rows]))
        return ExitCode.OK
    table = [
        (
            b.name,
            str(b.family),
            _own(b),
            _tasks(b.tasks.get(EVERY_KIND, frozenset())) or "-",
            ",".join(f for f in Feature if f in b.features) or "-",
            ",".join(sorted(b.variants)),
            "yes" if b.available else f"no ({b.why_unavailable})",
        )
        for b in rows
    ]
    header = ("backend", "family", "own searches", "any model", "features", "variants", "available")
    widths = [max(len(row[i]) for row in [header, *table]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *table]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    if args.verbose:
        for b in rows:
            print(f"\n{b.name}: {b.summary}")
            for option in b.options:
                choices = f" ({', '.join(option.choices)})" if option.choices else ""
                default = "" if option.default is None else f" [default {option.default}]"
                print(f"  {option.flag}: {option.help}{choices}{default}")
    return ExitCode.OK


def _tasks(tasks: frozenset[Task]) -> str:
    return ",".join(t for t in Task if t in tasks)


def _own(b: BackendInfo) -> str:
    """The tasks the backend does by searches of its own, grouped by the kinds they serve:
    ``placement: solve,count``."""
    kinds: dict[str, list[str]] = {}
    for kind, tasks in b.tasks.items():
        if kind != EVERY_KIND:
            kinds.setdefault(_tasks(tasks), []).append(kind)
    return "; ".join(f"{','.join(names)}: {tasks}" for tasks, names in kinds.items()) or "-"


def _record(b: BackendInfo) -> dict[str, Any]:
    return {
        "name": b.name,
        "family": str(b.family),
        "capabilities": b.capabilities,
        "tasks": {kind: [str(t) for t in Task if t in tasks] for kind, tasks in b.tasks.items()},
        "features": [str(f) for f in Feature if f in b.features],
        "variants": sorted(b.variants),
        "options": [
            {"name": o.name, "help": o.help, "default": o.default, "choices": list(o.choices)}
            for o in b.options
        ],
        "available": b.available,
        "missing": list(b.missing),
        "reason": b.reason,
        "summary": b.summary,
    }
