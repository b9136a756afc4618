"""mkdocs hooks for the site (``hooks:`` in mkdocs.yml): notebooks and code, offline.

- Each ``docs/notebooks/*.ipynb`` is executed at build time (nbclient) and becomes a page
  ``notebooks/NAME.md`` with its outputs: text, tables and cards (HTML), plots (PNG) and
  animations (SVG, as images so that the boards' pattern ids never clash). The .ipynb
  itself is still copied, for download. Executing here keeps the pages true: an output
  is what the code prints today.
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
from html import escape
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

_CELL_SECONDS = 600


def on_files(files: Files, config: Any) -> Files:
    """Add an executed page beside every notebook."""
    docs = Path(config["docs_dir"])
    for notebook in sorted((docs / "notebooks").glob("*.ipynb")):
        page = f"notebooks/{notebook.stem}.md"
        files.append(File.generated(config, page, content=render(notebook)))
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


def render(path: Path) -> str:
    """The notebook as Markdown, after running it from top to bottom."""
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    root = Path(__file__).resolve().parent.parent
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(root), os.environ.get("PYTHONPATH")])
    )
    nbclient.NotebookClient(notebook, timeout=_CELL_SECONDS, kernel_name="python3").execute()
    parts = [
        f'<p class="nb-download"><a href="../{path.name}" download>Download {path.name}</a>'
        " (run it with <code>jupyter lab</code>)</p>"
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
