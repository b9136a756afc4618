"""Whole-process start-up of small commands: the default path against the compiled one.

For each command, runs in the same session, alternately, ``--repeat`` times: ``python -c
pass`` (the interpreter alone), the command as it runs by default (the pure-Python
``small`` backend, no NumPy or Numba), and the same command forced onto the Numba
``bitmask`` backend (the path every small command took before). Prints medians, the
import cost of ``queenslab`` and of the CLI parser, and the Numba path's share.

    PYTHONPATH=. python benchmarks/startup.py --repeat 7
"""

from __future__ import annotations

import argparse
import statistics
import sys

from _process import machine, measure, parse_args, queens_command

COMMANDS = ["count 12", "solve 8", "count 10", "enumerate 10", "count 13"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--commands", nargs="+", default=COMMANDS, help="each one quoted")
    args = parse_args(parser, {"repeat": 1, "commands": ["solve 8"]})
    print(machine())
    rows = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import queenslab": [sys.executable, "-c", "import queenslab"],
        "CLI parser built": [
            sys.executable,
            "-c",
            "from queenslab.cli import build_parser; build_parser()",
        ],
    }
    for name in args.commands:
        rows[f"queens {name}"] = [*queens_command(), *name.split()]
        rows[f"queens {name} -b bitmask"] = [*queens_command(), *name.split(), "-b", "bitmask"]
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.repeat):
        for name, argv in rows.items():
            times[name].append(measure(argv)[0])
    print(f"{'command':<40} {'median s':>9} {'min s':>7}")
    for name, values in times.items():
        print(f"{name:<40} {statistics.median(values):>9.3f} {min(values):>7.3f}")


if __name__ == "__main__":
    main()
