"""The project's own promises: README commands, CI script, lint, import cost."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def readme_commands() -> list[str]:
    """The commands of the README's Set-up section, in order."""
    setup = README.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", setup)


def test_readme_has_exactly_three_setup_commands():
    install_and_run, install_and_test, programs = readme_commands()
    assert install_and_run.startswith("pip install . && queens ")
    assert install_and_test.startswith('pip install ".[test]" && ')
    assert programs.startswith("sudo apt-get install ")


def _apt_packages(text: str) -> set[str]:
    """The packages an ``apt-get install`` line (continued with backslashes) names."""
    line = text.replace("\\\n", " ").split("apt-get install", 1)[1].splitlines()[0]
    return {word for word in line.split() if not word.startswith("-")}


def test_readme_names_the_debian_programs_ci_installs():
    """A fresh machine skipped about 30 tests for programs only .ci/run installed."""
    ci = (ROOT / ".ci" / "run").read_text()
    assert _apt_packages(readme_commands()[2]) == _apt_packages(ci) != set()


def test_the_test_extra_pulls_no_nvidia_wheel_and_ci_installs_nvrtc_after():
    """NVRTC (217 MB) has its own extra; CI installs it after the README's test command."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = extras["optional-dependencies"]
    assert not [name for name in extras["test"] if name.startswith("nvidia")]
    assert any(name.startswith("nvidia-cuda-nvrtc") for name in extras["gpu-compile"])
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    after = lines[lines.index(readme_commands()[1]) + 1 :]
    assert any('pip install --quiet ".[gpu-compile]"' in line for line in after)


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert readme_commands()[1] in ci.splitlines()
    assert "python3 -m venv" in ci and "set -euo pipefail" in ci


def test_every_test_file_ci_names_exists():
    """The counting tests CI runs again with QUEENSLAB_NATIVE=0 are named by path."""
    named = re.findall(r"tests/[\w/]+\.py", (ROOT / ".ci" / "run").read_text())
    assert named and [path for path in named if not (ROOT / path).exists()] == []


@pytest.mark.parametrize(
    ("expression", "fast", "slow"),
    [
        ("unit", True, False),
        ("slow", False, True),
        # each case is a pytest of its own (2.6 CPU s): the two above cover both rules
        pytest.param("unit or slow", True, True, marks=pytest.mark.slow),
    ],
)
def test_a_tier_leaves_out_the_slow_tests_unless_asked(expression, fast, slow):
    """Issue 35: ``-m unit`` replaced addopts' ``-m 'not slow'`` and ran 50 minutes."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
         "-n", "0", "-m", expression, "tests/unit/test_heuristics.py"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    ).stdout.splitlines()  # fmt: skip
    here = "tests/unit/test_heuristics.py::"
    assert (f"{here}test_explicit_refuses_boards_without_solutions[2]" in listed) == fast
    assert (f"{here}test_explicit_is_valid_at_ten_million" in listed) == slow


def test_readme_main_job_runs(queens):
    main_job = readme_commands()[0].split(" && ", 1)[1].split()
    assert main_job[0] == "queens"
    run = queens(*main_job[1:])
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("Q") == 8


DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where ``...`` in an expected line matches any text."""
    if len(expected) != len(actual):
        return False
    return all(
        re.fullmatch(".*".join(map(re.escape, want.split("..."))), got)
        for want, got in zip(expected, actual, strict=True)
    )


@pytest.mark.slow
@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_console_examples(queens, document):
    """Each `$ queens ...` example prints what the document shows (``...`` = anything)."""
    for block in re.findall(r"```console\n(.+?)```", document.read_text(), re.S):
        for example in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *expected = example.rstrip("\n").split("\n")
            if not command.startswith("queens "):
                continue
            run = queens(*command.split()[1:])
            assert _matches(expected, (run.stdout + run.stderr).splitlines()), (
                f"{document.name}: {command}\n{run.stdout}{run.stderr}"
            )


def _python_blocks(document) -> list[str]:
    return re.findall(r"```python\n(.+?)```", document.read_text(), re.S)


@pytest.mark.slow
@pytest.mark.parametrize(
    "document", [d for d in DOCUMENTS if _python_blocks(d)], ids=lambda p: p.name
)
def test_python_examples(document, monkeypatch):
    """The examples run in this process: backends, kinds and value orders they register
    stay in the example; the modelling guide imports its kinds from docs/examples."""
    import doctest

    from queenslab import problems, registry
    from queenslab.exact import csp

    monkeypatch.setattr(registry.BACKENDS, "registered", {})  # the examples' own names only
    monkeypatch.setattr(problems.KIND_REGISTRY, "registered", {})
    monkeypatch.setattr(csp, "VALUE_ORDERS", dict(csp.VALUE_ORDERS))
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "examples"))
    blocks = _python_blocks(document)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, document.name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():  # the docs call the entry points as they are now
        warnings.filterwarnings("error", ".*by position is deprecated", DeprecationWarning)
        warnings.filterwarnings("error", r".*\(problem=\.\.\.\) is deprecated", DeprecationWarning)
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


#: Every folder of Python the project writes, notebooks included.
LINTED = ("queenslab", "tests", "benchmarks", "tools", "docs/notebooks")


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]])
def test_ruff_is_clean(args):
    run = subprocess.run(
        [sys.executable, "-m", "ruff", *args, *LINTED],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_is_clean():
    """The package's annotations hold under its [tool.mypy] settings (strict): they are
    its users' types too, shipped with ``py.typed``."""
    assert (ROOT / "queenslab" / "py.typed").is_file()
    run = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(
    "code",
    [
        "import queenslab",
        "from queenslab.cli import build_parser; build_parser()",
        "from queenslab.cli import build_parser; build_parser().parse_args(['count', '12'])",
    ],
    ids=["import", "cli-parser", "cli-parse-args"],
)
def test_import_is_light(code):
    """Neither importing the package nor building the CLI loads NumPy, Numba or a solver,
    nor the standard library's slow imports: importlib.metadata (about 50 ms with its scan;
    no installed package declares a backend here), multiprocessing, concurrent.futures,
    subprocess."""
    probe = (
        f"import sys; {code}; "
        "heavy = {'numpy', 'numba', 'ortools', 'pysat', 'pyomo', 'highspy', 'dask',"
        " 'distributed', 'matplotlib', 'pyganak'}; "
        "slow = {'importlib.metadata', 'multiprocessing', 'concurrent.futures', 'subprocess'}; "
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules} | slow & set(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


@pytest.mark.parametrize(
    "call",
    [
        "ql.count(6, 'bitmask')",
        "ql.solve(8, 'bitmask')",
        "ql.solve(200, 'min-conflicts', seed=1)",
        "ql.solve(30, 'las-vegas', seed=1)",
    ],
)
def test_first_call_seconds_exclude_kernel_loading(call):
    """Numba loads cached kernels at their first call; load() must do that, not the search."""
    code = (
        f"import queenslab as ql; first = {call}; second = {call}; "
        "print(first.seconds, second.seconds)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    first, second = map(float, run.stdout.split())
    assert first < 20 * second + 0.05, run.stdout


def test_numba_is_imported_only_through_the_cache_shim():
    """queenslab.compiled.jit gives numba the package's one cache (every copy and command
    share it) before any kernel is compiled; a kernel decorated by numba imported directly
    could miss it and be compiled again by each copy of the package."""
    direct = re.compile(r"^\s*(from numba\b|import numba\b)", re.M)
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "queenslab").rglob("*.py")
        if path.relative_to(ROOT).as_posix() != "queenslab/compiled/jit.py"
        and direct.search(path.read_text())
    ]
    assert offenders == []


#: The package's floors, bottom first: a module may import only from its own wing or from
#: a lower floor (an import under TYPE_CHECKING included). Wings on one floor never import
#: each other.
LAYERS = [
    {"compiled", "data"},
    {"boards"},
    {"core"},
    {"modelling"},  # the public namespace of a kind: boards and core, re-exported
    {"runtime", "proofs"},
    {"exact"},
    {"problems"},
    {"io"},
    {"models"},
    {"heuristics", "exports"},
    {"registry"},
    {"api"},
    {"trace"},
    {"lab", "course"},  # course: the exercises' checks, over the api and the traces
    {"cli"},
    {"__init__", "__main__"},
]


def _wing(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("queenslab"):
            found += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("queenslab")]
    return found


def test_every_import_points_down_the_layers():
    floor = {wing: level for level, wings in enumerate(LAYERS) for wing in wings}
    upward = []
    for path in sorted((ROOT / "queenslab").rglob("*.py")):
        source = _wing(".".join(path.relative_to(ROOT).with_suffix("").parts))
        assert source in floor, f"{path} is in a wing without a floor: add it to LAYERS"
        for target in _imports(path):
            wing = _wing(target)
            if wing == source or wing not in floor:  # a name from the package's face
                continue
            if floor[wing] >= floor[source]:
                upward.append(f"{path.relative_to(ROOT)} imports {target}")
    assert upward == []


def test_a_benchmark_runs_the_queenslab_of_the_tree_it_names(tmp_path, monkeypatch):
    """benchmarks/revisions.py times an earlier commit's tree: ``python -m queenslab`` run
    from the repository root must import that tree's package, not this checkout's (the
    working directory came first on the path, so both sides ran this checkout)."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    from _process import measure

    other = tmp_path / "queenslab"
    other.mkdir()
    (other / "__init__.py").write_text("")
    (other / "__main__.py").write_text("raise SystemExit(7)\n")
    measure([sys.executable, "-m", "queenslab"], cwd=ROOT, root=tmp_path, ok=(7,))
