"""The notebooks in docs/notebooks run from top to bottom without an error."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3


@pytest.mark.slow  # CI's second step: the site's build in the default suite
# (tests/integration/test_site.py) already executes every notebook and fails on an error
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path, monkeypatch, tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="nbformat not installed (test extra)")
    nbclient = pytest.importorskip("nbclient", reason="nbclient not installed (test extra)")
    pytest.importorskip("ipykernel", reason="ipykernel not installed (test extra)")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this checkout
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code[-1].outputs, "the last cell shows its result"
    errors = [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert errors == []
