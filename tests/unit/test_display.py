"""Pictures and notebook displays: marks in one style, bounded sizes, HTML cards."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import numpy as np

from queenslab import api
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.io.notebook import register_with_ipython, result_html
from queenslab.io.pictures import PREVIEW_MAX_N, STYLE, preview_svg, to_svg, write_png
from queenslab.lab import crosscheck

SVG = "{http://www.w3.org/2000/svg}"


def _circles(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(f"{SVG}circle")


def test_an_invalid_placement_shows_its_attacks():
    bad = Placement([0, 1, 2, 3])
    svg = to_svg(bad)
    lines = ET.fromstring(svg).findall(f"{SVG}line")
    assert len(lines) == len(bad.attacking_pairs())
    assert {c.get("fill") for c in _circles(svg)} == {STYLE.attacked}


def test_a_valid_placement_has_no_attack_marks_and_givens_stand_out():
    problem = Problem(8, givens=((0, 0),), blocked=((7, 7),))
    placement = api.solve(problem, "backtrack").placement
    svg = to_svg(placement, board=problem.board, givens=problem.givens)
    root = ET.fromstring(svg)
    assert root.findall(f"{SVG}line") == []
    fills = [c.get("fill") for c in _circles(svg)]
    assert fills[0] == STYLE.given and set(fills[1:]) == {STYLE.queen}
    assert [r.get("fill") for r in root.findall(f"{SVG}rect")].count(STYLE.blocked) == 1


def test_png_is_drawn():
    out = io.BytesIO()
    write_png(Placement([0, 1, 2, 3]), out)
    assert out.getvalue().startswith(b"\x89PNG")


def test_svg_grows_with_n_not_n_squared():
    sizes = [len(to_svg(Placement(np.arange(n)), cell=2)) for n in (100, 400)]
    assert sizes[1] < 5 * sizes[0]


def test_small_placements_preview_as_boards_and_huge_ones_as_a_density_image():
    assert len(_circles(preview_svg(Placement([1, 3, 0, 2])))) == 4
    n = 10**6
    huge = Placement(np.random.default_rng(0).permutation(n).astype(np.int32))
    svg = preview_svg(huge)
    assert len(svg) < 16_000 and "data:image/png;base64," in svg
    assert f"{n} queens" in svg
    boundary = preview_svg(Placement(np.arange(PREVIEW_MAX_N + 1)))
    assert "image/png" in boundary


def test_results_display_as_cards():
    solved = api.solve(8, "backtrack")
    html = result_html(solved)
    assert "solved" in html and "<svg" in html and "nodes" in html
    counted = api.count(Problem(6), "backtrack", unique=True)
    html = result_html(counted)
    assert f"<td>{counted.total}</td>" in html and "<svg" not in html


def test_an_ipython_shell_draws_placements_and_results():
    """The vocabulary has no display hooks of its own: io teaches IPython to draw it."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        assert register_with_ipython()
        shown, _ = shell.display_formatter.format(Placement([1, 3, 0, 2]))
        assert len(_circles(shown["image/svg+xml"])) == 4
        card, _ = shell.display_formatter.format(api.count(6, "backtrack"))
        assert "<td>4</td>" in card["text/html"]
    finally:
        InteractiveShell.clear_instance()


def test_crosscheck_report_displays_as_a_table():
    report = crosscheck.crosscheck([5, 6], ["backtrack", "bitmask"])
    html = report._repr_html_()
    assert html.count("<tr>") == 1 + len(report.counts.rows)
    assert "all agree" in html


def test_cli_pictures_mark_the_problems_givens_and_blocked_cells(tmp_path):
    import subprocess
    import sys

    def svg(*extra: str) -> str:
        argv = [sys.executable, "-m", "queenslab", "solve", "6", "--format", "svg", *extra]
        return subprocess.run(argv, capture_output=True, text=True, check=True).stdout

    marked = svg("--given", "0:1", "--blocked", "2:2")
    assert STYLE.given in marked and STYLE.blocked in marked
    plain = svg()
    assert STYLE.given not in plain and STYLE.blocked not in plain
    png = tmp_path / "board.png"
    subprocess.run(
        [sys.executable, "-m", "queenslab", "solve", "6", "--given", "0:1", "-o", str(png)],
        check=True,
    )
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_result_cards_show_seconds_in_units_a_reader_takes_in():
    from queenslab.io.notebook import seconds_text

    assert [seconds_text(s) for s in (8.81e-07, 0.0123, 0.35, 12.0, 0)] == [
        "0.881 µs", "12.3 ms", "350 ms", "12 s", "0 s"
    ]  # fmt: skip
    card = result_html(api.solve(8, "backtrack"))
    assert "e-0" not in card and "startup_seconds" in card


def test_a_gallery_draws_every_image_and_a_comparison_shows_the_statistics():
    from queenslab.core.placement import SYMMETRY_NAMES
    from queenslab.io.notebook import comparison, gallery

    solution = api.solve(8, "backtrack").placement
    shown = gallery(solution.symmetries(), SYMMETRY_NAMES)._repr_html_()
    assert shown.count("<svg") == 8 and all(name in shown for name in SYMMETRY_NAMES)
    table = comparison({b: api.solve(8, b) for b in ("backtrack", "csp")})
    assert "<th>nodes</th>" in table._repr_html_().replace(' style="text-align:left"', "")
    assert "114" in str(table) and "pruned" in str(table)
