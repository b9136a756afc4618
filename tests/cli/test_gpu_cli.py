"""`queens` without CuPy: the gpu backend says what to install, in one line, exit 2."""

from __future__ import annotations

import pytest

from queenslab.registry import info


@pytest.mark.skipif(info("gpu").missing == (), reason="CuPy is installed here")
def test_without_cupy_the_command_says_what_to_install(queens):
    listing = queens("backends")
    assert "no (pip install cupy-cuda12x)" in listing.stdout
    run = queens("count", "12", "--backend", "gpu")
    assert run.returncode == 2 and run.stdout == ""
    assert (
        run.stderr == "queens: error: backend 'gpu' needs cupy-cuda12x: pip install cupy-cuda12x\n"
    )
