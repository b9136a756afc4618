"""The Teaching page's pictures: the real trace player in headless Chromium, keys pressed
as a lecturer would, one PNG per scene (docs/images/player-*.png).

Run from the repository root: ``python tools/screenshots.py [--out DIR] [NAME ...]``.
Needs selenium and Debian's chromium and chromium-driver, as the browser tests do.
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


def browser(width: int, height: int):  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", "--hide-scrollbars"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    # --window-size counts the window's frame: the page itself gets exactly width x height
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    return driver


def shoot(name: str, scene: Scene, out: Path, work: Path) -> Path:
    from selenium.webdriver.common.keys import Keys

    page = work / f"{name}.html"
    command = [sys.executable, "-m", "queenslab", "trace", *scene.args, "-o", str(page)]
    subprocess.run(command, cwd=ROOT, check=True)
    driver = browser(*scene.size)
    try:
        driver.get(page.as_uri())
        body = driver.find_element("tag name", "body")
        for key in scene.keys:
            body.send_keys(getattr(Keys, key) if key.isupper() and len(key) > 1 else key)
        time.sleep(0.2)
        target = out / f"{name}.png"
        driver.save_screenshot(str(target))
        return target
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[[], *SCENES], default=[])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for name in args.names or SCENES:
            print(shoot(name, SCENES[name], args.out, Path(work)))


if __name__ == "__main__":
    main()
