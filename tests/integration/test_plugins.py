"""Backends from other packages: installed through the entry point, or registered at run
time; both appear in ``queens backends``, the CLI, the cross-check and the harness
without any edit to queenslab. A problem kind installed through its entry point is found
by the CLI too. And every backend option is listed with its help."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from queenslab.core.plugins import group_may_be_declared
from queenslab.registry import ENTRY_POINT_GROUP, backends
from tests.conftest import ROOT, queens_command

PACKAGE = ROOT / "tests" / "data" / "queenslab-permutations"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """tests/data/queenslab-permutations installed by pip into a folder, offline."""
    target = tmp_path_factory.mktemp("site")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
           "--no-index", "--no-deps", "--no-build-isolation", "--no-cache-dir"]  # fmt: skip
    run = subprocess.run(
        [*pip, "--target", str(target), str(PACKAGE)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PIP_NO_INPUT": "1"},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return target


def _run(argv: list[str], *paths, **env: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join(str(p) for p in [*paths, ROOT])
    return subprocess.run(
        argv, capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path, **env},
    )  # fmt: skip


def test_an_installed_backend_is_listed_and_runs(site):
    listed = _run([*queens_command(), "backends", "--format", "json"], site)
    record = next(b for b in json.loads(listed.stdout) if b["name"] == "permutations")
    assert record["available"] and "count" in record["capabilities"]
    assert re.search(
        r"^permutations +exact ", _run([*queens_command(), "backends"], site).stdout, re.M
    )
    assert (
        _run([*queens_command(), "count", "8", "--backend", "permutations"], site).stdout == "92\n"
    )
    check = _run([*queens_command(), "crosscheck", "--n", "4-7", "--backend", "bitmask",
                  "--backend", "permutations"], site)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert "permutations" in check.stdout.splitlines()[1] and "all agree" in check.stdout


def test_an_installed_kind_is_found_by_the_command_line(site):
    """The test package declares tests/user_kinds.py's kind in the ``queenslab.kinds``
    entry-point group: ``--problem`` finds it with no registration in the process (cpsat
    optimises it, sat counts its optima), and without the package it is unknown."""
    problem = ["4", "--problem", "total-domination"]
    found = _run([*queens_command(), "optimize", *problem, "-b", "cpsat", "--format", "json"], site)
    assert found.returncode == 0, found.stderr
    record = json.loads(found.stdout)
    assert (record["status"], record["objective"], len(record["answer"])) == ("optimal", 2, 2)
    assert _run([*queens_command(), "count", *problem, "-b", "sat"], site).stdout == "12\n"
    unknown = _run([*queens_command(), "optimize", *problem])
    assert unknown.returncode == 2 and "unknown problem 'total-domination'" in unknown.stderr


def _harness(selection: str, *paths, plugin: list[str] = ()) -> str:
    """Run tests/harness/test_backends.py on the backends ``selection`` names; its summary
    line. Every variant (``-m "slow or not slow"``: they are slow tests), in this process
    (``-n 0``: a few tests need no workers), with the kernels this run has warmed."""
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
            "-m", "slow or not slow", *plugin, "tests/harness/test_backends.py",
            "-k", selection]  # fmt: skip
    run = _run(argv, *paths, QUEENSLAB_TEST_NO_WARMUP="1")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_the_harness_runs_on_an_installed_backend(site):
    summary = _harness("permutations", site)
    assert int(re.search(r"(\d+) passed", summary)[1]) >= 20 and "failed" not in summary


@pytest.mark.slow
def test_the_harness_runs_on_a_registered_backend():
    """``register_backend`` before collection (as in a notebook) puts it in the harness."""
    summary = _harness(
        "notebook-permutations and (valid or unsolvable or oeis)",
        PACKAGE,
        ROOT / "tests" / "data",
        plugin=["-p", "notebook_registration"],
    )
    assert int(re.search(r"(\d+) passed", summary)[1]) >= 9 and "failed" not in summary


def test_backends_verbose_lists_every_option_with_its_help(queens):
    shown = queens("backends", "--verbose").stdout
    for backend in backends():
        section = shown.split(f"\n{backend.name}: ", 1)[1].split("\n\n", 1)[0]
        for option in backend.options:
            assert f"\n  {option.flag}: {option.help}" in section, (backend.name, option.name)
    assert "--restarts" in shown and "--trials" in shown and "--solver-cmd" in shown


def test_the_documented_plugin_is_the_tested_one():
    """docs/api.md shows tests/data/queenslab-permutations/queenslab_permutations.py as is."""
    source = (PACKAGE / "queenslab_permutations.py").read_text()
    assert f"```python\n{source}```" in (ROOT / "docs" / "api.md").read_text()


def test_the_quick_scan_finds_every_place_a_backend_may_be_declared(tmp_path):
    """importlib.metadata is asked only when the scan finds the group (or cannot tell)."""
    declaring, other, empty = (tmp_path / name for name in ("declaring", "other", "empty"))
    for folder, group in ((declaring, ENTRY_POINT_GROUP), (other, "console_scripts")):
        info = folder / "pkg-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "entry_points.txt").write_text(f"[{group}]\nname = pkg.module:Class\n")
    (empty / "bare-2.0.dist-info").mkdir(parents=True)  # no entry_points.txt
    archive = tmp_path / "packages.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip on the path
    assert not group_may_be_declared(
        ENTRY_POINT_GROUP, [str(other), str(empty), str(tmp_path / "missing")]
    )
    assert group_may_be_declared(ENTRY_POINT_GROUP, [str(empty), str(declaring)])
    egg = tmp_path / "pkg-1.0.egg" / "EGG-INFO"
    egg.mkdir(parents=True)
    (egg / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nname = pkg:Class\n")
    assert group_may_be_declared(ENTRY_POINT_GROUP, [str(other), str(egg.parent)])
    assert group_may_be_declared(ENTRY_POINT_GROUP, [str(other), str(archive)])


def test_an_installed_backend_passes_the_quick_scan(site):
    assert group_may_be_declared(ENTRY_POINT_GROUP, [str(site)])
