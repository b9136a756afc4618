"""A split proof checked whole (``proofs.cubes``): cubes that cover every case pass and a
left-out case is named; a cube's formula must be the formula plus that cube's units; a
cube's refutation that fails names the cube."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest

from queenslab.proofs import cubes
from queenslab.proofs.lrat import ProofError

#: x1 or x2, x1 or -x2, -x1 or x2, -x1 or -x2: unsatisfiable.
SQUARE = [(1, 2), (1, -2), (-1, 2), (-1, -2)]


def every(variables: list[int]) -> list[tuple[int, ...]]:
    """The 2^k cubes over ``variables``, as ``decide --split`` numbers them."""
    signs = itertools.product((1, -1), repeat=len(variables))
    return [tuple(s * v for s, v in zip(chosen, variables, strict=True)) for chosen in signs]


def test_cubes_over_the_same_variables_cover_every_case_and_a_missing_one_is_named():
    full = every([3, 5, 7])
    assert cubes.uncovered(full) is None
    for left_out in range(len(full)):
        missing = cubes.uncovered(full[:left_out] + full[left_out + 1 :])
        assert missing is not None and set(missing) == set(full[left_out])
    assert cubes.uncovered([]) == ()


def test_cubes_of_different_depths_cover_when_they_tile_the_cases():
    assert cubes.uncovered([(1,), (-1, 2), (-1, -2, 4), (-1, -2, -4)]) is None
    assert cubes.uncovered([(1, 2), (-2,), (-1,)]) is None  # overlapping is fine
    missing = cubes.uncovered([(1,), (-1, 2), (-1, -2, 4)])
    assert missing is not None and set(missing) == {-1, -2, -4}
    assert cubes.uncovered([(1, -1), (-1,)]) == (1,)  # a contradictory cube covers nothing


def test_the_cube_file_reads_back_what_was_written_and_refuses_other_lines():
    out = io.StringIO()
    cubes.write(out, every([2, 9]))
    assert out.getvalue().splitlines()[:2] == ["a 2 9 0", "a 2 -9 0"]
    assert cubes.read(io.StringIO("c a comment\n" + out.getvalue())) == every([2, 9])
    for bad in ("2 9 0", "a 2 9", "a 2 0 9 0", "a x 0"):
        with pytest.raises(ProofError, match="cube line 1"):
            cubes.read([bad])


def test_a_cube_formula_is_the_formula_plus_its_units_and_nothing_else():
    cubes.check_member(SQUARE, [(3,), *reversed(SQUARE), (-4,)], (3, -4))
    with pytest.raises(ProofError, match=r"lacks the clause \[-4\]"):
        cubes.check_member(SQUARE, [*SQUARE, (3,)], (3, -4))
    with pytest.raises(ProofError, match=r"lacks the clause \[-2, -1\]"):
        cubes.check_member(SQUARE, [*SQUARE[:3], (3,), (-4,)], (3, -4))
    with pytest.raises(ProofError, match=r"a clause the formula and cube lack: \[5\]"):
        cubes.check_member(SQUARE, [*SQUARE, (3,), (-4,), (5,)], (3, -4))


def split(folder: Path, formula: list[tuple[int, ...]], units: list[tuple[int, ...]]) -> Path:
    """A split proof's folder without proofs: the cube file and each cube's formula."""
    with open(folder / cubes.MANIFEST, "w") as out:
        cubes.write(out, units)
    for number, cube in enumerate(units):
        (folder / f"cube-{number}").mkdir()
        member = [*formula, *((lit,) for lit in cube)]
        text = "".join(" ".join(map(str, [*c, 0])) + "\n" for c in member)
        (folder / f"cube-{number}" / "formula.cnf").write_text(text)
    return folder / cubes.MANIFEST


def test_check_asks_each_cube_for_its_refutation_and_names_the_one_that_fails(tmp_path):
    manifest = split(tmp_path, SQUARE, every([3]))
    asked: list[str] = []

    def refuted(member, folder):
        asked.append(folder.name)
        return len(member)

    assert cubes.check(SQUARE, manifest, refuted) == (2, 10)
    assert asked == ["cube-0", "cube-1"]

    def fails_second(member, folder):
        if folder.name == "cube-1":
            raise ProofError("step 7: its hints end without a conflict")
        return 1

    with pytest.raises(ProofError, match="cube 1: step 7"):
        cubes.check(SQUARE, manifest, fails_second)
    with pytest.raises(ProofError, match="cube 0: the cube's formula is not the formula"):
        cubes.check([*SQUARE, (6,)], manifest, refuted)


def test_check_refuses_cubes_that_leave_a_case_out_before_any_proof(tmp_path):
    manifest = split(tmp_path, SQUARE, every([3, 4])[:3])
    with pytest.raises(ProofError, match="leave out the case -3 -4"):
        cubes.check(SQUARE, manifest, lambda member, folder: pytest.fail("no proof is asked"))
