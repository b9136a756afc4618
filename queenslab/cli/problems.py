"""``queens problems``: every problem kind, built-in or a plug-in's, with its models."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from queenslab.core.errors import ExitCode, QueensError

HELP = "list problem kinds: the question, its sense, models and published sequences"
EXAMPLES = """examples:
  queens problems
  queens problems --format json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=["text", "json"], default="text")


def run(args: argparse.Namespace) -> int:
    from queenslab.problems import BUILTIN, kind_class, kind_names

    records: list[dict[str, Any]] = []
    for name in kind_names():
        try:
            cls = kind_class(name)
        except QueensError as broken:  # one broken plug-in hides none of the others
            print(f"queens: warning: {broken}", file=sys.stderr)
            continue
        records.append({
            "name": name,
            "question": cls.question,
            "sense": "none" if cls.sense is None else str(cls.sense),
            "models": dict(cls.formulations()),
            "source": "built-in" if name in BUILTIN else f"plug-in ({cls.__module__})",
            "sequences": {"value": dict(cls.value_sequences), "count": dict(cls.count_sequences)},
        })  # fmt: skip
    if args.format == "json":
        print(json.dumps(records))
        return ExitCode.OK
    for record in records:
        print(f"{record['name']} ({record['sense']}, {record['source']}): {record['question']}")
        for model, where in record["models"].items():
            print(f"  --model {model}" + (f": {where}" if where else ""))
    return ExitCode.OK
