"""Shared test settings: Hypothesis profiles and the registry as test parameters."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

ROOT = Path(__file__).resolve().parent.parent


def queens_command() -> list[str]:
    """The installed `queens` console script beside this Python, else `python -m queenslab`."""
    script = Path(sys.executable).parent / "queens"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "queenslab"]


@pytest.fixture
def queens():
    """Run the real command in a subprocess: ``queens("solve", "8")`` -> CompletedProcess."""
    import subprocess

    def run(*argv: str, input: str | None = None, timeout: float = 300):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        return subprocess.run(
            [*queens_command(), *argv],
            capture_output=True,
            text=True,
            input=input,
            timeout=timeout,
            env=env,
        )

    return run
