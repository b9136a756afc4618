"""Slides from a lecture notebook (tools/slides.py): a slide per marked cell, offline, and
every lecture notebook marked."""

from __future__ import annotations

import re
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
from slides import slide_type, slides

LECTURES = sorted((ROOT / "docs" / "notebooks").glob("lecture-*.ipynb"))


def _marked(cell, kind):
    cell.metadata["slideshow"] = {"slide_type": kind}
    return cell


def _output(output):
    return f"<pre>{output['text']}</pre>"


def test_a_slide_per_marked_cell_and_nothing_unmarked():
    notebook = new_notebook(
        cells=[
            _marked(new_markdown_cell("# Title\n\nThe *first* slide."), "slide"),
            _marked(new_code_cell("import os"), "skip"),
            new_markdown_cell("Notes for the notebook only."),
            _marked(new_markdown_cell("## Second"), "slide"),
            _marked(new_code_cell("print(6 * 7)"), "-"),
        ]
    )
    notebook.cells[-1].outputs = [new_output("stream", name="stdout", text="42\n")]
    page = slides(notebook, "demo", _output)
    sections = re.findall(r"<section>(.*?)</section>", page, re.S)
    assert len(sections) == 2
    assert "<h1>Title</h1>" in sections[0] and "<em>first</em>" in sections[0]
    assert "import os" not in page and "Notes for the notebook" not in page
    assert 'class="codehilite"' in sections[1] and "<pre>42\n</pre>" in sections[1]
    assert "PageDown" in page  # a presentation clicker's key
    assert not re.search(r'(?:src|href)="https?:', page)  # nothing fetched


def test_an_unmarked_notebook_has_no_slides():
    page = slides(new_notebook(cells=[new_markdown_cell("# Only a page")]), "none", _output)
    assert "<section>" not in page


@pytest.mark.parametrize("path", LECTURES, ids=lambda p: p.stem)
def test_every_lecture_is_marked_for_slides(path):
    cells = nbformat.read(path, as_version=4).cells
    kinds = [slide_type(cell) for cell in cells]
    assert kinds[0] == "slide" and cells[0].source.startswith("# Lecture")
    assert kinds.count("slide") >= 4
    assert all(kind in {"slide", "-", "skip"} for kind in kinds), kinds
