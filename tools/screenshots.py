"""The Teaching page's pictures: the real trace player in headless Chromium, keys pressed
as a lecturer would, one PNG per scene (docs/images/player-*.png).

Run from the repository root: ``python tools/screenshots.py [--out DIR] [--projector]
[NAME ...]``; ``--projector`` makes the pages with ``queens trace --projector`` and names
the pictures ``player-*-projector.png``. Needs selenium and Debian's chromium and
chromium-driver, as the browser tests do (tests/integration/test_player_layout.py measures
these same scenes).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


#: The projector sizes the Teaching page shows: a common projector, and a full-HD one.
SMALL, LARGE = (1024, 768), (1920, 1080)


@dataclass(frozen=True)
class Scene:
    """A page made by ``queens trace`` with ``args``, then ``keys`` pressed in order, seen
    in a page of ``size`` CSS pixels."""

    args: tuple[str, ...]
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = SMALL


SCENES: dict[str, Scene] = {
    "player-compare": Scene(
        ("8", "--compare", "backtrack", "forward-checking"), ("PAGE_DOWN",) * 40
    ),
    "player-mrv": Scene(("8", "--compare", "backtrack", "backtrack+mrv"), ("END",), LARGE),
    "player-fc-mrv": Scene(
        ("8", "--compare", "forward-checking", "forward-checking+mrv"), ("END",)
    ),
    "player-mac": Scene(("8", "--backend", "mac"), ("PAGE_DOWN",) * 3 + ("a",)),
    "player-mac-mrv": Scene(("8", "--compare", "mac", "mac+mrv"), ("END",), LARGE),
    "player-minton": Scene(("50", "--backend", "minton", "--seed", "1"), ("END",)),
    "player-tree": Scene(("8", "--backend", "backtrack", "--all"), ("END", "c", "+", "+"), LARGE),
    "player-given": Scene(
        ("8", "--blocked", "0:0", "--blocked", "2:5", "--given", "1:3"), ("PAGE_DOWN",) * 9
    ),
}


def browser():  # type: ignore[no-untyped-def]
    """One headless Chromium for every scene (``show`` sets each page's size)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={LARGE[0]},{LARGE[1]}", "--hide-scrollbars"):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's errors
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def page(name: str, scene: Scene, work: Path, projector: bool = False) -> Path:
    """The scene's page, made by ``queens trace`` (with ``--projector`` if asked)."""
    target = work / f"{name}{'-projector' if projector else ''}.html"
    if not target.exists():
        extra = ["--projector"] if projector else []
        command = [sys.executable, "-m", "queenslab", "trace", *scene.args, *extra]
        subprocess.run([*command, "-o", str(target)], cwd=ROOT, check=True)
    return target


def show(driver, scene: Scene, path: Path, size: tuple[int, int] | None = None) -> None:  # type: ignore[no-untyped-def]
    """Open the page at ``path`` exactly ``size`` CSS pixels large (the scene's own size
    unless given) and press the scene's keys."""
    from selenium.webdriver.common.keys import Keys

    # --window-size counts the window's frame: the page itself gets exactly width x height
    width, height = size or scene.size
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.get(path.as_uri())
    body = driver.find_element("tag name", "body")
    for key in scene.keys:
        body.send_keys(getattr(Keys, key) if key.isupper() and len(key) > 1 else key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[[], *SCENES], default=[])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--projector", action="store_true", help="pages at the projector scale")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    driver = browser()
    try:
        with tempfile.TemporaryDirectory() as work:
            for name in args.names or SCENES:
                scene = SCENES[name]
                show(driver, scene, page(name, scene, Path(work), args.projector))
                time.sleep(0.2)
                target = args.out / f"{name}{'-projector' if args.projector else ''}.png"
                driver.save_screenshot(str(target))
                print(target)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
