"""How far a split proof of the armies search has come: its checkpoint read as a ledger.

A decision at a target is refuted once every row colouring is: those whose rectangle
bound (``Plan.row_bound``) is below the target at once, the others when the checkpoint
holds a bound below it (``exact.armies``). The ledger counts them, so that a proof run in
pieces, by any number of runs sharing the file, says how much is left:

    python -m queenslab.exact.armies_ledger ledger.sqlite 16 38
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem


@dataclass(frozen=True)
class Progress:
    """Row colourings refuted at ``target`` of ``total``; ``bound``, what no armies beat
    (the largest rectangle bound among the others, else target - 1: it falls as the
    ledger grows); pairs and nodes those the file records (the work its runs did)."""

    target: int
    refuted: int
    total: int
    bound: int
    pairs: int
    nodes: int

    @property
    def fraction(self) -> float:
        return self.refuted / self.total

    def __str__(self) -> str:
        return (
            f"at {self.target}: {self.refuted:,} of {self.total:,} row colourings refuted "
            f"({100 * self.fraction:.2f}%), so at most {self.bound}; {self.pairs:,} pairs and "
            f"{self.nodes:,} nodes recorded"
        )


def progress(path: str, problem: Problem, target: int) -> Progress:
    """The ledger of a checkpoint of ``problem``'s board at ``target``; a one-line
    UsageError when the file is missing or belongs to another board."""
    from queenslab.exact.armies import METHOD
    from queenslab.exact.armies_plan import Plan
    from queenslab.exact.checkpoint import Checkpoint

    if not Path(path).is_file():
        raise UsageError(f"no checkpoint {path}")
    plan = Plan.of(problem.board)
    jobs = plan.jobs()
    fingerprint, describe = plan.fingerprint(), problem.describe()
    with Checkpoint(path, plan.n, METHOD, len(jobs), fingerprint, describe) as kept:
        ids, rows = kept.finished()
    bounds = dict(zip(ids.tolist(), rows[:, 0].tolist(), strict=True))
    left = [plan.row_bound(job) for job in jobs if bounds.get(job, target) >= target]
    refuted = sum(bound < target for bound in left) + len(jobs) - len(left)
    bound = max([target - 1, *left])
    pairs, nodes = int(rows[:, 1].sum()), int(rows[:, 2].sum())
    return Progress(target, refuted, len(jobs), bound, pairs, nodes)


def main(argv: list[str] | None = None) -> int:
    """Print a standard board's ledger; a UsageError is one line and exit code 2."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("n", type=int)
    parser.add_argument("value", type=int)
    args = parser.parse_args(argv)
    try:
        problem = Problem(args.n, kind="peaceable")
        print(f"{problem.describe()} {progress(args.file, problem, args.value)}")
    except UsageError as error:
        print(f"queens: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
