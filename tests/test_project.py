"""The project's own promises: README commands, CI script, lint, import cost."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def readme_commands() -> list[str]:
    """The commands of the README's Set-up section, in order."""
    setup = README.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", setup)


def test_readme_has_exactly_two_setup_commands():
    install_and_run, install_and_test = readme_commands()
    assert install_and_run.startswith("pip install . && queens ")
    assert install_and_test.startswith('pip install ".[test]" && ')


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert readme_commands()[1] in ci.splitlines()
    assert "python3 -m venv" in ci and "set -euo pipefail" in ci


def test_readme_main_job_runs(queens):
    main_job = readme_commands()[0].split(" && ", 1)[1].split()
    assert main_job[0] == "queens"
    run = queens(*main_job[1:])
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("Q") == 8


def test_readme_console_examples(queens):
    """Each `$ queens ...` example in the README prints what the README shows."""
    for block in re.findall(r"```console\n(.+?)```", README, re.S):
        for example in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *expected = example.rstrip("\n").split("\n")
            run = queens(*command.split()[1:])
            assert (run.stdout + run.stderr).splitlines() == expected, command


def test_readme_python_examples():
    import doctest

    parser = doctest.DocTestParser()
    python_blocks = re.findall(r"```python\n(.+?)```", README, re.S)
    test = parser.get_doctest("\n".join(python_blocks), {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]])
def test_ruff_is_clean(args):
    run = subprocess.run(
        [sys.executable, "-m", "ruff", *args, "queenslab", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_import_does_not_load_solver_packages():
    code = (
        "import sys, queenslab; "
        "heavy = {'numba', 'ortools', 'pysat', 'pyomo', 'highspy', 'dask', 'matplotlib'}; "
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr
