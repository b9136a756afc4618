"""`queens count N --backend gpu` against ygch/n_queens on the same GPU, whole processes.

ygch/n_queens is the code of "High-Performance N-Queens Solver on GPU: Iterative DFS with
Zero Bank Conflicts"; its source is not part of queenslab. Pass ``--ygch`` the program
built from it, or its ``src`` folder, which is then built here with nvcc for this GPU (the
flags of its compile.sh). The whole GPU check in one run: first the gpu tests
(``pytest -m gpu -n 0 tests/integration/test_gpu_device.py``, their summary line in the
table's header; ``--no-tests`` leaves them out), then for each N the two programs run
alternately ``--repeat`` times, fewer when the time left of ``--budget`` seconds does not
allow (a pair at N + 1 is predicted as 8 times one at N; an N that does not fit once is
left out, saying so). It checks that the totals agree and prints, and writes to ``--out``
as Markdown, the medians, their ratio, the median of the per-repeat ratios and the GPU
model (from CuPy). Without a GPU it stops at once, saying why.

    PYTHONPATH=. python benchmarks/gpu_vs_ygch.py --ygch ~/n_queens/src --out gpu.md
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
#: How much longer a count of N + 1 takes than one of N (both programs, N around 20).
GROWTH = 8
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


def gpu_tests() -> str:
    """Run the gpu tests (the slow n = 22 left out): pytest's summary line."""
    argv = [sys.executable, "-m", "pytest", "-m", "gpu", "-n", "0", "-p", "no:cacheprovider",
            "-q", str(ROOT / "tests" / "integration" / "test_gpu_device.py")]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return lines[-1].strip("= ") if lines else f"pytest exited {done.returncode}"


def repeats(wanted: int, predicted: float | None, left: float) -> int:
    """Pairs of runs to make at one N: ``wanted``, or as many as ``left`` seconds hold at
    ``predicted`` seconds a pair (unknown: all of them); 0 when not even one fits."""
    if predicted is None:
        return wanted
    return min(wanted, int(left // predicted))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ygch", type=Path, help="ygch's program or src folder (required)")
    parser.add_argument("--n", type=int, nargs="+", default=[19, 20, 21, 22])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=YGCH_ROWS, help="rows ygch pre-places")
    parser.add_argument("--budget", type=float, default=540.0, help="seconds for it all")
    parser.add_argument("--no-tests", dest="tests", action="store_false")
    parser.add_argument("--out", type=Path, help="also write the table here (Markdown)")
    args = parse_args(parser, {"n": [8], "repeat": 1, "tests": False})
    model = gpu_model()
    if args.ygch is None:
        skip("no ygch program to compare with: pass --ygch (its source is not queenslab's)")
    deadline = time.monotonic() + args.budget
    lines = [f"## queens count N --backend gpu vs ygch/n_queens, whole processes, on {model}"]
    lines.append("")
    if args.tests:
        lines += [f"gpu tests: {gpu_tests()}", ""]
    lines += ["| N | runs | ygch s | queens s | queens / ygch | paired |", "|---" * 6 + "|"]
    print("\n".join(lines), flush=True)
    queens = [sys.executable, "-m", "queenslab", "count"]
    measured: tuple[int, float] | None = None  # the last N timed, and its pair's seconds
    with tempfile.TemporaryDirectory() as folder:
        ygch = str(ygch_program(args.ygch.expanduser(), Path(folder)))
        for n in sorted(args.n):
            predicted = measured[1] * GROWTH ** (n - measured[0]) if measured else None
            runs = repeats(args.repeat, predicted, deadline - time.monotonic())
            if runs == 0:
                row = f"| {n} | 0 | | | | left out: a pair takes about {predicted:.0f} s |"
                lines.append(row)
                print(row, flush=True)
                continue
            times: dict[str, list[float]] = {"ygch": [], "queens": []}
            for _ in range(runs):
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
            measured = n, theirs_s + ours_s
            ratio = ours_s / theirs_s
            row = f"| {n} | {runs} | {theirs_s:.2f} | {ours_s:.2f} | {ratio:.3f} | {paired:.3f} |"
            lines.append(row)
            print(row, flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
