"""`queens solve N -b explicit` written as .npy and as streamed JSON: wall time, peak memory.

Both routes run in the same session, alternately, ``--repeat`` times (whole process,
start-up included); prints medians of wall time and of peak RSS. Targets from issue 14 at
N = 10^8: the npy route within 3 s and 1 GB; the JSON route's memory bounded by the
columns (no Python list of them).

    PYTHONPATH=. python benchmarks/explicit_npy.py --n 100000000 --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from _process import machine, measure, parse_args, queens_command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10**8])
    parser.add_argument("--repeat", type=int, default=3)
    args = parse_args(parser, {"n": [1000], "repeat": 1})
    print(machine())
    print(f"{'n':>11} {'format':<6} {'median s':>9} {'peak MB':>8} {'file MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.n:
            figures: dict[str, list[tuple[float, float]]] = {"npy": [], "json": []}
            for _ in range(args.repeat):
                for fmt in figures:
                    target = Path(folder) / f"board.{fmt}"
                    argv = [*queens_command(), "solve", str(n), "-b", "explicit",
                            "--format", fmt, "--output", str(target)]  # fmt: skip
                    figures[fmt].append(measure(argv))
            for fmt, runs in figures.items():
                size = (Path(folder) / f"board.{fmt}").stat().st_size / 1e6
                wall = statistics.median(w for w, _ in runs)
                peak = statistics.median(m for _, m in runs)
                print(f"{n:>11} {fmt:<6} {wall:>9.2f} {peak:>8.0f} {size:>8.0f}")


if __name__ == "__main__":
    main()
