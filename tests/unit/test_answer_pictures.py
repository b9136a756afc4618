"""Pictures of the other kinds' answers: two armies, colour classes, dominated cells."""

from __future__ import annotations

import re

from queenslab.boards import board
from queenslab.io.pictures import STYLE, answer_svg, palette, write_answer_png
from queenslab.problems.coloring import ColourClasses, dsatur
from queenslab.problems.peaceable import Armies


def _circles(svg: str) -> list[str]:
    return re.findall(r'<circle [^>]*fill="([^"]+)"', svg)


def test_armies_are_white_and_black_queens():
    armies = Armies(frozenset({(0, 0), (0, 1)}), frozenset({(3, 3), (2, 3)}))
    svg = answer_svg(board(4), armies)
    assert sorted(_circles(svg)) == sorted([STYLE.white_queen] * 2 + [STYLE.queen] * 2)
    assert "<title>2 white and 2 black queens</title>" in svg


def test_colour_classes_tint_every_open_cell_one_hue_per_class():
    b = board(5, blocked=[(2, 2)])
    classes = ColourClasses.of(dsatur(b))
    svg = answer_svg(b, classes)
    tints = re.findall(r'fill="(#[0-9a-f]{6})" fill-opacity', svg)
    assert len(tints) == 24
    assert len(set(tints)) == len(classes.classes)
    assert "blocked: row 2, column 2" in svg
    numbers = re.findall(r"<text [^>]*>(\d+)</text>", svg)
    assert sorted(set(numbers), key=int) == [str(k) for k in range(len(classes.classes))]


def test_dominated_cells_are_tinted_and_the_rest_framed():
    queens = frozenset({(0, 0)})  # dominates its row, column and diagonal: 10 of 16 cells
    svg = answer_svg(board(4), queens)
    assert _circles(svg) == [STYLE.queen]
    assert svg.count(f'fill="{STYLE.dominated}"') == 9
    assert svg.count("not dominated") == 6
    assert "1 queens dominating 10 of 16 cells" in svg


def test_blocked_cells_count_as_cells_to_dominate():
    svg = answer_svg(board(3, blocked=[(1, 1)]), frozenset({(0, 0)}))
    assert "blocked: row 1, column 1" in svg
    assert "not dominated: row 1, column 1" not in svg  # the diagonal passes through it


def test_the_palette_gives_distinct_colours():
    assert len(set(palette(40))) == 40


def test_answers_are_drawn_as_png(tmp_path):
    out = tmp_path / "armies.png"
    with out.open("wb") as handle:
        write_answer_png(board(5), Armies(frozenset({(0, 0)}), frozenset({(4, 2)})), handle)
    assert out.read_bytes().startswith(b"\x89PNG")
