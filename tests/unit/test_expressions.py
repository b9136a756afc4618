"""The modelling API (core/expressions.py, ProblemKind): each construct writes the BoolModel
rows a hand-written model would, mistakes are refused in one line, and a kind written here,
outside the package, is solved by every 0-1 translator and checked against brute force."""

from __future__ import annotations

from itertools import combinations, product

import pytest

import queenslab as ql
from queenslab import problems
from queenslab.boards import Board, Cell, board
from queenslab.core.backend import Task
from queenslab.core.errors import KindError, UsageError
from queenslab.core.expressions import ModelBuilder, any_of, at_most_one, exactly_one, total
from queenslab.core.model import BoolModel, Linear, Sense
from queenslab.core.result import Status
from queenslab.core.run import Run
from tests.translators import ENUMERATORS, TRANSLATORS, load_solvers
from tests.user_kinds import TotalDomination


def three() -> tuple[ModelBuilder, tuple]:
    m = ModelBuilder("t")
    return m, (m.var("x"), m.var("y"), m.var("z"))


def test_variables_are_named_by_what_they_stand_for():
    m = ModelBuilder("t")
    q = m.cells("q", board(3, blocked=[(1, 1)]))
    line = m.family("line", [("row", 0), ("col", 2)])
    pair = m.family("r", [((0, 1), (2, 3))], answer=True)
    held = m.family(lambda key: f"line_{key}_held", [4])
    assert m.bool_model.names[:3] == ["q_0_0", "q_0_1", "q_0_2"]
    assert "q_1_1" not in m.bool_model.names and len(q) == 8
    assert q[2, 1] == q[(2, 1)] and q[2, 1].name == "q_2_1"
    assert [v.name for v in line.values()] == ["line_row_0", "line_col_2"]
    assert pair[(0, 1), (2, 3)].name == "r_0_1_2_3" and held[4].name == "line_4_held"
    assert m.bool_model.answer == [*range(8), 10]
    with pytest.raises(KeyError, match="q has no variable for"):
        q[1, 1]


def test_clauses_and_implications_are_literal_tuples_in_the_order_written():
    m, (x, y, z) = three()
    m.add(x | y | ~z, any_of(v for v in (z, x)), x >> y, x >> (y | ~z), ~y)
    assert m.bool_model.clauses == [(1, 2, -3), (3, 1), (-1, 2), (-1, 2, -3), (-2,)]
    assert not m.bool_model.impossible
    m.add(any_of(), why="nothing reaches the corner")
    assert m.bool_model.clauses[-1] == ()
    assert m.bool_model.impossible == "nothing reaches the corner"


def test_compared_sums_are_linear_rows_with_integer_bounds():
    m, (x, y, z) = three()
    m.add(
        sum([x, y, z]) <= 2,
        x + y == 1,
        3 * x - 2 * y >= 1,
        x + y < z,
        total([]) > -1,
        x + ~y <= 1,  # ~y counts 1 - y
        x + y + x * 2 <= z + 4,  # like terms merged, sides moved
    )
    assert m.bool_model.linear == [
        Linear(((1, 0), (1, 1), (1, 2)), None, 2),
        Linear(((1, 0), (1, 1)), 1, 1),
        Linear(((3, 0), (-2, 1)), 1, None),
        Linear(((1, 0), (1, 1), (-1, 2)), None, -1),
        Linear((), 0, None),
        Linear(((1, 0), (-1, 1)), None, 0),
        Linear(((3, 0), (1, 1), (-1, 2)), None, 4),
    ]


def test_one_of_and_the_objective_write_what_boolmodel_writes():
    m, (x, y, z) = three()
    m.add(at_most_one([x]), at_most_one([x, y]), exactly_one([x, y, z]), exactly_one([]))
    m.minimise(x + 2 * z)
    by_hand = BoolModel("t")
    for v in (0, 1, 2):
        by_hand.var("xyz"[v])
    by_hand.at_most_one([0])
    by_hand.at_most_one([0, 1])
    by_hand.exactly_one([0, 1, 2])
    by_hand.exactly_one([])
    by_hand.minimise([(1, 0), (2, 2)])
    assert (m.bool_model.linear, m.bool_model.objective) == (by_hand.linear, by_hand.objective)
    m.maximise(y)
    assert (m.bool_model.objective, m.bool_model.sense) == (((1, 1),), Sense.MAX)
    m.maximise(sum([]))
    assert m.bool_model.objective == ()


def test_lex_leq_is_boolmodels():
    m, (x, y, z) = three()
    m.lex_leq([x, y], [y, z])
    by_hand = BoolModel("t", names=["x", "y", "z"])
    by_hand.lex_leq([0, 1], [1, 2])
    assert (m.bool_model.names, m.bool_model.clauses) == (by_hand.names, by_hand.clauses)


def test_a_long_sum_flattens_without_recursion():
    m = ModelBuilder("t")
    xs = list(m.family("x", range(5000)).values())
    m.add(sum(xs) <= 1)
    assert len(m.bool_model.linear[0].terms) == 5000


def one_line(error: pytest.ExceptionInfo) -> str:
    text = str(error.value)
    assert "\n" not in text
    return text


def test_mixing_two_models_is_refused_in_one_line():
    (a, (x, _, _)), (b, (u, _, _)) = three(), three()
    with pytest.raises(UsageError) as error:
        _ = x + 1 <= u + 1
    assert "two models" in one_line(error)
    with pytest.raises(UsageError):
        a.add(x | u)
    with pytest.raises(UsageError):
        b.add(x + x <= 1)


@pytest.mark.parametrize(
    "make", [lambda x, y: 0.5 * x, lambda x, y: x + y <= 1.5, lambda x, y: x * y]
)
def test_a_non_integer_coefficient_or_product_is_a_type_error(make):
    _, (x, y, _) = three()
    with pytest.raises(TypeError) as error:
        make(x, y)
    one_line(error)


@pytest.mark.parametrize(
    "make",
    [lambda x, y: x + y <= 1, lambda x, y: x | y, lambda x, y: x, lambda x, y: 0 <= x + y <= 1],
)
def test_a_constraint_is_not_a_bool(make):
    _, (x, y, _) = three()
    with pytest.raises(TypeError, match="no truth value") as error:
        if make(x, y):
            pass
    one_line(error)


def test_adding_a_plain_bool_says_why():
    m, (x, _, _) = three()
    with pytest.raises(TypeError, match="total") as error:
        m.add(x == 1)
    one_line(error)
    with pytest.raises(UsageError, match="constant"):
        m.minimise(x + 1)


# -- a kind written by a user (tests/user_kinds.py) ------------------------------------------


def attacks(a: Cell, b: Cell) -> bool:
    """The test's own geometry of the standard board: a shared row, column or diagonal."""
    return a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))


def brute_force(n: int) -> tuple[int, int] | None:
    """The fewest queens of a total dominating set and how many sets have that many."""
    cells = list(product(range(n), repeat=2))
    for size in range(1, len(cells) + 1):
        found = [
            s
            for s in combinations(cells, size)
            if all(any(attacks(q, c) for q in s) for c in cells)
        ]
        if found:
            return size, len(found)
    return None


def _beneath() -> BoolModel:
    """Minimise x + y over x or y, with the units c and d and the (false!) claim that
    c + d is at most the objective: a translator that states the claim finds 2, one that
    leaves it out finds 1. A real kind's sums hold in every answer, so either is right."""
    m, (x, y, c) = three()
    d = m.var("d")
    m.add(x | y, c, d)
    m.minimise(x + y)
    m.at_most_objective(c + d)
    return m.bool_model


def test_a_sum_beneath_the_objective_follows_every_bound_on_it():
    model = _beneath()
    assert model.beneath_objective == [((1, 2), (1, 3))]
    decided = model.with_objective_bound(1)
    assert decided.beneath_objective == [] and decided.objective == ()
    assert Linear(((1, 2), (1, 3)), upper=1) in decided.linear
    assert model.rows_with_links()[-1] == Linear(((1, 2), (1, 3), (-1, 0), (-1, 1)), upper=0)


@pytest.mark.parametrize("name", sorted(TRANSLATORS))
def test_each_translator_states_the_sums_beneath_the_objective_or_leaves_them(name):
    """sat bounds them with every bound of its descent, cpsat and milp state them as rows,
    maxsat leaves them out; a decide bounds them everywhere."""
    module, settings = TRANSLATORS[name]
    outcome = module.optimize(_beneath(), Run(), settings)
    assert (outcome.status, outcome.objective) == (Status.OPTIMAL, 1 if name == "maxsat" else 2)
    decided = module.optimize(_beneath().with_objective_bound(1), Run(), settings)
    assert decided.status is Status.INFEASIBLE


def test_a_sum_beneath_needs_a_minimum_and_no_constant():
    m, (x, y, _) = three()
    with pytest.raises(UsageError, match="minimum stated first"):
        m.at_most_objective(x + y)
    m.maximise(x + y)
    with pytest.raises(UsageError, match="minimum stated first"):
        m.at_most_objective(total([x]))
    m.minimise(x + y)
    with pytest.raises(UsageError, match="no constant term"):
        m.at_most_objective(x + 1)


def test_a_stated_kind_takes_its_sense_and_model_defaults():
    kind = TotalDomination()
    assert kind.sense is Sense.MIN and kind.model_name(None) == "default"
    built = kind.build(board(1), "default")
    assert built.impossible == "no queen can attack (0, 0)"


@pytest.mark.parametrize("name", TRANSLATORS)
def test_a_users_kind_is_solved_by_every_translator_and_checked(name):
    load_solvers()
    module, settings = TRANSLATORS[name]
    kind = TotalDomination()
    for n in (2, 3, 4):
        field = board(n)
        expected, _ = brute_force(n)
        for symmetry in ("none", "lex-leader"):
            built = kind.build(field, "default", symmetry)
            outcome = module.optimize(built, Run(), settings)
            assert outcome.status is Status.OPTIMAL and outcome.objective == expected
            answer = kind.decode(field, built, outcome.values)
            assert kind.check(field, answer) is None and kind.value(answer) == expected
            assert kind.to_json(answer) == sorted(list(cell) for cell in answer)


@pytest.mark.parametrize("name", ENUMERATORS)
def test_a_users_kind_counts_what_brute_force_counts(name):
    load_solvers()
    module, settings = ENUMERATORS[name]
    kind = TotalDomination()
    for n in (3, 4):
        field, (best, count) = board(n), brute_force(n)
        built = kind.build(field, "default")
        fixed = built.with_objective_at(best)
        answers = {kind.decode(field, built, v) for v in module.solutions(fixed, Run(), settings)}
        assert len(answers) == count
        assert all(kind.check(field, a) is None for a in answers)


def test_the_defaults_refuse_what_they_cannot_read():
    class Pairs(TotalDomination):
        def state(self, m: ModelBuilder, board: Board, model: str) -> None:
            white = m.cells("w", board)
            m.cells("b", board)
            m.minimise(total(white.values()))

    with pytest.raises(KindError, match="override break_symmetry"):
        Pairs().build(board(2), "default", "lex-leader")
    built = Pairs().build(board(2), "default")
    with pytest.raises(KindError, match="override decode"):
        Pairs().decode(board(2), built, [False] * built.size)


def test_a_kind_registered_after_the_backends_were_listed_is_accepted(monkeypatch):
    """No backend freezes the kinds it takes at import: a kind registered once the backends
    were loaded and listed is optimised by every backend that takes any kind's model."""
    listed = ql.backends()
    monkeypatch.setattr(
        problems.KIND_REGISTRY, "registered", dict(problems.KIND_REGISTRY.registered)
    )

    class LateTotalDomination(TotalDomination):
        name = "late-total-domination"

    ql.register_kind(LateTotalDomination)
    assert LateTotalDomination.name in ql.kinds()
    takers = [b for b in listed if Task.OPTIMIZE in b.tasks_on(LateTotalDomination.name)]
    assert {"cpsat", "milp", "maxsat", "sat"} <= {b.name for b in takers}
    best, _ = brute_force(3)
    for backend in takers:
        result = ql.optimize(3, problem=LateTotalDomination.name, backend=backend.name)
        assert (result.status, result.objective, len(result.answer)) == (Status.OPTIMAL, best, best)
