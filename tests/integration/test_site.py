"""The documentation site builds with ``mkdocs build --strict`` (no broken link, ref or
anchor), offline, with the notebooks executed and shown with their outputs."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml

from tests.conftest import ROOT


def _build(config, site, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
         "--site-dir", str(site)],
        cwd=cwd, capture_output=True, text=True, timeout=900,
    )  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs", reason="mkdocs not installed (docs extra)")
    pytest.importorskip("mkdocstrings", reason="mkdocstrings[python] not installed (docs extra)")
    pytest.importorskip("nbclient", reason="nbclient not installed (docs extra)")
    site = tmp_path_factory.mktemp("site")
    run = _build(ROOT / "mkdocs.yml", site)
    assert run.returncode == 0, run.stderr[-3000:]
    return site


@pytest.mark.slow  # the site's build executes every notebook: about 40 s
def test_site_builds_strictly(site):
    reference = (site / "reference" / "index.html").read_text()
    assert 'id="queenslab.api.solve"' in reference
    assert "queenslab.lab.estimate.estimate" in reference
    assert (site / "notebooks" / "01-tour-of-the-paradigms.ipynb").exists()  # for download


@pytest.mark.slow  # the site's build executes every notebook: about 40 s
def test_notebooks_are_pages_with_their_outputs(site):
    for notebook in sorted((ROOT / "docs" / "notebooks").glob("*.ipynb")):
        page = (site / "notebooks" / notebook.stem / "index.html").read_text()
        assert page.count('class="nb-output"') >= 3, notebook.name
        assert 'class="codehilite"' in page
    symmetry = (site / "notebooks" / "02-counting-and-symmetry" / "index.html").read_text()
    assert symmetry.count("<figcaption>") == 8 and "<figcaption>rot90</figcaption>" in symmetry
    assert "data:image/png;base64," in symmetry  # the profile plot


@pytest.mark.slow  # the site's build executes every notebook: about 40 s
def test_the_site_works_offline(site):
    for page in site.rglob("*.html"):
        text = page.read_text()
        fetched = re.findall(r'<(?:script|link)[^>]+(?:src|href)="(https?:[^"]+)"', text)
        assert fetched == [], f"{page.relative_to(site)} fetches {fetched}"


@pytest.mark.slow  # the site's build executes every notebook: about 40 s
def test_teaching_comes_first_and_shows_the_player(site):
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    assert list(nav[1].values()) == ["teaching.md"]
    stray = [e for e in nav if "benchmarks-full" in str(e) and "Full run" not in str(e)]
    assert stray == []
    teaching = (site / "teaching" / "index.html").read_text()
    pictures = re.findall(r'<img[^>]+src="([^"]+\.png)"', teaching)
    assert len(pictures) >= 4
    assert all((site / "teaching" / src).resolve().exists() for src in pictures)


def test_a_broken_anchor_fails_the_strict_build(tmp_path):
    """mkdocs reports a missing anchor at INFO level unless told; our settings make it fail."""
    pytest.importorskip("mkdocs", reason="mkdocs not installed (docs extra)")
    ours = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the part](other.md#a-missing-part).\n")
    (docs / "other.md").write_text("# Other\n\n## The part\n")
    config = {
        "site_name": "anchors",
        "docs_dir": str(docs),
        "validation": ours["validation"],
        "markdown_extensions": ours["markdown_extensions"],
    }
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    broken = _build(tmp_path / "mkdocs.yml", tmp_path / "site", cwd=tmp_path)
    assert broken.returncode != 0
    assert "does not contain an anchor '#a-missing-part'" in broken.stderr
    (docs / "index.md").write_text("# Home\n\nSee [the part](other.md#the-part).\n")
    assert _build(tmp_path / "mkdocs.yml", tmp_path / "site", cwd=tmp_path).returncode == 0


@pytest.mark.slow  # the site's build executes every notebook: about 40 s
def test_every_lecture_has_its_slides_and_every_exercise_set_two_editions(site):
    sys.path.insert(0, str(ROOT / "tools"))
    import nbformat
    from slides import slide_type

    for notebook in sorted((ROOT / "docs" / "notebooks").glob("lecture-*.ipynb")):
        deck = (site / "slides" / f"{notebook.stem}.html").read_text()
        cells = nbformat.read(notebook, as_version=4).cells
        assert deck.count("<section>") == sum(slide_type(c) == "slide" for c in cells)
        page = (site / "notebooks" / notebook.stem / "index.html").read_text()
        assert f'href="../../slides/{notebook.stem}.html"' in page
    for source in sorted((ROOT / "docs" / "course").glob("*.md")):
        student = (site / "exercises" / source.stem / "index.html").read_text()
        key = (site / "exercises" / f"{source.stem}-key" / "index.html").read_text()
        assert "answer to exercise" not in student and "answer to exercise" in key
        assert "student edition" in student and "instructor key" in key
    assert not (site / "course").exists()  # the sources, answers and all, stay out
    ordering = (site / "notebooks" / "lecture-03-ordering-heuristics" / "index.html").read_text()
    assert "forward-checking+lcv" in ordering and "forward-checking static lcv" not in ordering
