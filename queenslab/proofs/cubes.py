"""A split proof (cube and conquer) checked whole: the cubes cover every case, and each
cube's refutation is a refutation of the formula under that cube.

The folder of ``queens decide --split D --proof DIR`` holds the formula (``formula.cnf``),
the cubes (``cubes.txt``, one ``a lit ... 0`` line each, as the cube files of Heule,
Kullmann, Wieringa and Biere's cube and conquer write them; line K is ``cube-K``) and
one folder per cube with its own ``formula.cnf`` and proof. The formula is unsatisfiable
when

1. every assignment satisfies some cube (``uncovered`` finds none left out), and
2. each cube's formula is the formula plus the cube's literals as unit clauses, no more
   and no fewer (``check_member``), and its proof refutes that formula.

Nothing here trusts the run that wrote the folder: ``queens check-proof DIR/formula.cnf
DIR/cubes.txt`` checks the three parts again from the files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from queenslab.proofs.lrat import Clause, ProofError, read_cnf

MANIFEST = "cubes.txt"


def write(out: TextIO, cubes: Iterable[Sequence[int]]) -> None:
    """The cubes in order, one ``a lit ... 0`` line each."""
    for cube in cubes:
        out.write(" ".join(["a", *map(str, cube), "0"]) + "\n")


def read(lines: Iterable[str]) -> list[Clause]:
    """The cubes of a cube file, in order; ProofError on a line that is not one."""
    found: list[Clause] = []
    for number, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        try:
            literals = [int(w) for w in words[1:]]
        except ValueError:
            literals = []
        if words[0] != "a" or literals[-1:] != [0] or 0 in literals[:-1]:
            raise ProofError(f"cube line {number} is not 'a lit ... 0': {line.strip()[:60]!r}")
        found.append(tuple(literals[:-1]))
    return found


def uncovered(cubes: Sequence[Sequence[int]]) -> tuple[int, ...] | None:
    """An assignment (its literals, by variable) that satisfies none of the cubes, or None
    when every assignment satisfies one: each branch on a cube's variable keeps the cubes
    that agree with it, without that literal, until a cube is empty (covered) or none is
    left."""
    pending: list[tuple[tuple[int, ...], list[frozenset[int]]]] = [
        ((), [frozenset(cube) for cube in cubes])
    ]
    while pending:
        path, left = pending.pop()
        if not left:
            return tuple(sorted(path, key=abs))
        if any(not cube for cube in left):
            continue
        variable = abs(next(iter(left[0])))
        for lit in (variable, -variable):
            agreeing = [cube - {lit} for cube in left if -lit not in cube]
            pending.append(((*path, lit), agreeing))
    return None


def check_member(formula: Sequence[Clause], member: Sequence[Clause], cube: Clause) -> None:
    """ProofError unless ``member`` is ``formula`` plus one unit clause per literal of
    ``cube`` (the clauses counted as sets, in any order)."""
    expected = Counter(frozenset(clause) for clause in formula)
    expected.update(frozenset((lit,)) for lit in cube)
    found = Counter(frozenset(clause) for clause in member)
    if found != expected:
        extra = next(iter(found - expected), None)
        missing = next(iter(expected - found), None)
        what = (
            f"has a clause the formula and cube lack: {sorted(extra)}"
            if extra is not None
            else f"lacks the clause {sorted(missing or ())}"
        )
        raise ProofError(f"the cube's formula is not the formula plus the cube: it {what}")


def members(formula: Sequence[Clause], manifest: Path) -> Iterator[tuple[int, list[Clause], Path]]:
    """The cubes of the split proof of ``formula`` whose cube file is ``manifest``, checked
    to cover every case: (number, the clauses of its formula, its folder) each, the
    clauses checked to be ``formula`` under that cube. ProofError when the cubes leave a
    case out or a cube's formula is another."""
    with open(manifest, encoding="ascii") as text:
        cubes = read(text)
    missing = uncovered(cubes)
    if missing is not None:
        raise ProofError(f"the cubes leave out the case {' '.join(map(str, missing)) or 'all'}")
    for number, cube in enumerate(cubes):
        folder = manifest.parent / f"cube-{number}"
        with open(folder / "formula.cnf", encoding="ascii") as text:
            member = read_cnf(text)
        try:
            check_member(formula, member, cube)
        except ProofError as exc:
            raise ProofError(f"cube {number}: {exc}") from None
        yield number, member, folder


def check(
    formula: Sequence[Clause],
    manifest: Path,
    refuted: Callable[[Sequence[Clause], Path], int],
) -> tuple[int, int]:
    """Check the split proof of ``formula`` whose cube file is ``manifest``: ``members``,
    and ``refuted(clauses, folder)`` (the number of clauses its proof adds; ProofError
    when it fails) accepting each cube's proof. The number of cubes and the clauses added
    in all; ProofError naming the cube that fails."""
    count = added = 0
    for number, member, folder in members(formula, manifest):
        try:
            added += refuted(member, folder)
        except ProofError as exc:
            raise ProofError(f"cube {number}: {exc}") from None
        count += 1
    return count, added
