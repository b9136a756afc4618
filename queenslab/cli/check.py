"""``queens check FILE``: is the placement in a file valid? One line, exit 0, 1 or 2.

The file may come from anyone (see queenslab.io.readers for the formats). Validity is the
board layer's: ``Board.check`` for boards up to ``boards.base.KERNEL_FROM`` queens, and the
compiled one-pass ``Board.is_valid`` beyond, where a clash is then located in O(n) with the
board's own line keys, so 10^8 queens never become Python integers.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from queenslab import boards
from queenslab.boards.base import KERNEL_FROM, LineFamily
from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode, UsageError
from queenslab.io import readers

if TYPE_CHECKING:
    import numpy as np

    from queenslab.boards import Board

HELP = "validate a placement written by anyone (JSON, npy, LeetCode, 0/1 matrix, text)"
EXAMPLES = """examples:
  queens check board.json
  queens check board.npy
  queens solve 1000000 --format npy --output q.npy && queens check q.npy
  queens enumerate 8 --format leetcode --output all8.txt && queens check all8.txt --format leetcode
  queens check board.txt --variant toroidal --blocked 0:0"""
#: Rows compared at a time when locating a clash in a huge placement.
_CHUNK = 1 << 22


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the placement(s) to check")
    a.add_board_rules(parser, variant_default=None)
    parser.add_argument(
        "--format",
        choices=["auto", *readers.READERS],
        default="auto",
        help="how FILE is written (default: from its suffix, else from its content)",
    )


def run(args: argparse.Namespace) -> int:
    blocked = a.blocked_cells(args)
    checked = 0
    n = 0
    variant = args.variant
    for found in readers.read(args.file, args.format):
        n = len(found.cols)
        if found.n is not None and found.n != n:
            raise UsageError(f"{args.file} says n = {found.n} but holds {n} columns")
        variant = args.variant or found.variant or boards.DEFAULT_VARIANT
        if variant not in boards.VARIANTS:
            raise UsageError(f"{args.file} names an unknown variant {variant!r}")
        if n == 0:
            raise UsageError(f"{args.file} holds an empty placement")
        board = boards.board(n, variant, blocked)
        problem = verdict(board, found.cols)
        if problem is not None:
            where = f"{found.where}: " if found.where else ""
            print(f"invalid: {where}{problem}")
            return ExitCode.NO_SOLUTION
        checked += 1
    if not checked:
        raise UsageError(f"{args.file} holds no placement")
    what = f"{n} queens" if checked == 1 else f"{checked} placements of {n} queens"
    rules = f"{variant} board" + (f", {len(blocked)} blocked cells" if blocked else "")
    print(f"valid: {what}, {rules}")
    return ExitCode.OK


def verdict(board: Board, cols: Sequence[int] | np.ndarray) -> str | None:
    """None when ``cols`` is valid on ``board``, else what is wrong, in one line."""
    if len(cols) < KERNEL_FROM:
        found = board.check(cols)
        return None if found.valid else found.describe()
    if board.is_valid(cols):
        return None
    import numpy as np

    return _huge_clash(board, np.asarray(cols))  # a JSON list of 8 MB is read as a list


def _huge_clash(board: Board, cols: np.ndarray) -> str:
    """What is wrong with a huge invalid placement, found in O(n) without Python integers.

    The board's compiled pass names the first row attacked from above (or off the board);
    its partner is the first earlier row on one of its lines, by the board's line keys.
    """
    import numpy as np

    from queenslab.boards.validate_kernel import first_clash

    n = board.n
    pairs = []
    row = int(first_clash(np.ascontiguousarray(cols), board.variant.wraps))
    if row >= 0:
        col = int(cols[row])
        if not 0 <= col < n:
            return f"row {row} has its queen off the board"
        partners = (_first_on_line(family, cols, row, col) for family in board.families[1:])
        pairs.append((min(p for p in partners if p is not None), row))
    for r, c in board.blocked:
        if cols[r] == c:
            return f"row {r} has its queen on a blocked cell"
    for dr, dc in board.variant.leaps:

        def leaped(s: int, e: int, dr: int = dr, dc: int = dc) -> np.ndarray:
            hit: np.ndarray = cols[s + dr : e + dr] - cols[s:e] == dc
            return hit

        hits = _first_true(leaped, n - dr)
        if hits is not None:
            pairs.append((hits, hits + dr))
    if not pairs:
        return "invalid"  # unreachable: is_valid found something, and so did one test here
    earlier, later = min(pairs, key=lambda pair: pair[1])
    return f"the queens of rows {earlier} and {later} attack each other"


def _first_on_line(family: LineFamily, cols: np.ndarray, row: int, col: int) -> int | None:
    """The first row above ``row`` whose queen shares its line of ``family``."""
    import numpy as np

    n = len(cols)
    key = family.key(n, row, col)

    def same_line(start: int, stop: int) -> np.ndarray:
        rows = np.arange(start, stop, dtype=np.int64)
        same: np.ndarray = family.key(n, rows, np.asarray(cols[start:stop], dtype=np.int64)) == key
        return same

    return _first_true(same_line, row)


def _first_true(test: Callable[[int, int], np.ndarray], length: int) -> int | None:
    """The first index below ``length`` where ``test(start, stop)`` holds, chunk by chunk."""
    import numpy as np

    for start in range(0, length, _CHUNK):
        hits = np.flatnonzero(test(start, min(length, start + _CHUNK)))
        if len(hits):
            return start + int(hits[0])
    return None
