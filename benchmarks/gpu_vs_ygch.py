"""`queens count N --backend gpu` against ygch/n_queens on the same GPU, whole processes.

ygch/n_queens is the code of "High-Performance N-Queens Solver on GPU: Iterative DFS with
Zero Bank Conflicts"; its source is not part of queenslab. Pass ``--ygch`` the program
built from it, or its ``src`` folder, which is then built here with nvcc for this GPU (the
flags of its compile.sh). For each N the two programs run alternately ``--repeat`` times;
the script checks that their totals agree and prints the medians, their ratio, the median
of the per-repeat ratios, and the GPU model (from CuPy). Without a GPU it stops at once.

    PYTHONPATH=. python benchmarks/gpu_vs_ygch.py --ygch ~/n_queens/src --n 20 21 22
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _process import needs, parse_args, skip

ROOT = Path(__file__).resolve().parent.parent
#: Rows ygch places on the host; its README's best setting for one GPU and N <= 22.
YGCH_ROWS = 5
_TOTAL = re.compile(r"result (\d+)")


def gpu_model() -> str:
    """The GPU's name; the script is skipped, saying why, where there is none."""
    from queenslab.exact import gpu

    problem = gpu.device_problem()
    if problem is not None:
        skip(f"no GPU to measure on: {problem}")
    return gpu.device_name()


def ygch_program(path: Path, folder: Path) -> Path:
    """The ygch program: ``path`` itself, or built into ``folder`` from the src folder."""
    if path.is_file():
        return path
    if not (path / "n_queens_cuda.cu").is_file():
        raise SystemExit(f"gpu_vs_ygch: {path} is neither a program nor ygch's src folder")
    import cupy

    arch = cupy.cuda.Device().compute_capability  # "90" on an H100
    program = folder / "n_queens"
    sources = ["n_queens_cuda.cu", "n_queens.cpp", "utils.cpp", "main.cpp"]
    nvcc = needs("nvcc", "to build ygch")
    subprocess.run(
        [nvcc, f"-gencode=arch=compute_{arch},code=sm_{arch}", *sources, "-o", str(program),
         "-O3", "-Xcompiler", "-fopenmp", "-D_USE_CONFIG2_"],
        cwd=path, check=True,
    )  # fmt: skip
    return program


def timed(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and the total printed by one whole run of ``argv``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode cache
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"gpu_vs_ygch: {' '.join(argv)} failed: {done.stderr.strip()}")
    found = _TOTAL.search(done.stdout)
    return seconds, int(found.group(1) if found else done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ygch", type=Path, help="ygch's program or src folder (required)")
    parser.add_argument("--n", type=int, nargs="+", default=[20, 21, 22])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=YGCH_ROWS, help="rows ygch pre-places")
    args = parse_args(parser, {"n": [8], "repeat": 1})
    model = gpu_model()
    if args.ygch is None:
        skip("no ygch program to compare with: pass --ygch (its source is not queenslab's)")
    queens = [sys.executable, "-m", "queenslab", "count"]
    with tempfile.TemporaryDirectory() as folder:
        ygch = str(ygch_program(args.ygch.expanduser(), Path(folder)))
        print(f"## queens count N --backend gpu vs ygch/n_queens, whole processes, on {model}\n")
        print(f"{'N':>3} {'ygch s':>9} {'queens s':>9} {'ratio':>7} {'paired':>7}")
        for n in args.n:
            times: dict[str, list[float]] = {"ygch": [], "queens": []}
            for _ in range(args.repeat):
                seconds, theirs = timed([ygch, str(n), str(args.rows)])
                times["ygch"].append(seconds)
                seconds, ours = timed([*queens, str(n), "--backend", "gpu", "--quiet"])
                times["queens"].append(seconds)
                if ours != theirs:
                    raise SystemExit(f"gpu_vs_ygch: n={n}: queens counts {ours}, ygch {theirs}")
            theirs_s, ours_s = (statistics.median(times[k]) for k in ("ygch", "queens"))
            paired = statistics.median(
                q / y for q, y in zip(times["queens"], times["ygch"], strict=True)
            )
            print(
                f"{n:>3} {theirs_s:>9.2f} {ours_s:>9.2f} {ours_s / theirs_s:>7.3f} {paired:>7.3f}"
            )


if __name__ == "__main__":
    main()
