"""This checkout against an earlier commit, paired: the commands a refactoring must not slow.

Why: a change to the layers every call goes through (the api, the registry, the backends'
interface) can cost every command a little; a fair comparison runs both versions on the
same machine in the same session, alternately, and quotes the median of the per-pair
ratios, so a drift of the machine's speed cancels out. The earlier commit is checked out
into a temporary folder (``git archive``); both run as whole processes with their
own sources on PYTHONPATH, after one warm-up each (bytecode and Numba caches written).

    PYTHONPATH=. python benchmarks/revisions.py --base HEAD~1 --repeat 7
    PYTHONPATH=. python benchmarks/revisions.py --base HEAD~1 --repeat 3 \
        --command "decide 12 --problem domination --value 5 -b sat --model lines"
"""

from __future__ import annotations

import argparse
import io
import shlex
import statistics
import subprocess
import tarfile
import tempfile
from pathlib import Path

from _process import ROOT, machine, measure, needs, parse_args, queens_command, skip

#: The commands issue 34 names: the main counts, a first board, the SAT enumeration and
#: the CP-SAT count, each through the CLI as a user runs it.
COMMANDS = [
    ["count", "16"],
    ["solve", "8"],
    ["enumerate", "12", "-b", "sat"],
    ["count", "11", "-b", "cpsat"],
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD~1", help="the earlier commit (default HEAD~1)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--command",
        action="append",
        metavar="ARGS",
        help="a queens command line to compare instead of the default ones; repeatable",
    )
    args = parse_args(parser, {"base": "HEAD", "repeat": 1, "command": ["solve 8"]})
    commands = [shlex.split(line) for line in args.command] if args.command else COMMANDS
    if not (ROOT / ".git").exists():
        skip("not a git checkout: no earlier commit to compare with")
    git = needs("git", "to read the earlier commit")
    base = subprocess.run(
        [git, "-C", str(ROOT), "rev-parse", "--short", args.base],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    print(machine())
    print(f"this checkout against {base}, {args.repeat} pairs each, medians (seconds)\n")
    print(f"{'command':<28} {'base':>8} {'now':>8} {'now/base':>9}  pair ratios min..max")
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "base"
        _extract(base, tree)
        for command in commands:
            argv = [*queens_command(), *command]
            ok = (0, 1) if command[0] == "decide" else (0,)  # a decide's no is exit 1
            for root in (tree, ROOT):  # warm-up: caches written, kernels compiled
                measure(argv, root=root, ok=ok)
            pairs = [
                (measure(argv, root=tree, ok=ok)[0], measure(argv, root=ROOT, ok=ok)[0])
                for _ in range(args.repeat)
            ]
            ratios = [now / then for then, now in pairs]
            print(
                f"queens {' '.join(command):<21} "
                f"{statistics.median(p[0] for p in pairs):>8.3f} "
                f"{statistics.median(p[1] for p in pairs):>8.3f} "
                f"{statistics.median(ratios):>9.3f}  {min(ratios):.3f}..{max(ratios):.3f}"
            )


def _extract(commit: str, tree: Path) -> None:
    """The commit's files in ``tree``, the repository untouched (a worktree left its
    record behind when the run was killed)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        check=True, capture_output=True,
    ).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(archive)) as files:
        files.extractall(tree, filter="data")


if __name__ == "__main__":
    main()
