"""The trace player in a real headless Chromium: keys, colours kept, marks drawn, two traces.

Pixels are read back from the canvases (``getImageData``), so the tests check what a room
sees, not only the page's state. Skipped, with the reason, without chromium or selenium.
"""

from __future__ import annotations

import shutil

import pytest

from queenslab.core.problem import Problem
from queenslab.io.pictures import STYLE
from queenslab.trace import trace
from queenslab.trace.html import page
from queenslab.trace.replay import replay


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium through Selenium, or a skip saying what is missing."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.skip("chromium and chromedriver not installed (Debian: chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,900", "--force-device-scale-factor=1"):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    session = webdriver.Chrome(options=options, service=Service(driver))
    yield session
    session.quit()


def _open(browser, tmp_path, problem, *specs, **options):
    tracers = [trace(problem, spec, **options) for spec in specs]
    path = tmp_path / "trace.html"
    path.write_text(page(tracers, problem, "test"), encoding="utf-8")
    browser.get(path.as_uri())
    return tracers


def _press(browser, *keys):
    from selenium.webdriver.common.keys import Keys

    body = browser.find_element("tag name", "body")
    for key in keys:
        body.send_keys(getattr(Keys, key, key))


def _status(browser):
    return browser.find_element("id", "status").text


def _pixel(browser, canvas_id, x, y):
    """The colour at CSS pixel (x, y) of a canvas, as #rrggbb."""
    rgba = browser.execute_script(
        "const c = document.getElementById(arguments[0]);"
        "return Array.from(c.getContext('2d').getImageData(arguments[1], arguments[2], 1, 1).data)",
        canvas_id, x, y,
    )  # fmt: skip
    return "#{:02x}{:02x}{:02x}".format(*rgba[:3])


def _cell_point(browser, canvas_id, row, col, fx=0.5, fy=0.5):
    """CSS pixel coordinates of a point inside a board cell (fractions fx, fy of it)."""
    x0, y0, cell = browser.execute_script(
        "return JSON.parse(document.getElementById(arguments[0]).dataset.geometry)", canvas_id
    )
    return round(x0 + (col + fx) * cell), round(y0 + (row + fy) * cell)


@pytest.fixture
def window(browser):
    """``window(width, height)`` gives the page exactly that many CSS pixels (the player
    lays out again); the next test gets the browser's own window back."""

    def resize(width, height):
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        browser.execute_script("player.layout()")

    yield resize
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _click_node(browser, node, shift=False):
    """Click the centre of a tree node, as a lecturer's mouse would."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    tree = browser.find_element("id", "tree")
    dx, dy = browser.execute_script(
        "const p = player.panels[0], g = p.treeGeometry(), c = p.sideCanvas;"
        "return [g.x(arguments[0]) - c.cssWidth / 2, g.y(arguments[0]) - c.cssHeight / 2]",
        node,
    )
    actions = ActionChains(browser)
    if shift:
        actions.key_down(Keys.SHIFT)
    actions.move_to_element_with_offset(tree, round(dx), round(dy)).click()
    if shift:
        actions.key_up(Keys.SHIFT)
    actions.perform()


def _no_errors(browser):
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_keyboard_drives_the_player(browser, tmp_path):
    (tracer,) = _open(browser, tmp_path, Problem(6), "backtrack", every=True)
    total = len(tracer.steps)
    board = browser.find_element("id", "board")
    assert _status(browser) == f"step 0 of {total}"
    _press(browser, "ARROW_RIGHT")
    assert _status(browser) == f"step 1 of {total}" and board.get_attribute("data-cols") != ""
    first = board.get_attribute("data-cols")
    _press(browser, "PAGE_DOWN", "PAGE_DOWN")  # a presentation clicker's "next"
    assert _status(browser) == f"step 3 of {total}"
    _press(browser, "PAGE_UP")
    assert _status(browser) == f"step 2 of {total}"
    _press(browser, "ARROW_LEFT")
    assert board.get_attribute("data-cols") == first
    _press(browser, "END")
    assert _status(browser) == f"step {total} of {total}"
    _press(browser, "HOME")
    assert _status(browser) == f"step 0 of {total}"
    _press(browser, "SPACE")
    assert browser.find_element("id", "play").text == "pause"
    _press(browser, "SPACE")
    assert browser.find_element("id", "play").text == "play"
    _press(browser, "HOME", "s")  # the first solution, named as the JSON log numbers it
    solution = next(s for s in tracer.steps if s["kind"] == "solution")
    assert _status(browser) == f"step {solution['step']} of {total}"
    assert solution["step"] == int(browser.find_element("id", "scrub").get_attribute("value"))
    _no_errors(browser)


def test_solutions_stay_green_on_the_board_and_in_the_tree(browser, tmp_path):
    (tracer,) = _open(browser, tmp_path, Problem(6), "backtrack", every=True)
    solutions = [s for s in tracer.steps if s["kind"] == "solution"]
    _press(browser, "s")
    row, col = 0, solutions[0]["cols"][0]
    assert _pixel(browser, "board", *_cell_point(browser, "board", row, col)) == STYLE.solution
    later = solutions[1]["step"] - 1  # the search has moved on, before the next solution
    browser.execute_script("player.go(arguments[0])", later)
    colours = browser.execute_script(
        "const t = player.traces[0].tree, k = player.k;"
        "return t.solved.map((f, v) => f && f <= k ? t.colour(v, k) : null).filter((c) => c)"
    )
    assert colours == [STYLE.solution]
    _press(browser, "END")  # the walk is over: the last solution is back, green, on the board
    board = browser.find_element("id", "board")
    assert board.get_attribute("data-cols") == ",".join(map(str, solutions[-1]["cols"]))
    assert board.get_attribute("data-solved") == "1"
    colours = browser.execute_script(
        "const t = player.traces[0].tree, k = player.k;"
        "return t.solved.map((f, v) => (f ? t.colour(v, k) : null)).filter((c) => c)"
    )
    assert colours == [STYLE.solution] * len(solutions)
    _no_errors(browser)


def test_blocked_cells_and_given_queens_are_drawn(browser, tmp_path):
    problem = Problem(8, blocked=((0, 0), (2, 5)), givens=((1, 3),))
    _open(browser, tmp_path, problem, "backtrack")
    for r, c in problem.blocked:  # off the cross drawn over the cell
        assert _pixel(browser, "board", *_cell_point(browser, "board", r, c, 0.5, 0.12)) == (
            STYLE.blocked
        )
    ring = _cell_point(browser, "board", 1, 3, 0.5, 0.03)
    assert _pixel(browser, "board", *ring) == STYLE.given  # from step 0, before its turn
    legend = browser.find_element("id", "legend").text
    assert "blocked cell" in legend and "given queen" in legend
    _press(browser, *["ARROW_RIGHT"] * 30)
    cols = browser.find_element("id", "board").get_attribute("data-cols").split(",")
    assert cols[1] == "3"
    centre = _cell_point(browser, "board", 1, 3)
    assert _pixel(browser, "board", *centre) == STYLE.given
    _no_errors(browser)


def test_two_traces_step_together(browser, tmp_path):
    tracers = _open(browser, tmp_path, Problem(8), "backtrack", "forward-checking")
    boards = [browser.find_element("id", i) for i in ("board", "board-1")]
    before = [b.get_attribute("data-cols") for b in boards]
    _press(browser, *["ARROW_RIGHT"] * 5)
    captions = [c.text for c in browser.find_elements("css selector", ".caption")]
    assert [c.split(":")[0] for c in captions] == ["step 5", "step 5"]
    assert [b.get_attribute("data-cols") for b in boards] != before
    _press(browser, "END")  # the shorter trace holds its end while the longer goes on
    longest = max(len(t.steps) for t in tracers)
    assert _status(browser) == f"step {longest} of {longest}"
    assert all(b.get_attribute("data-solved") == "1" for b in boards)
    _no_errors(browser)


def test_forward_checking_shades_the_domains_left(browser, tmp_path):
    (tracer,) = _open(browser, tmp_path, Problem(8), "mac")
    _press(browser, "ARROW_RIGHT")
    domains = tracer.steps[0]["domains"]
    row = 3
    open_col = next(c for c in range(8) if domains[row] >> c & 1)
    closed_col = next(c for c in range(8) if not domains[row] >> c & 1)
    shaded = _pixel(browser, "board", *_cell_point(browser, "board", row, open_col, 0.1, 0.1))
    plain = _pixel(browser, "board", *_cell_point(browser, "board", row, closed_col, 0.1, 0.1))
    assert shaded not in (STYLE.light, STYLE.dark) and plain in (STYLE.light, STYLE.dark)
    _no_errors(browser)


def test_local_search_draws_its_conflicts_chart(browser, tmp_path):
    (tracer,) = _open(browser, tmp_path, Problem(30), "minton", seed=1)
    chart = browser.find_element("id", "chart")
    _press(browser, "ARROW_RIGHT", "ARROW_RIGHT", "ARROW_RIGHT")
    assert chart.get_attribute("data-points") == "3"
    _press(browser, "END")
    points = sum("conflicts" in s for s in tracer.steps)
    assert chart.get_attribute("data-points") == str(points)
    _no_errors(browser)


def test_the_tree_zooms_and_folds(browser, tmp_path):
    _open(browser, tmp_path, Problem(8), "backtrack", every=True)
    _press(browser, "END")
    tree = browser.find_element("id", "tree")
    whole = int(tree.get_attribute("data-visible"))
    _press(browser, "c")  # fold the subtrees without a solution
    folded = int(tree.get_attribute("data-visible"))
    assert folded < whole
    _press(browser, "+", "+")
    assert browser.execute_script("return player.panels[0].view.scale") > 1
    _press(browser, "0")
    assert browser.execute_script("return player.panels[0].view.scale") == 1
    _no_errors(browser)


def test_a_clicked_tree_node_shows_its_board_and_the_root_does_not_fold(browser, tmp_path):
    (tracer,) = _open(browser, tmp_path, Problem(8), "backtrack")
    _press(browser, "END")
    tree = browser.find_element("id", "tree")
    places = [s for s in tracer.steps if s["kind"] == "place"]
    node = 5  # the fifth queen placed: a node long closed at the end
    _click_node(browser, node)
    born = places[node - 1]["step"]
    assert _status(browser) == f"step {born} of {len(tracer.steps)}"
    boards = list(replay(tracer.n, tracer.steps))
    board = browser.find_element("id", "board")
    assert board.get_attribute("data-cols") == ",".join(map(str, boards[born - 1]))
    _press(browser, "END")
    whole = tree.get_attribute("data-visible")
    _click_node(browser, 0, shift=True)  # the root stays: a folded root would show nothing
    assert tree.get_attribute("data-visible") == whole
    _click_node(browser, 2, shift=True)  # any other node folds into a triangle
    assert int(tree.get_attribute("data-visible")) < int(whole)
    _no_errors(browser)


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)], ids=["1024x768", "1920x1080"])
@pytest.mark.parametrize("method", ["backtrack", "forward-checking", "mac"])
def test_compare_fills_the_window_with_labelled_trees(browser, window, tmp_path, method, size):
    _open(browser, tmp_path, Problem(8), method, f"{method}+mrv")
    window(*size)
    _press(browser, "END")
    boxes = browser.execute_script(
        "return [...document.querySelectorAll('canvas')].map((c) => c.getBoundingClientRect())"
        ".map((r) => [r.left, r.top, r.right, r.bottom])"
    )
    width, height = size
    assert all(min(left, top) >= 0 and right <= width and bottom <= height
               for left, top, right, bottom in boxes)  # fmt: skip
    covered = sum((right - left) * (bottom - top) for left, top, right, bottom in boxes)
    assert covered > 0.6 * width * height
    for tree in ("tree", "tree-1"):  # every node labelled, in type a room can read
        assert int(browser.find_element("id", tree).get_attribute("data-labels")) >= 10
    _no_errors(browser)


def test_mac_unfolds_the_ac3_revisions_of_a_placement(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    (tracer,) = _open(browser, tmp_path, Problem(8), "mac")
    revisions = browser.find_element("id", "revisions")
    k, step = next((s["step"], s) for s in tracer.steps if s.get("revisions"))
    browser.execute_script("player.go(arguments[0])", k)
    items = revisions.find_elements("css selector", "li")
    assert revisions.is_displayed() and not items[0].is_displayed()  # folded under the step
    revisions.find_element("tag name", "summary").click()
    assert len(items) == len(step["revisions"]) and items[0].is_displayed()
    row, col, against, _ = step["revisions"][0]
    assert f"arc row {row} → row {against}: row {row} loses col {col}" in items[0].text
    summary = revisions.find_element("tag name", "summary").text
    assert f"forward checking removed {step['forward']}" in summary
    frame = _cell_point(browser, "board", row, col, 0.5, 0.04)
    assert _pixel(browser, "board", *frame) != STYLE.path
    ActionChains(browser).move_to_element(items[0]).perform()  # the revision pointed at
    assert _pixel(browser, "board", *frame) == STYLE.path  # frames its cell on the board
    browser.execute_script("player.go(arguments[0])", k + 1)  # a wipe-out: nothing to unfold
    assert not revisions.is_displayed()
    _no_errors(browser)


def test_the_chart_names_every_value_and_local_search_has_no_failures(browser, tmp_path):
    _open(browser, tmp_path, Problem(30), "minton", seed=1)
    assert browser.execute_script("return [ticks(3, 10), ticks(132, 5)]") == [
        [0, 1, 2, 3],
        [0, 50, 100],
    ]
    assert not browser.find_element("id", "next-failure").is_displayed()
    _no_errors(browser)


def test_the_end_caption_says_each_figure_once(browser, tmp_path):
    _open(browser, tmp_path, Problem(6), "backtrack", every=True)
    _press(browser, "END")
    caption = browser.find_element("css selector", ".caption").text
    assert caption.count("nodes") == 1 and caption.count("solutions") == 1
    _no_errors(browser)


def test_one_trace_labels_its_tree_on_a_small_projector(browser, window, tmp_path):
    for spec in ("backtrack", "backtrack+mrv", "forward-checking", "mac+mrv"):
        _open(browser, tmp_path, Problem(8), spec)
        window(1024, 768)
        _press(browser, "END")
        assert int(browser.find_element("id", "tree").get_attribute("data-labels")) >= 12, spec
    _no_errors(browser)


def test_the_text_scale_grows_captions_legend_tree_labels_and_numbers(browser, tmp_path):
    _open(browser, tmp_path, Problem(8), "mac")
    sizes = """
      const px = (q) => parseFloat(getComputedStyle(document.querySelector(q)).fontSize);
      const tall = (id) => Math.max(...document.getElementById(id).boxes.map((b) => b[3]));
      return [px('.caption'), px('#legend'), Number(document.getElementById('tree').dataset.labels),
              tall('board')]"""  # fmt: skip
    plain = browser.execute_script(sizes)
    page = browser.current_url
    browser.get(page + "?scale=1.5")  # the address names the scale
    caption, legend, labels, numbers = browser.execute_script(sizes)
    assert (caption, legend) == (pytest.approx(1.5 * plain[0]), pytest.approx(1.5 * plain[1]))
    assert labels > plain[2] and numbers > plain[3]
    _press(browser, "<", "<")  # and the keys change it: back to 1
    assert browser.execute_script(sizes) == pytest.approx(plain)
    _press(browser, ">")
    assert browser.execute_script("return player.scale") == 1.25
    browser.get(page + "?scale=big")  # not a number: the page's own scale
    assert browser.execute_script(sizes) == pytest.approx(plain)
    _no_errors(browser)


@pytest.mark.parametrize("method", ["backtrack", "forward-checking", "mac"])
def test_mrv_names_the_row_under_each_node(browser, tmp_path, method):
    _open(browser, tmp_path, Problem(8), f"{method}+mrv")  # MAC's MRV picks rows in order
    _press(browser, "END")
    assert int(browser.find_element("id", "tree").get_attribute("data-rows")) >= 10
    legend = browser.find_element("id", "legend").text
    assert "the row MRV fills next" in legend
    _no_errors(browser)


@pytest.mark.parametrize("method", ["minton", "min-conflicts", "hill-climbing"])
def test_local_search_ends_with_its_figures_in_words(browser, tmp_path, method):
    (tracer,) = _open(browser, tmp_path, Problem(30), method, seed=1)
    _press(browser, "END")
    caption = browser.find_element("css selector", ".caption").text
    assert "_" not in caption and f"{tracer.steps[-1]['stats']['moves']} moves" in caption
    _no_errors(browser)
