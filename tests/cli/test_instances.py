"""Instance files and the paper's generators: reproducible, as defined, read by every command."""

from __future__ import annotations

import json

import pytest

from queenslab import cli
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.io.instance import Instance, read, write
from queenslab.lab.generators import GENERATORS, generate
from tests import oracle


def test_instance_round_trips_through_its_file(tmp_path):
    problem = Problem(9, givens=((0, 1), (4, 7)), variant="toroidal", blocked=((2, 2), (8, 0)))
    instance = Instance(problem, {"generator": "hand", "note": "n²"})
    path = str(tmp_path / "one.json")
    write(instance, path)
    assert read(path) == instance
    assert Instance.from_json(json.loads(instance.dumps())) == instance


#: What every instance file starts with.
HEAD = '{"format": "queenslab-instance", "version": 1, '


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1", "not an instance file"),
        ("[]", "JSON object"),
        (HEAD + '"n": "8"}', "'n' must be"),
        (HEAD + '"n": 8, "blocked": [[0]]}', "pairs"),
        (HEAD + '"n": 8, "blocked": [[0, true]]}', "pairs"),
        (HEAD + '"n": 8, "givens": [[0, 0], [1, 1]]}', "attack each other"),
        (HEAD + '"n": 8, "blocked": [[0, 9]]}', "off the 8x8 board"),
        ('{"format": "other", "version": 1, "n": 8}', "not a queenslab-instance"),
        (HEAD + '"n": 8, "variant": "hex"}', "unknown variant"),
        # issue 29: the last "n" won; a file without format and version was read
        (HEAD + '"n": 8, "n": 9}', "the key 'n' appears twice"),
        (HEAD + '"n": 8, "provenance": {"seed": 1, "seed": 2}}', "the key 'seed' appears twice"),
        ('{"n": 8}', '"format": "queenslab-instance" and "version": 1'),
        ('{"format": "queenslab-instance", "n": 8}', "not a queenslab-instance"),
        ('{"format": "queenslab-instance", "version": true, "n": 8}', "not a queenslab-instance"),
    ],
)
def test_a_bad_instance_file_is_one_usage_error(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(UsageError, match=message):
        read(str(path))


@pytest.mark.parametrize("kind", GENERATORS)
def test_the_same_seed_draws_the_same_instance(kind):
    density = 0.4 if kind != "excluded-diagonals" else 1.0
    for seed in range(10):
        first = generate(kind, 12, density, seed)
        assert generate(kind, 12, density, seed) == first
    assert len({generate(kind, 12, density, seed).problem for seed in range(10)}) > 5


def _open_per_line(problem):
    n, blocked = problem.n, set(problem.blocked)
    rows = [sum((r, c) not in blocked for c in range(n)) for r in range(n)]
    cols = [sum((r, c) not in blocked for r in range(n)) for c in range(n)]
    return rows + cols


@pytest.mark.parametrize("seed", range(20))
def test_blocked_cells_as_the_paper_draws_them(seed):
    problem = generate("blocked", 10, 0.45, seed, min_open=3).problem
    assert len(problem.blocked) == 45 and not problem.givens
    assert min(_open_per_line(problem)) >= 3


@pytest.mark.parametrize("seed", range(20))
def test_excluded_diagonals_block_whole_diagonals(seed):
    instance = generate("excluded-diagonals", 10, 1.2, seed, min_open=4)
    problem, diagonals = instance.problem, instance.provenance["diagonals"]
    assert len(diagonals) == 12 and min(_open_per_line(problem)) >= 4
    # r + c = k on the up diagonals, r - c + n - 1 = k on the down ones (CSPLib's numbering)
    on = {"diag_up": lambda r, c: r + c, "diag_down": lambda r, c: r - c + 9}
    expected = {
        (r, c) for r in range(10) for c in range(10) for f, k in diagonals if on[f](r, c) == k
    }
    assert set(problem.blocked) == expected
    # a prefix of the same draw: fewer diagonals is the start of the same list
    shorter = generate("excluded-diagonals", 10, 0.5, seed, min_open=4)
    assert shorter.provenance["diagonals"] == diagonals[:5]


def test_excluded_diagonals_match_the_example_csplib_079_prints():
    """``queens-diag-gen.py 10 4 1`` as CSPLib 079's generator notes show it (Gent, 2017):
    [diagonal, 1 = sum / 0 = difference], in the order drawn. Validates the draw itself."""
    published = [[4, 1], [2, 1], [14, 0], [8, 1], [8, 0], [7, 0], [3, 1], [12, 1], [18, 0],
                 [5, 0], [14, 1], [0, 0], [15, 1], [17, 1]]  # fmt: skip
    drawn = generate("excluded-diagonals", 10, 1.4, 1, min_open=4).provenance["diagonals"]
    assert [[key, int(family == "diag_up")] for family, key in drawn] == published


@pytest.mark.parametrize("seed", range(20))
def test_completion_gives_non_attacking_queens(seed):
    problem = generate("completion", 12, 0.5, seed).problem
    givens = problem.givens
    assert len(givens) == 6 and not problem.blocked
    assert not any(oracle.attack(12, "standard", a, b) for a in givens for b in givens if a < b)


def test_impossible_densities_are_usage_errors():
    with pytest.raises(UsageError, match="keeping 4 open"):
        generate("blocked", 8, 0.6, 0)
    with pytest.raises(UsageError, match="queens"):
        generate("completion", 8, 1.5, 0)
    with pytest.raises(UsageError, match="diagonals"):
        generate("excluded-diagonals", 8, 3.5, 0)


#: Complete backends that must agree on every instance (the oracle decides who is right).
COMPLETE = ("cpsat", "sat", "milp", "backtrack", "bitmask")
DENSITY = {"completion": 0.375, "blocked": 0.35, "excluded-diagonals": 0.75}


@pytest.mark.parametrize("kind", GENERATORS)
def test_solve_instance_agrees_across_complete_backends_over_many_seeds(kind, tmp_path, capsys):
    """``queens solve --instance FILE`` (in-process: the real CLI, without start-up per call)."""
    verdicts = set()
    for seed in range(6):  # each kind's seeds give both answers
        instance = generate(kind, 8, DENSITY[kind], seed, min_open=2)
        path = str(tmp_path / f"{seed}.json")
        write(instance, path)
        problem = instance.problem
        feasible = bool(oracle.all_solutions(8, problem.givens, blocked=problem.blocked))
        verdicts.add(feasible)
        for backend in COMPLETE:
            code = cli.main(["solve", "--instance", path, "-b", backend, "--format", "json"])
            record = json.loads(capsys.readouterr().out)
            expected = ("solved", 0) if feasible else ("infeasible", 1)
            assert (record["status"], code) == expected, (kind, seed, backend)
            if feasible:  # the api checks the board too; here the oracle does
                cols = record["cols"]
                assert oracle.is_solution(cols, 8, blocked=problem.blocked)
                assert all(cols[r] == c for r, c in problem.givens)
    assert verdicts == {True, False}  # the seeds cover both answers


def test_generate_writes_the_same_files_for_the_same_seed(queens, tmp_path):
    argv = ["generate", "--kind", "blocked", "--n", "10", "--density", "0.4", "--count", "3"]
    first = queens(*argv, "--seed", "5", "--output", str(tmp_path / "a"))
    again = queens(*argv, "--seed", "5", "--output", str(tmp_path / "b"))
    assert first.returncode == again.returncode == 0, first.stderr
    names = [line.rsplit("/", 1)[1] for line in first.stdout.splitlines()]
    assert names == [f"blocked-n10-d0.4-s{seed}.json" for seed in (5, 6, 7)]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_generate_bounds_its_count(queens, tmp_path):
    argv = ["generate", "--kind", "blocked", "--n", "8", "--density", "0.1", "--count"]
    run = queens(*argv, "100001", "--output", str(tmp_path))
    assert run.returncode == 2 and "--count must be between 1 and 100000" in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_commands_read_an_instance_and_agree_with_the_same_board_given_by_hand(queens, tmp_path):
    path = tmp_path / "i.json"
    made = queens("generate", "--kind", "blocked", "--n", "8", "--density", "0.25", "--seed", "3")
    path.write_text(made.stdout)
    problem = read(str(path)).problem
    by_hand = [f"--blocked={r}:{c}" for r, c in problem.blocked]
    counted = queens("count", "--instance", str(path), "-b", "backtrack")
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout == queens("count", "8", *by_hand, "-b", "backtrack").stdout
    expected = len(oracle.all_solutions(8, blocked=problem.blocked))
    assert int(counted.stdout) == expected
    listed = queens("enumerate", "--instance", str(path), "--format", "jsonl")
    assert len(listed.stdout.splitlines()) == expected
    solved = queens("solve", "8", "--instance", str(path), "--format", "json", "-b", "sat")
    cols = json.loads(solved.stdout)["cols"]
    assert solved.returncode == 0 and oracle.is_solution(cols, 8, blocked=problem.blocked)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", "9", "--instance", "{path}"], "N is 9 but"),
        (["count", "--instance", "{path}", "--variant", "toroidal"], "--variant toroidal"),
        (["count"], "give the board size N"),
    ],
)
def test_n_and_instance_must_agree(queens, tmp_path, argv, message):
    path = tmp_path / "i.json"
    path.write_text(HEAD + '"n": 8}')
    run = queens(*(arg.format(path=path) for arg in argv))
    assert run.returncode == 2 and message in run.stderr and run.stderr.count("\n") == 1
