"""``queens backends``: every backend, what it can do, on which boards, and its options."""

from __future__ import annotations

import argparse
import json

from queenslab.core.backend import Feature, Task
from queenslab.core.errors import ExitCode

HELP = "list backends: tasks, features, variants, other problems, availability"
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
            ",".join(t for t in Task if t in b.tasks) or "-",
            ",".join(f for f in Feature if f in b.features) or "-",
            ",".join(sorted(b.variants)),
            _other_problems(b),
            "yes" if b.available else f"no ({b.why_unavailable})",
        )
        for b in rows
    ]
    header = ("backend", "family", "tasks", "features", "variants", "other problems", "available")
    widths = [max(len(row[i]) for row in [header, *table]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *table]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    if args.verbose:
        for b in rows:
            print(f"\n{b.name}: {b.summary}")
            if _others(b):
                print(f"  problems: {', '.join(_others(b))}")
            for option in b.options:
                choices = f" ({', '.join(option.choices)})" if option.choices else ""
                default = "" if option.default is None else f" [default {option.default}]"
                print(f"  {option.flag}: {option.help}{choices}{default}")
    return ExitCode.OK


def _others(b):  # type: ignore[no-untyped-def]
    """The problem kinds besides placement the backend answers."""
    return [kind for kind in sorted(b.kinds) if kind != "placement"] if b.kind_tasks else []


def _other_problems(b) -> str:  # type: ignore[no-untyped-def]
    """The tasks a backend does on the kinds besides placement (``--problem``)."""
    return ",".join(t for t in Task if t in b.kind_tasks) if _others(b) else "-"


def _record(b):  # type: ignore[no-untyped-def]
    return {
        "name": b.name,
        "family": str(b.family),
        "capabilities": b.capabilities,
        "tasks": [str(t) for t in Task if t in b.tasks],
        "features": [str(f) for f in Feature if f in b.features],
        "variants": sorted(b.variants),
        "kinds": sorted(b.kinds),
        "kind_tasks": [str(t) for t in Task if t in b.kind_tasks],
        "options": [
            {"name": o.name, "help": o.help, "default": o.default, "choices": list(o.choices)}
            for o in b.options
        ],
        "available": b.available,
        "missing": list(b.missing),
        "reason": b.reason,
        "summary": b.summary,
    }
