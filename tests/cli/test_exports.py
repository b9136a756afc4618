"""Every export format read back by a real solver gives the backends' answers.

DIMACS and WCNF through python-sat (RC2 for MaxSAT), LP and MPS through HiGHS, the CP-SAT
proto through OR-Tools, OPB through a small parser here feeding CP-SAT (and through the
minisat+ PB solver when installed), MiniZinc through the ``minizinc`` command with Gecode.
Counts are compared with OEIS (plain boards) or the naive oracle (blocked cells, givens);
optima with brute force (or the ``cpsat`` backend on the larger boards). Every board a
solver returns is checked by the oracle.
"""

from __future__ import annotations

import io
import itertools
import re
import shutil
import subprocess

import numpy as np
import pytest

import queenslab as ql
from queenslab import exports
from queenslab.core.problem import Problem
from queenslab.exports import ModelInstance, linear, lp
from queenslab.lab import reference
from queenslab.modelling import ModelBuilder, total
from queenslab.models.cnf import ENCODINGS
from tests import oracle

PLAIN = [Problem(n) for n in range(4, 11)]
OTHERS = [
    Problem(7, givens=((1, 2),), blocked=((0, 0), (2, 3), (5, 5), (6, 1))),
    Problem(7, variant="toroidal"),
    Problem(10, variant="superqueens"),
]
INSTANCES = pytest.mark.parametrize("problem", PLAIN + OTHERS, ids=lambda p: p.describe())
#: RC2 in Python takes 5 CPU s for each of n = 9 and 10 (n = 8: 0.6 s): slow cases there.
RC2_INSTANCES = pytest.mark.parametrize(
    "problem",
    [p if p.n < 9 else pytest.param(p, marks=pytest.mark.slow) for p in PLAIN] + OTHERS,
    ids=lambda p: p.describe(),
)
INFEASIBLE = [Problem(3), Problem(6, variant="toroidal"), Problem(4, blocked=((1, 0), (1, 3)))]
NO_MINIZINC = pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="minizinc is not installed (.ci/run installs it)"
)
NO_MINISAT_PLUS = pytest.mark.skipif(
    shutil.which("minisat+") is None, reason="minisat+ is not installed (.ci/run installs it)"
)


def text(problem: Problem, name: str, weights=None, encoding: str = "pairwise") -> str:
    return ql.export(problem, format=name, weights=weights, encoding=encoding)


def saved(tmp_path, problem: Problem, name: str, weights=None) -> str:
    path = tmp_path / f"model{exports.FORMATS[name].suffix}"
    path.write_text(text(problem, name, weights))
    return str(path)


def weights_for(problem: Problem) -> np.ndarray:
    rng = np.random.default_rng(problem.n)
    return rng.integers(-9, 21, size=(problem.n, problem.n))


def expected_count(problem: Problem) -> int:
    if problem.blocked or problem.givens:
        return len(
            oracle.all_solutions(problem.n, problem.givens, problem.variant, problem.blocked)
        )
    return reference.total(problem.n, problem.variant)


def expected_optimum(problem: Problem, weights: np.ndarray) -> int | None:
    """Brute force where it is quick, else the ``cpsat`` backend (which the harness checks)."""
    if problem.n <= 8:
        boards = oracle.all_solutions(problem.n, problem.givens, problem.variant, problem.blocked)
        return max((weight_of(weights, cols) for cols in boards), default=None)
    return ql.optimize(problem, weights, "cpsat").objective


def checked(problem: Problem, boards: list[tuple[int, ...]]) -> int:
    """The number of boards, each a distinct solution keeping the givens (per the oracle)."""
    assert len(boards) == len(set(boards))
    for cols in boards:
        assert oracle.is_solution(cols, problem.n, problem.variant, problem.blocked), cols
        assert all(cols[r] == c for r, c in problem.givens)
    return len(boards)


def weight_of(weights: np.ndarray, cols) -> int:
    return sum(int(weights[r, c]) for r, c in enumerate(cols))


def from_cells(n: int, cells) -> tuple[int, ...]:
    """The columns of a board given its occupied cells (any order): n queens, one a row."""
    cols = dict(cells)
    assert len(cells) == len(cols) == n, cells
    return tuple(cols[r] for r in range(n))


def from_names(n: int, names) -> tuple[int, ...]:
    """The board of the cells named ``q_R_C`` (the placement kind's model)."""
    return from_cells(
        n, [tuple(map(int, re.fullmatch(r"q_(\d+)_(\d+)", s).groups())) for s in names]
    )


def variable_cells(problem: Problem) -> list[tuple[int, int]]:
    """The cell of each numbered variable (DIMACS, OPB: from 1): the open cells row by row."""
    return list(problem.board.open_cells())


# -- DIMACS and WCNF: python-sat -------------------------------------------------------------


def dimacs_boards(problem: Problem, cnf_text: str) -> list[tuple[int, ...]]:
    """Every model projected on the board variables (blocking on them only)."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cells = variable_cells(problem)
    shown = re.search(r"^c p show (.*) 0$", cnf_text, re.M).group(1).split()
    assert shown == [str(v) for v in range(1, len(cells) + 1)]
    boards = []
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=cnf_text).clauses) as solver:
        while solver.solve():
            queens = [lit for lit in solver.get_model()[: len(cells)] if lit > 0]
            boards.append(from_cells(problem.n, [cells[lit - 1] for lit in queens]))
            solver.add_clause([-lit for lit in queens])
    return boards


@INSTANCES
def test_dimacs_counts(problem):
    boards = dimacs_boards(problem, text(problem, "dimacs"))
    assert checked(problem, boards) == expected_count(problem)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_dimacs_counts_in_every_encoding(encoding):
    for problem in (Problem(6), OTHERS[0]):
        boards = dimacs_boards(problem, text(problem, "dimacs", encoding=encoding))
        assert checked(problem, boards) == expected_count(problem)


@RC2_INSTANCES
def test_wcnf_optimum_through_rc2(problem):
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    weights = weights_for(problem)
    wcnf = text(problem, "wcnf", weights)
    assert not re.search(r"^p ", wcnf, re.M) and re.search(r"^h ", wcnf, re.M)
    formula = WCNF(from_string=wcnf)
    assert formula.soft and all(w > 0 for w in formula.wght)
    with RC2(formula) as rc2:
        model = rc2.compute()
        cost = rc2.cost
    cells = variable_cells(problem)
    cols = from_cells(problem.n, [cells[lit - 1] for lit in model[: len(cells)] if lit > 0])
    checked(problem, [cols])
    read = re.search(r"^c objective = (-?\d+) \* \(cost .* \+ (-?\d+)\)$", wcnf, re.M)
    weight = int(read[1]) * (cost + int(read[2]))
    assert weight_of(weights, cols) == weight == expected_optimum(problem, weights)


# -- OPB: a small parser feeding CP-SAT, and minisat+ -----------------------------------------


def parse_opb(opb: str):
    """(variables, objective terms or None, constraints) of an OPB file, checking its header."""
    header = re.match(r"\* #variable= (\d+) #constraint= (\d+)\n", opb)
    objective, constraints = None, []
    for line in opb.splitlines():
        if line.startswith("*") or not line.strip():
            continue
        assert line.endswith(" ;"), line
        if line.startswith("min:"):
            objective = _terms(line[4:-2].split())
            continue
        *words, op, rhs, _ = line.split()
        assert op in ("=", ">=")
        constraints.append((_terms(words), op, int(rhs)))
    assert len(constraints) == int(header[2])
    return int(header[1]), objective, constraints


def _terms(words: list[str]) -> list[tuple[int, int]]:
    assert len(words) % 2 == 0, words
    return [
        (int(k), int(x.removeprefix("x"))) for k, x in zip(words[::2], words[1::2], strict=True)
    ]


def opb_model(opb: str):
    from ortools.sat.python import cp_model

    count, objective, constraints = parse_opb(opb)
    model = cp_model.CpModel()
    x = {i: model.new_bool_var(f"x{i}") for i in range(1, count + 1)}
    for terms, op, rhs in constraints:
        total = sum(k * x[i] for k, i in terms)
        model.add(total == rhs if op == "=" else total >= rhs)
    if objective is not None:
        model.minimize(sum(k * x[i] for k, i in objective))
    return model, x


def board_of(problem: Problem, value, x) -> tuple[int, ...]:
    cells = variable_cells(problem)
    return from_cells(problem.n, [cells[i - 1] for i, var in x.items() if value(var)])


@INSTANCES
def test_opb_counts(problem):
    from ortools.sat.python import cp_model

    model, x = opb_model(text(problem, "opb"))
    boards = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            boards.append(board_of(problem, self.boolean_value, x))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.solve(model, Collect())
    assert checked(problem, boards) == expected_count(problem)


@INSTANCES
def test_opb_optimum(problem):
    from ortools.sat.python import cp_model

    weights = weights_for(problem)
    model, x = opb_model(text(problem, "opb", weights))
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    cols = board_of(problem, solver.boolean_value, x)
    checked(problem, [cols])
    assert weight_of(weights, cols) == -solver.objective_value == expected_optimum(problem, weights)


def minisat_plus(tmp_path, problem: Problem, weights=None) -> tuple[str, tuple[int, ...] | None]:
    """The status line of minisat+ on the OPB export, and the board it found."""
    path = saved(tmp_path, problem, "opb", weights)
    run = subprocess.run(["minisat+", "-v0", path], capture_output=True, text=True, timeout=120)
    status = re.search(r"^s (.+)$", run.stdout, re.M)[1]
    values = " ".join(re.findall(r"^v (.*)$", run.stdout, re.M)).split()
    cells = variable_cells(problem)
    queens = [cells[int(v[1:]) - 1] for v in values if v.startswith("x")]
    return status, from_cells(problem.n, queens) if queens else None


@NO_MINISAT_PLUS
@pytest.mark.parametrize("problem", PLAIN[::2] + OTHERS, ids=lambda p: p.describe())
def test_opb_through_minisat_plus(tmp_path, problem):
    status, cols = minisat_plus(tmp_path, problem)
    assert status == "SATISFIABLE"
    checked(problem, [cols])
    weights = weights_for(problem)
    status, cols = minisat_plus(tmp_path, problem, weights)
    assert status == "OPTIMUM FOUND"
    assert weight_of(weights, cols) == expected_optimum(problem, weights)


@NO_MINISAT_PLUS
@pytest.mark.parametrize("problem", INFEASIBLE, ids=lambda p: p.describe())
def test_opb_infeasible_through_minisat_plus(tmp_path, problem):
    assert minisat_plus(tmp_path, problem)[0] == "UNSATISFIABLE"


# -- LP and MPS: HiGHS ------------------------------------------------------------------------


def highs(path: str, problem: Problem):
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(path) == highspy.HighsStatus.kOk
    lp = h.getLp()
    assert h.getNumCol() == len(variable_cells(problem))
    assert sorted(lp.row_names_) == sorted(row_names(problem))
    return h


def row_names(problem: Problem) -> list[str]:
    """The kind's names: a row per group that constrains (at most one of one cell does
    not), a clause per given queen."""
    groups = problem.board.groups()
    kept = [g.name for g in groups if g.exactly_one or len(g.cells) > 1]
    return kept + [f"clause_{i}" for i in range(len(problem.givens))]


def highs_board(h, problem: Problem) -> tuple[int, ...] | None:
    import highspy

    h.run()
    if h.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
        return None
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    values = h.getSolution().col_value
    names = h.getLp().col_names_
    return from_names(problem.n, [name for name, v in zip(names, values, strict=True) if v > 0.5])


def highs_boards(h, problem: Problem) -> list[tuple[int, ...]]:
    """Every solution, each cut off by a no-good row once found."""
    names = {name: i for i, name in enumerate(h.getLp().col_names_)}
    boards = []
    while (cols := highs_board(h, problem)) is not None:
        boards.append(cols)
        index = np.array([names[f"q_{r}_{c}"] for r, c in enumerate(cols)], np.int32)
        h.addRow(-h.inf, problem.n - 1, len(index), index, np.ones(len(index)))
    return boards


@pytest.mark.parametrize("name", ["lp", "mps"])
@pytest.mark.parametrize(
    "problem", [Problem(n) for n in range(4, 8)] + OTHERS[:2], ids=lambda p: p.describe()
)
def test_milp_formats_count_through_highs(tmp_path, name, problem):
    h = highs(saved(tmp_path, problem, name), problem)
    assert checked(problem, highs_boards(h, problem)) == expected_count(problem)


@pytest.mark.parametrize("name", ["lp", "mps"])
@INSTANCES
def test_milp_formats_solve_and_optimize_through_highs(tmp_path, name, problem):
    checked(problem, [highs_board(highs(saved(tmp_path, problem, name), problem), problem)])
    weights = weights_for(problem)
    h = highs(saved(tmp_path, problem, name, weights), problem)
    cols = highs_board(h, problem)
    checked(problem, [cols])
    objective = h.getInfo().objective_function_value
    assert weight_of(weights, cols) == round(objective) == expected_optimum(problem, weights)


@pytest.mark.parametrize("name", ["lp", "mps"])
@pytest.mark.parametrize("problem", INFEASIBLE, ids=lambda p: p.describe())
def test_milp_formats_infeasible_through_highs(tmp_path, name, problem):
    assert highs_board(highs(saved(tmp_path, problem, name), problem), problem) is None


def test_milp_names_are_the_boards_groups():
    lp = text(Problem(8, variant="superqueens", givens=((0, 3),), blocked=((4, 4),)), "lp")
    for line in ("row_3: ", "col_5: ", "diag_up_7: ", "diag_down_2: ", "leap_0_3_1_5: ",
                 "clause_0: q_0_3 >= 1"):  # fmt: skip
        assert f"\n {line}" in lp, line
    assert "q_4_4" not in lp  # a blocked cell has no variable


@pytest.mark.parametrize("name", ["dimacs", "wcnf", "opb", "lp", "mps", "cpsat"])
def test_placement_is_written_as_its_kinds_model(name):
    """No second statement of the board: placement asked as it is writes what its kind's
    model writes, in every format that states a 0-1 model."""
    problem = Problem(6, variant="superqueens", givens=((0, 2),), blocked=((3, 3),))
    for weights in (None, weights_for(problem)):
        task = ql.Task.SOLVE if weights is None else ql.Task.OPTIMIZE
        if task in exports.FORMATS[name].tasks:
            asked = ql.export(problem, format=name, weights=weights, model="cells")
            assert text(problem, name, weights) == asked


def test_named_rows_keep_their_names_once_each():
    """A kind's constraint names are its rows' names in LP and MPS, a repeated one made
    unique; an enforced constraint keeps its name; an unnamed one is named by its place."""
    m = ModelBuilder("named")
    x = [m.var(f"x{i}", answer=True) for i in range(3)]
    e = m.var("e")
    m.add((total(x) <= 1).named("pair"), (total(x[:2]) >= 1).named("pair"))
    m.add((total(x) >= 2).named("enforced").only_if(e), total(x[1:]) <= 1)
    m.add((total(x) <= 1).named("pair_2"))
    rows = [row.name for row in linear.model_rows(m.bool_model)]
    assert rows == ["pair", "pair_2", "enforced", "linear_3", "pair_2_2"]
    out = io.StringIO()
    lp.write_model(ModelInstance(Problem(3), m.bool_model), out)
    assert "\n pair: x0 + x1 + x2 <= 1\n" in out.getvalue()


# -- CP-SAT proto: OR-Tools -------------------------------------------------------------------


def cpsat_model(proto_text: str):
    """The exported text parsed as a ``CpModelProto`` (google.protobuf), then loaded."""
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2
    from ortools.sat.python import cp_model

    proto = text_format.Parse(proto_text, cp_model_pb2.CpModelProto())
    model = cp_model.CpModel()
    model.proto.parse_text_format(text_format.MessageToString(proto))
    names = [v.name for v in proto.variables]
    return model, names


@INSTANCES
def test_cpsat_proto_counts(problem):
    from ortools.sat.python import cp_model

    model, names = cpsat_model(text(problem, "cpsat"))
    boards = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            values = self.response_proto.solution
            boards.append(
                from_names(problem.n, [s for s, v in zip(names, values, strict=True) if v])
            )

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    assert solver.solve(model, Collect()) == cp_model.OPTIMAL
    assert checked(problem, boards) == expected_count(problem)


@INSTANCES
def test_cpsat_proto_optimum(problem):
    from ortools.sat.python import cp_model

    weights = weights_for(problem)
    model, names = cpsat_model(text(problem, "cpsat", weights))
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    values = solver.response_proto.solution
    cols = from_names(problem.n, [s for s, v in zip(names, values, strict=True) if v])
    checked(problem, [cols])
    assert weight_of(weights, cols) == solver.objective_value == expected_optimum(problem, weights)


# -- MiniZinc: the minizinc command with Gecode -----------------------------------------------


def minizinc(tmp_path, problem: Problem, weights=None, *flags: str) -> tuple[list, str]:
    """The boards Gecode prints for the MiniZinc export, and its closing line."""
    path = saved(tmp_path, problem, "mzn", weights)
    run = subprocess.run(
        ["minizinc", "--solver", "gecode", *flags, path], capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    boards = [
        tuple(map(int, q.split(","))) for q in re.findall(r"^q = \[(.*)\]$", run.stdout, re.M)
    ]
    return boards, run.stdout.rstrip().splitlines()[-1]


@NO_MINIZINC
@INSTANCES
def test_minizinc_counts_through_gecode(tmp_path, problem):
    boards, last = minizinc(tmp_path, problem, None, "--all-solutions")
    assert last == "=========="  # the search space is exhausted
    assert checked(problem, boards) == expected_count(problem)


@NO_MINIZINC
@INSTANCES
def test_minizinc_optimum_through_gecode(tmp_path, problem):
    weights = weights_for(problem)
    boards, last = minizinc(tmp_path, problem, weights)
    assert last == "=========="  # proven optimal
    checked(problem, boards[-1:])
    assert weight_of(weights, boards[-1]) == expected_optimum(problem, weights)


@NO_MINIZINC
@pytest.mark.parametrize("problem", INFEASIBLE, ids=lambda p: p.describe())
def test_minizinc_infeasible_through_gecode(tmp_path, problem):
    assert minizinc(tmp_path, problem)[1] == "=====UNSATISFIABLE====="


# -- the table and the command ----------------------------------------------------------------


def test_no_exporter_writes_a_board_rule():
    """Diagonals, wrapping and leaps come from the board layer, never from an exporter."""
    from tests.conftest import ROOT

    for module in (ROOT / "queenslab" / "exports").glob("*.py"):
        source = module.read_text()
        assert not re.search(r"\b[rc] [+-] [rc]\b", source), module.name


def test_every_format_writes_every_variant_with_blocks_and_givens():
    problem = Problem(5, givens=((0, 0),), blocked=((4, 4),), variant="superqueens")
    weights = weights_for(problem)
    for export in exports.FORMATS.values():
        if ql.Task.SOLVE in export.tasks:
            assert "n=5, variant superqueens" in text(problem, export.name)
        if ql.Task.OPTIMIZE in export.tasks:
            assert "given queens: 0:0; blocked cells: 4:4" in text(problem, export.name, weights)


def test_formats_refuse_tasks_they_cannot_express():
    with pytest.raises(ql.UsageError, match=r"wcnf cannot express solve.*--weights"):
        text(Problem(4), "wcnf")
    with pytest.raises(ql.UsageError, match=r"dimacs cannot express optimize.*wcnf"):
        text(Problem(4), "dimacs", np.ones((4, 4), int))
    with pytest.raises(ql.UsageError, match="at most"):
        text(Problem(exports.MAX_N + 1), "lp")


def test_cnf_is_export_dimacs(queens):
    args = ["7", "--encoding", "ladder", "--variant", "toroidal", "--blocked", "0:0"]
    cnf = queens("cnf", *args)
    assert cnf.returncode == 0
    assert cnf.stdout == queens("export", *args, "--format", "dimacs").stdout


def test_export_writes_the_output_file_of_its_suffix(queens, tmp_path):
    weights = weights_for(Problem(5))
    (tmp_path / "w.json").write_text(str(weights.tolist()))
    for export in exports.FORMATS.values():
        target = tmp_path / f"five{export.suffix}"
        weighted = ql.Task.OPTIMIZE in export.tasks
        flags = ["--weights", str(tmp_path / "w.json")] if weighted else []
        run = queens("export", "5", "--output", str(target), *flags)
        assert run.returncode == 0 and run.stdout == "", run.stderr
        assert target.read_text() == text(Problem(5), export.name, weights if weighted else None)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["export", "5"], "give --format"),
        (["export", "5", "--output", "x.txt"], "the suffix of x.txt names none"),
        (["export", "5", "--format", "wcnf"], "--weights FILE"),
        (
            ["export", "5", "--format", "lp", "--weights", "missing.csv", "-o", "{tmp}/out.lp"],
            "cannot read weights",
        ),
        (["export", "5", "--format", "nope"], "invalid choice"),
    ],
)
def test_export_usage_errors_are_one_line(queens, tmp_path, argv, message):
    run = queens(*(word.replace("{tmp}", str(tmp_path)) for word in argv))
    assert run.returncode == 2 and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "problem",
    [Problem(6), Problem(5, variant="toroidal"), Problem(6, variant="superqueens",
                                                         blocked=((0, 1), (3, 3)))],
    ids=lambda p: p.describe(),
)  # fmt: skip
def test_col_is_the_queens_graph_of_the_open_cells(problem):
    """Read back: vertices are the open cells from 1, row by row; the edges are exactly
    the pairs the oracle says attack (through blocked cells too)."""
    lines = text(problem, "col").splitlines()
    spots = [(r, c) for r in range(problem.n) for c in range(problem.n)
             if (r, c) not in problem.blocked]  # fmt: skip
    header = next(line.split() for line in lines if line.startswith("p "))
    edges = {tuple(int(w) for w in line.split()[1:]) for line in lines if line.startswith("e ")}
    expected = {
        (i + 1, j + 1)
        for i, j in itertools.combinations(range(len(spots)), 2)
        if oracle.attack(problem.n, problem.variant, spots[i], spots[j])
    }
    assert header == ["p", "edge", str(len(spots)), str(len(expected))]
    assert edges == expected


def test_export_col_of_a_problem_is_the_same_graph(queens):
    run = queens("export", "5", "--problem", "coloring", "--format", "col", "--blocked", "1:1")
    assert run.returncode == 0, run.stderr
    assert run.stdout == text(Problem(5, blocked=((1, 1),)), "col")
