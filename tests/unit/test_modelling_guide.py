"""The three kinds of the modelling guide (docs/examples/modelling_kinds.py, shown verbatim
in docs/modelling.md): each solved on the four model backends, its optima counted and
enumerated, decided, exported to every format that takes a model, swept with two models
and asked for by name from the command line; every answer checked against a brute force
written here, with geometry of its own."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations, product
from types import ModuleType
from typing import Any

import pytest

import queenslab as ql
from queenslab import problems
from queenslab.boards import board
from queenslab.exports import FORMATS
from queenslab.lab.sweep import configurations, run_sweep
from tests.conftest import ROOT, queens_command

SOURCE = ROOT / "docs" / "examples" / "modelling_kinds.py"
GUIDE = ROOT / "docs" / "modelling.md"
NOTEBOOK = ROOT / "docs" / "notebooks" / "modelling.ipynb"
MODEL_BACKENDS = ("cpsat", "milp", "maxsat", "sat")
COUNTERS = ("cpsat", "sat")  # the model backends that count and enumerate a kind's optima
#: One configuration per backend in a sweep: HiGHS for milp, CaDiCaL and pairwise for sat.
SAT_ONE = {"solver": ["cadical195"], "encoding": ["pairwise"]}
ONE_EACH = SAT_ONE | {"solver": ["highs", "cadical195"]}
MODEL_FORMATS = [name for name, export in FORMATS.items() if export.write_model is not None]


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("modelling_kinds", SOURCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


guide = load()

Cell = tuple[int, int]


# -- the test's own geometry and brute forces --------------------------------------------------


def line_between(a: Cell, b: Cell) -> list[Cell] | None:
    """The cells strictly between a and b when they share a row, column or diagonal."""
    dr, dc = b[0] - a[0], b[1] - a[1]
    if a == b or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return None
    steps = max(abs(dr), abs(dc))
    return [(a[0] + i * dr // steps, a[1] + i * dc // steps) for i in range(1, steps)]


def queen_attacks(a: Cell, b: Cell, holes: frozenset[Cell] = frozenset()) -> bool:
    between = line_between(a, b)
    return between is not None and not holes.intersection(between)


def knight_attacks(a: Cell, b: Cell) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def total_dominating_optima(n: int, holes: frozenset[Cell]) -> tuple[int, set]:
    cells = list(product(range(n), repeat=2))
    for size in range(1, len(cells) + 1):
        found = {
            frozenset(s)
            for s in combinations(cells, size)
            if all(any(queen_attacks(q, c) for q in s) for c in cells)
        }
        if found:
            return size, found
    raise AssertionError("every board has a total dominating set")


def peaceful_armies(n: int) -> Iterator[tuple[frozenset[Cell], frozenset[Cell]]]:
    """Every placement of queens and knights, no piece attacking another."""
    cells = list(product(range(n), repeat=2))

    def extend(i: int, queens: list[Cell], knights: list[Cell]):
        if i == len(cells):
            yield frozenset(queens), frozenset(knights)
            return
        cell = cells[i]
        yield from extend(i + 1, queens, knights)
        pieces = queens + knights
        if not any(queen_attacks(q, cell) for q in queens) and not any(
            knight_attacks(k, cell) for k in knights
        ):
            if not any(queen_attacks(cell, p) for p in pieces):
                yield from extend(i + 1, [*queens, cell], knights)
            if not any(knight_attacks(cell, p) for p in pieces):
                yield from extend(i + 1, queens, [*knights, cell])

    yield from extend(0, [], [])


def queens_and_knights_optima(n: int, holes: frozenset[Cell]) -> tuple[int, set]:
    equal = [(q, k) for q, k in peaceful_armies(n) if len(q) == len(k)]
    best = max(len(q) for q, _ in equal)
    return best, {(q, k) for q, k in equal if len(q) == best}


def shielded_optima(n: int, holes: frozenset[Cell]) -> tuple[int, set]:
    cells = [c for c in product(range(n), repeat=2) if c not in holes]
    found: list[frozenset[Cell]] = []

    def extend(i: int, chosen: list[Cell]) -> None:
        if i == len(cells):
            found.append(frozenset(chosen))
            return
        extend(i + 1, chosen)
        if not any(queen_attacks(q, cells[i], holes) for q in chosen):
            extend(i + 1, [*chosen, cells[i]])

    extend(0, [])
    best = max(map(len, found))
    return best, {s for s in found if len(s) == best}


def cells_of(data: Any) -> frozenset[Cell]:
    return frozenset(map(tuple, data))


def armies_of(data: Any) -> tuple[frozenset[Cell], frozenset[Cell]]:
    return cells_of(data["queens"]), cells_of(data["knights"])


@dataclass(frozen=True)
class Example:
    kind: type[ql.ProblemKind]
    n: int
    holes: tuple[Cell, ...]
    brute_force: Callable[[int, frozenset[Cell]], tuple[int, set]]
    read: Callable[[Any], Any]  # an answer's JSON data -> the kind's answer

    @property
    def name(self) -> str:
        return self.kind.name

    def optima(self) -> tuple[int, set]:
        return self.brute_force(self.n, frozenset(self.holes))

    def ask(self, **more: Any) -> dict[str, Any]:
        return {"problem": self.name, "blocked": list(self.holes), **more}

    def checked(self, data: Any) -> Any:
        """The answer read from JSON, after the kind's own checker accepted it."""
        answer = self.read(data)
        assert self.kind().check(board(self.n, blocked=self.holes), answer) is None
        return answer


EXAMPLES = [
    Example(guide.TotalDomination, 4, (), total_dominating_optima, cells_of),
    Example(guide.QueensAndKnights, 4, (), queens_and_knights_optima, armies_of),
    Example(guide.ShieldedQueens, 5, ((1, 2), (3, 2), (2, 0)), shielded_optima, cells_of),
]
by_name = pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The guide's kinds registered for one test, after the backends were listed, in a
    registry of their own: the harness's total-domination is another class of that name."""
    ql.backends()
    monkeypatch.setattr(problems.KIND_REGISTRY, "registered", {})
    for kind in guide.KINDS:
        ql.register_kind(kind)


@pytest.mark.parametrize("shown_in", [GUIDE, NOTEBOOK], ids=lambda p: p.name)
def test_the_guide_and_the_notebook_show_the_module_verbatim(shown_in):
    """Every function and class of the module, and its imports, in Python blocks of the
    guide and code cells of the notebook: what the reader copies is what the tests run."""
    if shown_in.suffix == ".ipynb":
        cells = json.loads(shown_in.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    else:
        code = "\n".join(re.findall(r"```python\n(.+?)```", shown_in.read_text(), re.S))
    source = SOURCE.read_text()
    parts = [
        ast.get_source_segment(source, node)
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom)
        and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
    ]
    assert len(parts) >= 10 and [part for part in parts if part not in code] == []


def test_the_brute_force_agrees_with_the_published_values():
    """8 x 8: 5 queens and 5 knights (the ITA puzzle's answer) is beyond a brute force; its
    geometry is checked on the n + k queens rule instead: 6 queens on 5 x 5 need 3 pawns."""
    assert total_dominating_optima(4, frozenset())[0] == 2
    assert shielded_optima(5, frozenset({(1, 2), (3, 2), (2, 0)}))[0] == 6
    assert shielded_optima(5, frozenset())[0] == 5


@by_name
@pytest.mark.parametrize("backend", MODEL_BACKENDS)
def test_every_model_backend_finds_the_optimum(example, backend):
    best, optima = example.optima()
    for model in example.kind.models:
        result = ql.optimize(example.n, backend=backend, **example.ask(model=model))
        assert result.status is ql.Status.OPTIMAL and result.objective == best
        assert example.checked(result.answer) in optima


@by_name
@pytest.mark.parametrize("backend", COUNTERS)
def test_the_optima_are_counted_and_enumerated(example, backend):
    best, optima = example.optima()
    for model in example.kind.models:
        count = ql.count(example.n, backend, **example.ask(model=model))
        assert (count.total, count.optimum) == (len(optima), best)
        found = [
            example.checked(a)
            for a in ql.enumerate_solutions(example.n, backend, **example.ask(model=model))
        ]
        assert len(found) == len(optima) and set(found) == optima
    classes = ql.count(example.n, backend, **example.ask(symmetry="lex-leader")).total
    assert 0 < classes <= len(optima)


@by_name
def test_deciding_says_yes_at_the_optimum_and_no_beyond(example):
    best, _ = example.optima()
    beyond = best - 1 if example.kind.sense is ql.Sense.MIN else best + 1
    yes = ql.decide(example.n, example.name, best, "sat", blocked=list(example.holes))
    assert yes.status is ql.Status.YES
    example.checked(yes.answer)
    no = ql.decide(example.n, example.name, beyond, "cpsat", blocked=list(example.holes))
    assert no.status is ql.Status.NO


@by_name
@pytest.mark.parametrize("fmt", MODEL_FORMATS)
def test_every_model_format_exports(example, fmt):
    text = ql.export(example.n, fmt, **example.ask())
    assert text and text.strip()


@by_name
def test_a_sweep_compares_two_models(example):
    """Every model of the kind on a MILP and a SAT configuration: the same optimum and
    number of optima as the brute force, at every n swept."""
    best, optima = example.optima()
    configs = configurations(["milp", "sat"], ["optimize"], ONE_EACH, example.name)
    for model in example.kind.models:
        report = run_sweep(
            configs, [example.n], ["optimize"], problem=example.name, model=model,
            blocked=example.holes,
        )  # fmt: skip
        assert report.problems == []
        assert [cell.answer for cell in report.cells] == [best] * len(configs)
        counted = run_sweep(
            configurations(["sat"], ["count"], SAT_ONE, example.name),
            [example.n], ["count"], problem=example.name, model=model, blocked=example.holes,
        )  # fmt: skip
        assert [cell.answer for cell in counted.cells] == [len(optima)]


def test_the_cli_finds_the_kinds_through_the_entry_point_group(tmp_path):
    """A package declaring the kinds in ``queenslab.kinds`` (here its installed metadata,
    written by hand) makes ``--problem NAME`` work with no edit to queenslab."""
    (tmp_path / "modelling_kinds.py").write_text(SOURCE.read_text())
    info = tmp_path / "modelling_kinds-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: modelling-kinds\nVersion: 1.0\n")
    points = "".join(f"{kind.name} = modelling_kinds:{kind.__name__}\n" for kind in guide.KINDS)
    (info / "entry_points.txt").write_text(f"[queenslab.kinds]\n{points}")
    run = subprocess.run(
        [*queens_command(), "optimize", "5", "--problem", "shielded-queens", "-b", "sat",
         "--blocked", "1:2", "--blocked", "3:2", "--blocked", "2:0", "--format", "json"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["objective"] == 6 and result["status"] == "optimal"
