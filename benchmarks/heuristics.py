"""Time min-conflicts and the explicit construction on huge boards.

Two figures per backend and n, medians of ``--repeat`` runs on this machine:
- search: seconds inside the backend (``SolveResult.seconds``), after a warm-up run so
  Numba's compile (or cache load) is not counted; validation is not included;
- process: wall seconds of a whole ``queens solve N --backend B --seed 1 --format json
  --output FILE`` (``--seed`` where the backend takes one): start-up, compile cache,
  search, validation, JSON writing.

    python benchmarks/heuristics.py               # n = 10^4 .. 10^7
    python benchmarks/heuristics.py --huge        # also 10^8 (about 20 GB free memory)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _process import parse_args

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import queenslab as ql  # noqa: E402
from queenslab import registry  # noqa: E402

BACKENDS = ("min-conflicts", "explicit")


def search_seconds(backend: str, n: int, repeat: int) -> float:
    times = []
    for run in range(repeat):
        result = ql.solve(n, backend=backend, seed=1 + run)
        assert result.status == ql.Status.SOLVED, result.status
        times.append(result.seconds)
    return statistics.median(times)


def process_seconds(backend: str, n: int, repeat: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "board.json"
        command = [sys.executable, "-m", "queenslab", "solve", str(n), "--backend", backend]
        seeded = ["--seed", "1"] if registry.backend_class(backend).uses_seed else []
        command += [*seeded, "--format", "json", "--output", str(out)]
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(command, check=True, env=env)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--huge", action="store_true", help="also n = 10^8")
    parser.add_argument("--no-process", action="store_true", help="skip whole-process runs")
    parser.add_argument("--n", type=int, nargs="+", default=[10**4, 10**5, 10**6, 10**7])
    args = parse_args(parser, {"n": [1000], "repeat": 1})
    sizes = args.n + ([10**8] if args.huge else [])
    for backend in BACKENDS:
        ql.solve(1000, backend=backend, seed=0)  # compile or load the Numba cache
    print(f"medians of {args.repeat} runs, {os.cpu_count()} cores")
    print("| backend | n | search s | whole process s |")
    print("|---|---:|---:|---:|")
    for n in sizes:
        for backend in BACKENDS:
            search = search_seconds(backend, n, args.repeat)
            whole = "-" if args.no_process else f"{process_seconds(backend, n, args.repeat):.3f}"
            print(f"| {backend} | {n:.0e} | {search:.3f} | {whole} |", flush=True)


if __name__ == "__main__":
    main()
