"""`queens trace` exports for slides: --key-frames and --max-frames on the real command."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest


def _gif_frames(path) -> int:
    from PIL import Image

    with Image.open(path) as image:
        return image.n_frames


def test_a_frame_budget_sets_the_gif_frames(queens, tmp_path):
    pytest.importorskip("PIL")
    gif = tmp_path / "bt8.gif"
    run = queens("trace", "8", "--max-frames", "7", "--fps", "2", "-o", str(gif))
    assert run.returncode == 0, run.stderr
    assert _gif_frames(gif) == 7


def test_key_frames_make_a_short_svg_with_the_wipeouts(queens, tmp_path):
    picture = tmp_path / "fc8.svg"
    run = queens("trace", "8", "-b", "forward-checking", "--key-frames", "-o", str(picture))
    assert run.returncode == 0, run.stderr
    classes = [e.get("class") for e in ET.parse(picture).getroot().iter()]
    assert {"wipeout", "domain", "cross", "node"} <= set(classes)


@pytest.mark.parametrize(
    "bad", [["--max-frames", "0"], ["--max-frames", "-3"], ["--max-frames", "ten"]]
)
def test_a_bad_frame_budget_is_one_line_and_exit_2(queens, tmp_path, bad):
    target = tmp_path / "x.svg"
    refused = queens("trace", "8", *bad, "-o", str(target))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "--max-frames" in refused.stderr and not target.exists()


@pytest.mark.parametrize("option", [["--key-frames"], ["--max-frames", "5"]])
def test_frame_options_need_an_animation_format(queens, tmp_path, option):
    page = tmp_path / "x.html"
    refused = queens("trace", "6", *option, "-o", str(page))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "svg or gif" in refused.stderr and not page.exists()


def test_the_svg_scales_to_its_container_and_labels_every_node(queens, tmp_path):
    from queenslab.trace.slide import MIN_LABEL

    picture = tmp_path / "mac6.svg"
    run = queens("trace", "6", "-b", "mac", "--all", "--max-frames", "80", "-o", str(picture))
    assert run.returncode == 0, run.stderr
    root = ET.parse(picture).getroot()
    assert root.get("viewBox") and root.get("width") is None and root.get("height") is None
    svg = "{http://www.w3.org/2000/svg}"
    nodes = [e for e in root.iter(svg + "ellipse") if e.get("class") == "node"]
    labels = [e for e in root.iter(svg + "text") if e.get("fill") == "white"]
    assert len(labels) == len(nodes) - 1  # every queen's node but the empty board's
    assert min(int(e.get("font-size")) for e in labels) >= MIN_LABEL
