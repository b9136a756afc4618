"""A trace as an animated GIF (Pillow), for slide software that does not play SVG.

The frames, colours and captions of the animated SVG (``replay.frames``); each frame keeps
its own duration, so solutions and the last board stay longer. Pillow is imported only here.
"""

from __future__ import annotations

from typing import Any, BinaryIO

from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.io.pictures import STYLE
from queenslab.trace.replay import DEFAULT_FPS, Frame, frames
from queenslab.trace.svg import FONT, SIDE
from queenslab.trace.tracer import Tracer


def write_gif(tracer: Tracer, problem: Problem, out: BinaryIO, fps: float = DEFAULT_FPS) -> None:
    """Write the looping animation of ``tracer``'s steps into ``out``."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UsageError("--format gif needs Pillow (pip install pillow)") from None
    n = tracer.n
    cell = max(2, SIDE // n)
    side = n * cell
    background = Image.new("RGB", (side, side + 2 * FONT), "white")
    pen = ImageDraw.Draw(background)
    for r in range(n):
        for c in range(n):
            colour = STYLE.blocked if (r, c) in problem.board.blocked else (
                STYLE.dark if (r + c) % 2 else STYLE.light)  # fmt: skip
            pen.rectangle(_box(r, c, cell, 0), colour)
    for r, c in problem.givens:
        pen.rectangle(_box(r, c, cell, 1), outline=STYLE.given, width=max(2, cell // 12))
    font = ImageFont.load_default(size=FONT)
    shown = frames(tracer, problem.board, fps)
    images = []
    for frame in shown:
        image = background.copy()
        _draw(ImageDraw.Draw(image, "RGBA"), frame, cell, problem)
        ImageDraw.Draw(image).text((4, side + 4), frame.caption, fill="black", font=font)
        images.append(image)
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:],
        duration=[round(f.seconds * 1000) for f in shown], loop=0,
    )  # fmt: skip


def _box(r: int, c: int, cell: int, inset: float) -> list[float]:
    left, top = c * cell + inset, r * cell + inset
    return [left, top, left + cell - 1 - 2 * inset, top + cell - 1 - 2 * inset]


def _draw(pen: Any, frame: Frame, cell: int, problem: Problem) -> None:
    """The marks and queens of one frame over the board."""
    n, half = problem.n, cell / 2
    for row in frame.moved:
        pen.rectangle([0, row * cell, n * cell - 1, (row + 1) * cell - 1], STYLE.moved + "73")
    if frame.rejected is not None:
        r, c = frame.rejected
        pen.rectangle(_box(r, c, cell, 0), STYLE.attacked + "b3")
        if frame.attacker is not None:
            a = frame.attacker
            pen.line(
                [frame.cols[a] * cell + half, a * cell + half, c * cell + half, r * cell + half],
                STYLE.attacked, width=max(2, cell // 10),
            )  # fmt: skip
    for row, col in enumerate(frame.cols):
        if col >= 0:
            colour = frame.colour(row, row in problem.given_cols)
            pen.ellipse(_box(row, col, cell, cell * 0.15), fill=colour)
