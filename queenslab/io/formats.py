"""Every output format in one table: its name, suffixes, and how it writes an answer.

A format writes a whole answer with a board (``answer``: solve, optimize), one solution of
a stream (``solution``: enumerate), or both. The CLI builds its ``--format`` choices from
this table and infers the format of ``--output FILE`` from its suffix. A new format is a
writer and one line in ``FORMATS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, BinaryIO, TextIO

from queenslab.core.errors import UsageError
from queenslab.core.placement import Placement
from queenslab.io import writers

#: Pictures (SVG, PNG) grow with n²; past this size they are refused before any search.
MAX_PICTURE_N = 1000

AnswerWriter = Callable[[Any, Any], None]  # (result with .placement, open file)


@dataclass(frozen=True)
class Format:
    name: str
    help: str
    suffixes: tuple[str, ...] = ()
    answer: AnswerWriter | None = None
    solution: Callable[[Placement], str] | None = None
    binary: bool = False
    picture: bool = False  # drawn cell by cell: refused past MAX_PICTURE_N

    @property
    def needs_board(self) -> bool:
        """Without a board there is nothing to write (JSON still records the status)."""
        return self.name != "json"


def _board_text(style: str) -> AnswerWriter:
    def write(result: Any, out: TextIO) -> None:
        objective = getattr(result, "objective", None)
        if objective is not None:
            out.write(f"objective {objective}\n")
        out.write(writers.to_text(result.placement, style) + "\n")

    return write


def _marks(result: Any) -> dict[str, Any]:
    """The board and given queens a picture marks (blocked cells, givens), when known."""
    problem = result.problem
    return {} if problem is None else {"board": problem.board, "givens": problem.givens}


def _json(result: Any, out: TextIO) -> None:
    placement = result.placement
    writers.write_json(result.to_json(with_cols=False), out, placement and placement.cols)


def _npy(result: Any, out: BinaryIO) -> None:
    writers.write_npy(result.placement.as_array(), out)


def _jsonl(placement: Placement) -> str:
    """``{"cols": [...]}``: a list of ints prints as its JSON, in half the time of
    ``json.dumps`` (enumerations write a line per solution)."""
    return f'{{"cols": {placement.to_list()}}}\n'


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            "text",
            "a board of Q and . (large boards summarised)",
            (".txt",),
            _board_text("text"),
            lambda p: writers.to_text(p) + "\n\n",
        ),
        Format(
            "unicode",
            "a board of ♛ and ·",
            (),
            _board_text("unicode"),
            lambda p: writers.to_text(p, "unicode") + "\n\n",
        ),
        Format(
            "matrix",
            "a 0/1 matrix",
            (),
            _board_text("matrix"),
            lambda p: writers.to_text(p, "matrix") + "\n\n",
        ),
        Format(
            "leetcode",
            'LeetCode 51 rows, e.g. [".Q..", ...]',
            (),
            lambda result, out: out.write(writers.to_leetcode(result.placement) + "\n"),
            lambda p: writers.to_leetcode(p) + "\n",
        ),
        Format("json", "one JSON record (streamed for huge boards)", (".json",), _json),
        Format(
            "npy",
            "NumPy's .npy: the columns as one integer array (np.load reads it)",
            (".npy",),
            _npy,
            binary=True,
        ),
        Format("jsonl", 'one {"cols": [...]} line per solution', (".jsonl",), None, _jsonl),
        Format(
            "svg",
            "an SVG picture of the board",
            (".svg",),
            lambda result, out: out.write(
                writers.to_svg(result.placement, **_marks(result)) + "\n"
            ),
            picture=True,
        ),
        Format(
            "png",
            "a PNG picture of the board (needs --output)",
            (".png",),
            lambda result, out: writers.write_png(result.placement, out, **_marks(result)),
            binary=True,
            picture=True,
        ),
    )
}


def answer_formats() -> list[str]:
    return [name for name, f in FORMATS.items() if f.answer is not None]


def solution_formats() -> list[str]:
    return [name for name, f in FORMATS.items() if f.solution is not None]


def choose(name: str | None, output: str | None, choices: list[str], default: str) -> Format:
    """The format asked for, or the one ``output``'s suffix names, or ``default``.

    A suffix that names none of ``choices`` is refused rather than guessed at: writing
    text into ``board.png`` helps nobody.
    """
    if name is not None:
        return FORMATS[name]
    if output is None:
        return FORMATS[default]
    suffix = PurePath(output).suffix.lower()
    for candidate in choices:
        if suffix in FORMATS[candidate].suffixes:
            return FORMATS[candidate]
    if suffix:
        raise UsageError(
            f"cannot tell the format of {output} from its suffix {suffix!r}; "
            f"give --format ({', '.join(choices)})"
        )
    return FORMATS[default]


def check_size(fmt: Format, n: int) -> None:
    """Refuse, before any search, a picture too large to draw."""
    if fmt.picture and n > MAX_PICTURE_N:
        raise UsageError(
            f"--format {fmt.name} draws boards up to n = {MAX_PICTURE_N}; "
            "use --format json (or text) for larger ones"
        )
