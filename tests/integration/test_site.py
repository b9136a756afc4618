"""The documentation site builds with ``mkdocs build --strict`` (no broken link or ref)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


def test_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs not installed (docs extra)")
    pytest.importorskip("mkdocstrings", reason="mkdocstrings[python] not installed (docs extra)")
    site = tmp_path / "site"
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    reference = (site / "reference" / "index.html").read_text()
    assert 'id="queenslab.api.solve"' in reference
    assert "queenslab.lab.estimate.estimate" in reference
    assert (site / "notebooks" / "01-tour-of-the-paradigms.ipynb").exists()
