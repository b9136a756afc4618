"""The player readable from the back row: the screenshot tool's scenes, at 1024 x 768 and
1920 x 1080, at the default and the projector scale, measured in a real headless Chromium.

Every piece of text is a box: the page's text as laid out (one box per line), and the
canvases' labels as the player drew them (``canvas.boxes``: a tree node is its label's
box). No two boxes overlap, none leaves the window, the page does not scroll, and at the
projector scale the captions are at least 3% of the window's height. Skipped, with the
reason, without chromium or selenium.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1024, 768), (1920, 1080)]
#: The scenes measured: every kind of panel (trees with and without MRV, two traces, the
#: conflicts chart, the folded and zoomed tree, givens); player-mac opens AC-3's list over
#: its tree, which covers the tree's labels by design, so it is left out.
MEASURED = ["player-compare", "player-mrv", "player-fc-mrv", "player-mac-mrv", "player-minton",
            "player-tree", "player-given"]  # fmt: skip

# Text boxes in CSS pixels of the window, [left, top, right, bottom, what]: the text nodes'
# line boxes, then each canvas's drawn labels moved by the canvas's place.
_BOXES = """
const boxes = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement, what = node.textContent.trim();
  if (!what || !el.checkVisibility({ visibilityProperty: true })) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  for (const r of range.getClientRects()) boxes.push([r.left, r.top, r.right, r.bottom, what]);
}
for (const canvas of document.querySelectorAll("canvas")) {
  const r = canvas.getBoundingClientRect();
  const x = r.left + canvas.clientLeft, y = r.top + canvas.clientTop;
  for (const [left, top, w, h] of canvas.boxes || []) {
    boxes.push([x + left, y + top, x + left + w, y + top + h, canvas.id]);
  }
}
return boxes;
"""


def _tool():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "tools" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool():
    pytest.importorskip("selenium.webdriver", reason="selenium not installed")
    if not ((shutil.which("chromium") or shutil.which("chromium-browser")) and
            shutil.which("chromedriver")):  # fmt: skip
        pytest.skip("chromium and chromedriver not installed (Debian: chromium chromium-driver)")
    return _tool()


@pytest.fixture(scope="module")
def driver(tool):
    session = tool.browser()
    yield session
    session.quit()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The scenes' pages, each made once by the tool (``queens trace``) for every size."""
    return tmp_path_factory.mktemp("pages")


def overlaps(boxes):
    """Pairs of boxes that share more than half a pixel each way."""
    boxes = sorted(boxes)  # by left edge: a box meets only those that start before it ends
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b[0] >= a[2] - 0.5:
                break
            if min(a[3], b[3]) - max(a[1], b[1]) > 0.5 and min(a[2], b[2]) - b[0] > 0.5:
                found.append((a, b))
    return found


def test_overlaps_are_found():
    assert overlaps([[0, 0, 10, 10, "a"], [9, 9, 20, 20, "b"], [20, 0, 30, 9, "c"]]) == [
        ([0, 0, 10, 10, "a"], [9, 9, 20, 20, "b"])
    ]


@pytest.mark.parametrize("projector", [False, True], ids=["default", "projector"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", MEASURED)
def test_no_text_overlaps_or_leaves_the_window(tool, driver, pages, tmp_path, name, size,
                                               projector):  # fmt: skip
    scene = tool.SCENES[name]
    tool.show(driver, scene, tool.page(name, scene, pages, projector), size)
    driver.save_screenshot(str(tmp_path / f"{name}.png"))  # what a failure looked like
    width, height = size
    boxes = driver.execute_script(_BOXES)
    assert boxes and overlaps(boxes) == []
    outside = [b for b in boxes if b[0] < -0.5 or b[1] < -0.5 or b[2] > width + 0.5 or
               b[3] > height + 0.5]  # fmt: skip
    assert outside == []
    scrolled = driver.execute_script(
        "const e = document.documentElement; return [e.scrollWidth, e.scrollHeight]"
    )
    assert scrolled == [width, height]
    canvases = driver.execute_script(
        "return [...document.querySelectorAll('canvas')].map((c) => c.getBoundingClientRect())"
        ".map((r) => [r.left, r.top, r.right, r.bottom])"
    )
    assert all(x >= 0 and y >= 0 and r <= width and b <= height for x, y, r, b in canvases)
    if projector:
        fonts = driver.execute_script(
            "return [...document.querySelectorAll('.caption')]"
            ".map((c) => parseFloat(getComputedStyle(c).fontSize))"
        )
        assert min(fonts) >= 0.03 * height
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.parametrize("name", ["player-mac-mrv", "player-compare"])
def test_stepping_never_pushes_the_page_past_the_window(tool, driver, pages, name):
    """A caption that grows a line, or AC-3's line appearing, makes the canvases room."""
    scene = tool.SCENES[name]
    tool.show(driver, scene, tool.page(name, scene, pages, True), tool.SMALL)
    heights = driver.execute_script(
        "const seen = [];"
        "for (let k = 0; k <= player.length; k++) {"
        "  player.go(k); seen.push(document.documentElement.scrollHeight); }"
        "return seen"
    )
    assert max(heights) == tool.SMALL[1]
