"""mkdocs hooks for the site (``hooks:`` in mkdocs.yml): notebooks and code, offline.

- Each ``docs/notebooks/*.ipynb`` is executed at build time (nbclient) and becomes a page
  ``notebooks/NAME.md`` with its outputs: text, tables and cards (HTML), plots (PNG) and
  animations (SVG, as images so that the boards' pattern ids never clash). The .ipynb
  itself is still copied, for download. Executing here keeps the pages true: an output
  is what the code prints today. A lecture's notebook (``lecture-*``) also becomes
  ``slides/NAME.html``, a slide per marked cell (tools/slides.py), from the same run.
- Each exercise source ``docs/course/NAME.md`` (left out of the site itself) becomes a
  student edition ``exercises/NAME.md`` and an instructor key ``exercises/NAME-key.md``
  (tools/exercise_pages.py).
- ``<!-- code: PATH QUALNAME -->`` in a page becomes that function or class of the
  project's source as a Python block (``excerpt``): a guide's excerpt of the package is
  taken from the code when the site is built, never copied into the page.
- Code is highlighted by Pygments when the site is built (``codehilite``), and this hook
  writes the colours as ``css/pygments.css``: nothing is fetched from a CDN.
"""

from __future__ import annotations

import ast
import base64
import os
import re
import sys
from html import escape
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the hook's own helpers

import exercise_pages
import slides

_CELL_SECONDS = 600


def on_files(files: Files, config: Any) -> Files:
    """Add an executed page beside every notebook, slides beside every lecture, and the
    two editions of every exercise source."""
    from queenslab.course import EXERCISES

    docs = Path(config["docs_dir"])
    for path in sorted((docs / "notebooks").glob("*.ipynb")):
        notebook = execute(path)
        lecture = path.stem.startswith("lecture-")
        page = f"notebooks/{path.stem}.md"
        files.append(File.generated(config, page, content=render(notebook, path, lecture)))
        if lecture:
            deck = slides.slides(notebook, path.stem, _output)
            files.append(File.generated(config, f"slides/{path.stem}.html", content=deck))
    for source in sorted((docs / "course").glob("*.md")):
        student, key = exercise_pages.editions(source.read_text(encoding="utf-8"), EXERCISES)
        files.append(File.generated(config, f"exercises/{source.stem}.md", content=student))
        files.append(File.generated(config, f"exercises/{source.stem}-key.md", content=key))
    return files


_EXCERPT = re.compile(r"^<!-- code: (\S+) (\S+) -->$", re.M)
_ROOT = Path(__file__).resolve().parent.parent


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Each ``<!-- code: PATH QUALNAME -->`` line replaced by that source as a block."""
    return _EXCERPT.sub(lambda m: f"```python\n{excerpt(m[1], m[2])}\n```", markdown)


def excerpt(path: str, qualname: str) -> str:
    """The source of ``qualname`` (``Class.method`` or a top-level name) in the project's
    file ``path``, as indented there; a KeyError naming both when it is not there."""
    source = (_ROOT / path).read_text()
    scope: list[ast.stmt] = ast.parse(source).body
    node: ast.stmt | None = None
    for part in qualname.split("."):
        node = next((n for n in scope if getattr(n, "name", None) == part), None)
        if node is None:
            raise KeyError(f"{qualname} is not in {path}")
        scope = getattr(node, "body", [])
    assert node is not None
    return ast.get_source_segment(source, node, padded=True) or ""


def execute(path: Path) -> Any:
    """The notebook, run from top to bottom."""
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")])
    )
    nbclient.NotebookClient(notebook, timeout=_CELL_SECONDS, kernel_name="python3").execute()
    return notebook


def render(notebook: Any, path: Path, lecture: bool = False) -> str:
    """The executed notebook as Markdown, with a link to download it (and its slides)."""
    deck = f'; <a href="../../slides/{path.stem}.html">the slides</a>' if lecture else ""
    parts = [
        f'<p class="nb-download"><a href="../{path.name}" download>Download {path.name}</a>'
        f" (run it with <code>jupyter lab</code>){deck}</p>"
    ]
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        elif cell.cell_type == "code":
            parts.append(f"```python\n{cell.source}\n```")
            parts.extend(_output(output) for output in cell.get("outputs", []))
    return "\n\n".join(part for part in parts if part)


def _output(output: Any) -> str:
    kind = output["output_type"]
    if kind == "stream":
        return _pre(output["text"])
    if kind == "error":
        return _pre("\n".join(output["traceback"]))
    data = output.get("data", {})
    if "image/svg+xml" in data:
        svg = data["image/svg+xml"]
        encoded = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        return (
            f'<div class="nb-output"><img alt="" src="data:image/svg+xml;base64,{encoded}"></div>'
        )
    if "image/png" in data:
        png = data["image/png"].replace("\n", "")
        return f'<div class="nb-output"><img alt="" src="data:image/png;base64,{png}"></div>'
    if "text/html" in data:
        return f'<div class="nb-output">{data["text/html"]}</div>'
    if "text/plain" in data:
        return _pre(data["text/plain"])
    return ""


def _image(kind: str, encoded: str) -> str:
    return f'<div class="nb-output"><img alt="" src="data:image/{kind};base64,{encoded}"></div>'


def _pre(text: str) -> str:
    return f'<div class="nb-output"><pre>{escape(text)}</pre></div>'


def on_post_build(config: Any) -> None:
    """Pygments' colours for the highlighted code."""
    from pygments.formatters import HtmlFormatter

    css = Path(config["site_dir"]) / "css" / "pygments.css"
    css.parent.mkdir(parents=True, exist_ok=True)
    css.write_text(HtmlFormatter(style="friendly").get_style_defs(".codehilite"), encoding="utf-8")
