"""A trace as an animated GIF (Pillow), for slide software that does not play SVG.

The frames, colours, captions and geometry of the animated SVG (``replay.frames``,
``slide.Layout``); each frame keeps its own duration, so solutions and the last board stay
longer. Pillow is imported only here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import ProgressCallback
from queenslab.io.pictures import STYLE
from queenslab.trace.replay import Frame
from queenslab.trace.slide import FONT, Layout, TreeView
from queenslab.trace.tracer import Tracer


def write_gif(
    tracer: Tracer, problem: Problem, shown: list[Frame], out: IO[bytes],
    progress: ProgressCallback | None = None,
) -> None:  # fmt: skip
    """Write the looping animation of ``shown`` (frames of ``tracer``) into ``out``;
    ``progress(done, total)`` hears of each frame drawn (hundreds take seconds)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UsageError("--format gif needs Pillow (pip install pillow)") from None
    layout = Layout.of(tracer)
    background = Image.new("RGB", (layout.width, layout.height), "white")
    pen = ImageDraw.Draw(background)
    numbers = ImageFont.load_default(size=layout.number_font)
    for x, y, text in layout.numbers():
        pen.text((x, y), text, fill="#444", font=numbers, anchor="mm")
    for r in range(layout.n):
        for c in range(layout.n):
            colour = STYLE.blocked if (r, c) in problem.board.blocked else (
                STYLE.dark if (r + c) % 2 else STYLE.light)  # fmt: skip
            pen.rectangle(_box(layout, r, c, 0), colour)
    font = ImageFont.load_default(size=FONT)

    def picture(frame: Frame) -> Any:
        image = background.copy()
        _draw(ImageDraw.Draw(image, "RGBA"), frame, layout, problem)
        text = ImageDraw.Draw(image)
        text.text((4, layout.caption_baseline), frame.caption, "black", font, anchor="ls")
        return image

    palette = _palette([picture(f) for f in _samples(shown)], Image)

    def pictures() -> Iterator[Any]:  # one at a time: Pillow keeps only the palette frames
        for done, frame in enumerate(shown, 1):
            yield picture(frame).quantize(palette=palette, dither=Image.Dither.NONE)
            if progress is not None:
                progress(done, len(shown))

    images = pictures()
    next(images).save(
        out, format="GIF", save_all=True, append_images=images,
        duration=[round(f.seconds * 1000) for f in shown], loop=0,
    )  # fmt: skip


def _samples(shown: list[Frame], count: int = 12) -> list[Frame]:
    """Frames that hold every colour of the animation: evenly spread ones, the solutions."""
    every = max(1, len(shown) // count)
    return shown[::every] + [f for f in shown if f.solution][:count] + shown[-1:]


def _palette(samples: list[Any], image: Any) -> Any:
    """One palette for every frame, from a montage of ``samples``: mapping each frame to it
    is several times faster than Pillow quantizing each frame on its own."""
    width, height = samples[0].size
    montage = image.new("RGB", (width, height * len(samples)))
    for index, sample in enumerate(samples):
        montage.paste(sample, (0, index * height))
    return montage.quantize(255)


def _box(layout: Layout, r: int, c: int, inset: float) -> list[float]:
    cell = layout.cell
    left, top = layout.margin + c * cell + inset, layout.margin + r * cell + inset
    return [left, top, left + cell - 1 - 2 * inset, top + cell - 1 - 2 * inset]


def _draw(pen: Any, frame: Frame, layout: Layout, problem: Problem) -> None:
    """The marks, queens and tree of one frame over the board."""
    n, cell, half = layout.n, layout.cell, layout.cell / 2
    for r, c in ((r, c) for r in range(n) for c in range(n)):
        if frame.domains and frame.domains[r] >> c & 1:
            pen.rectangle(_box(layout, r, c, 0), STYLE.domain + "b3")
        if frame.crossed and frame.crossed[r] >> c & 1:
            left, top, right, bottom = _box(layout, r, c, cell * 0.22)
            for line in ([left, top, right, bottom], [right, top, left, bottom]):
                pen.line(line, STYLE.attacked, width=max(2, cell // 14))
    for row, colour in [(r, STYLE.moved) for r in frame.moved] + (
        [] if frame.emptied is None else [(frame.emptied, STYLE.attacked)]
    ):
        top = layout.margin + row * cell
        pen.rectangle(
            [layout.margin, top, layout.margin + n * cell - 1, top + cell - 1], colour + "73"
        )
    for r, c in problem.givens:
        pen.rectangle(_box(layout, r, c, 1), outline=STYLE.given, width=max(2, cell // 12))
    if frame.rejected is not None:
        r, c = frame.rejected
        pen.rectangle(_box(layout, r, c, 0), STYLE.attacked + "b3")
        if frame.attacker is not None:
            a, m = frame.attacker, layout.margin
            pen.line(
                [m + frame.cols[a] * cell + half, m + a * cell + half, m + c * cell + half,
                 m + r * cell + half],
                STYLE.attacked, width=max(2, cell // 10),
            )  # fmt: skip
    for row, col in enumerate(frame.cols):
        if col >= 0:
            colour = frame.colour(row, row in problem.given_cols)
            pen.ellipse(_box(layout, row, col, cell * 0.15), fill=colour)
    if layout.tree is not None:
        _draw_tree(pen, layout.tree, frame.step)


def _draw_tree(pen: Any, tree: TreeView, step: int) -> None:
    """The search tree as the SVG draws it at ``step``."""
    from PIL import ImageFont

    rx, ry = tree.rx, tree.ry
    font = ImageFont.load_default(size=tree.font) if tree.font else None
    width = max(1, round(min(3.0, rx * 0.35)))
    seen = [v for v in range(len(tree.parent)) if tree.born[v] <= step]
    for v in seen[1:]:
        pen.line([*tree.centres[tree.parent[v]], *tree.centres[v]], tree.colour(v, step), width)
    for v in seen:
        x, y = tree.centres[v]
        pen.ellipse([x - rx, y - ry, x + rx, y + ry], tree.colour(v, step))
        if tree.labels[v]:
            pen.text((x, y), tree.labels[v], "white", font, anchor="mm")
    x, y = tree.centres[tree.current(step)]
    pen.ellipse([x - rx - 3, y - ry - 3, x + rx + 3, y + ry + 3], outline="black", width=2)
