"""The docs hold together, every command teaches by example, and the benchmark report renders.

(The examples inside the docs are executed by tests/integration/test_project.py.)
"""

from __future__ import annotations

import importlib.util
import re
import sys

import pytest

from queenslab.cli import build_parser
from tests.conftest import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
COMMANDS = [
    "solve",
    "count",
    "enumerate",
    "optimize",
    "decide",
    "check-proof",
    "check-exercise",
    "crosscheck",
    "cnf",
    "export",
    "lv-study",
    "backends",
    "problems",
    "sweep",
    "generate",
    "hardness-study",
]


def test_every_guide_is_listed_in_the_index():
    index = (ROOT / "docs" / "index.md").read_text()
    assert {p.name for p in DOCS} - {"index.md"} <= set(re.findall(r"\]\((\w+\.md)\)", index))


@pytest.mark.parametrize("document", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_relative_links_point_to_existing_files(document):
    """A notebook's page (notebooks/NAME.md) is made from NAME.ipynb when the site builds,
    and an exercise set's two pages (exercises/NAME.md, NAME-key.md) from course/NAME.md."""
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", document.read_text()):
        path = document.parent / target
        source = ROOT / "docs" / "course" / f"{path.stem.removesuffix('-key')}.md"
        made = path.suffix == ".md" and path.with_suffix(".ipynb").exists()
        made = made or (path.parent.name == "exercises" and source.exists())
        assert path.exists() or made, f"{document.name} links to {target}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_examples_in_its_help(command, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])
    assert f"examples:\n  queens {command}" in capsys.readouterr().out


@pytest.mark.parametrize("flags", [["-v", "count", "6"], ["count", "6", "-v"]])
def test_verbose_is_accepted_before_and_after_the_command(queens, flags):
    run = queens(*flags)
    assert run.returncode == 0 and run.stdout == "4\n"
    assert "solved in" in run.stderr  # the timing line of the default backend


def _benchmark_runner(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_run", module)  # dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_benchmark_report_and_plots_render(tmp_path, monkeypatch):
    run = _benchmark_runner(monkeypatch)
    count = {name: {8: 0.5, 9: 1.5} for name in ("backtrack", "bitmask", "cpsat", "sat")}
    count |= {"milp": {8: 2.0}, "C mirror": {8: 0.25, 9: 0.5}}
    count |= {"textbook cpsat": {8: 1.0}, "textbook sat": {8: 1.0, 9: 3.0}}
    data = {
        "machine": {"cpu": "test cpu", "cores": "2"},
        "count": count,
        "heuristics": {"explicit": {1000: 1e-5, 10**8: 2.0}},
        "milp": {8: (0.1, 0.2, 0.3)},
        "lookup": {16: (10052, 0.13, 0.017)},
    }
    text = run.report(data, quick=True)
    assert "| 9 | 1.50 s | 1.50 s | 1.50 s | 1.50 s | - | 500.0 ms |" in text
    assert "| 8 | 2 | 0.5 | 0.5 |" in text  # bitmask / C, cpsat / textbook, sat / textbook
    assert "| 9 | 3 | - | 0.5 |" in text
    assert "| 10^8 | 2.00 s |" in text
    run.plots(data, tmp_path)
    for name in ("count_time", "models_vs_textbook", "heuristics_time", "milp_phases"):
        assert (tmp_path / f"{name}.png").read_bytes().startswith(b"\x89PNG")


def test_grow_stops_before_the_budget(monkeypatch):
    run = _benchmark_runner(monkeypatch)
    plan = run.Plan(10.0, 1, 10, (), (), ())
    measured = run.grow("x", [1, 2, 3, 4, 5], lambda size: float(size), plan, growth=4.0)
    assert list(measured) == [1, 2, 3]  # 3 s x 4 > 10 s: size 4 is not attempted


def test_statistics_page_lists_every_shared_name():
    from queenslab.core.stats import FIELDS

    page = (ROOT / "docs" / "statistics.md").read_text()
    listed = re.findall(r"^\| `(\w+)` \| ", page, re.M)
    assert [name for name in listed if name in FIELDS] == list(FIELDS)


def _hooks():
    spec = importlib.util.spec_from_file_location(
        "mkdocs_hooks", ROOT / "tools" / "mkdocs_hooks.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_excerpt_of_the_package_is_taken_from_its_source_when_the_site_is_built():
    """docs/modelling.md shows Domination.state as the code has it today, not a copy."""
    hooks = _hooks()
    page = (ROOT / "docs" / "modelling.md").read_text()
    assert "<!-- code: queenslab/problems/domination.py Domination.state -->" in page
    built = hooks.on_page_markdown(page, None, None, None)
    source = (ROOT / "queenslab" / "problems" / "domination.py").read_text()
    shown = re.search(r"```python\n(    def state\(self.+?)\n```", built, re.S)[1]
    assert shown in source and "m.minimise" in shown
    for document in DOCS:
        for path, qualname in re.findall(
            r"^<!-- code: (\S+) (\S+) -->$", document.read_text(), re.M
        ):
            assert hooks.excerpt(path, qualname).strip(), (document.name, path, qualname)
    with pytest.raises(KeyError, match=r"Domination\.nothing"):
        hooks.excerpt("queenslab/problems/domination.py", "Domination.nothing")
