"""A trace as an animated GIF (Pillow), for slide software that does not play SVG.

Same frames and colours as the animated SVG; Pillow is imported only here.
"""

from __future__ import annotations

from typing import BinaryIO

from queenslab.core.errors import UsageError
from queenslab.io.pictures import STYLE
from queenslab.trace.svg import FRAME_SECONDS, frames
from queenslab.trace.tracer import Tracer


def write_gif(tracer: Tracer, out: BinaryIO, side: int = 480) -> None:
    """Write the looping animation of ``tracer``'s steps into ``out``."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise UsageError("--format gif needs Pillow (pip install pillow)") from None
    n = tracer.n
    cell = max(2, side // n)
    background = Image.new("RGB", (n * cell, n * cell), STYLE.light)
    draw = ImageDraw.Draw(background)
    for r in range(n):
        for c in range(r % 2 ^ 1, n, 2):
            draw.rectangle([c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1], STYLE.dark)
    images = []
    margin = cell * 0.15
    for board in frames(tracer):
        image = background.copy()
        pen = ImageDraw.Draw(image)
        for r, c in enumerate(board):
            if c >= 0:
                box = [c * cell + margin, r * cell + margin, (c + 1) * cell - margin,
                       (r + 1) * cell - margin]  # fmt: skip
                pen.ellipse(box, fill=STYLE.queen)
        images.append(image)
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:],
        duration=int(FRAME_SECONDS * 1000), loop=0,
    )  # fmt: skip
