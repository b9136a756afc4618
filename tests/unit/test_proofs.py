"""The proof checkers: LRAT steps checked from their hints alone, DRAT lemmas given their
hints; valid proofs pass, tampered ones (a hint removed, a clause changed, a deleted
clause used, no empty clause) are rejected with a line saying which step fails."""

from __future__ import annotations

import io
import random
import re
import shutil
import subprocess
from itertools import combinations

import pytest

from queenslab.core.errors import LimitReached
from queenslab.core.run import never
from queenslab.proofs import drat, lrat
from queenslab.proofs.lrat import ProofError

#: x1 or x2, x1 or -x2, -x1 or x2, -x1 or -x2: unsatisfiable.
SQUARE = [(1, 2), (1, -2), (-1, 2), (-1, -2)]
#: Add x1 (from clauses 1 and 2), then the empty clause (x1 makes 3 and 4 clash).
SQUARE_LRAT = ["5 1 0 1 2 0", "6 0 5 3 4 0"]


def pigeons(holes: int) -> list[tuple[int, ...]]:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable, and hard enough that a solver
    learns clauses (variable p * holes + h + 1: pigeon p in hole h)."""
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [tuple(var(p, h) for h in range(holes)) for p in range(holes + 1)]
    for h in range(holes):
        for p, q in combinations(range(holes + 1), 2):
            clauses.append((-var(p, h), -var(q, h)))
    return clauses


def test_a_valid_lrat_proof_passes():
    assert lrat.check(SQUARE, SQUARE_LRAT) == 2


@pytest.mark.parametrize(
    ("proof", "reason"),
    [
        (["5 1 0 1 0", "6 0 5 3 4 0"], "step 5: its hints end without a conflict"),
        (["5 1 0 1 2 0", "6 0 5 3 0"], "step 6: its hints end without a conflict"),
        (["5 -1 0 1 2 0", "6 0 5 3 4 0"], "step 5: hint 1 is not unit"),
        (["5 1 0 1 2 0", "5 d 1 0", "6 0 5 1 4 0"], "hints clause 1, which is deleted"),
        (["5 1 0 1 2 0"], "does not derive the empty clause"),
        (["4 1 0 1 2 0", "6 0 5 3 4 0"], "step 4 reuses a number"),
        (["5 1 0 -1 2 0", "6 0 5 3 4 0"], "RAT hint"),
        (["5 1 0 1 2"], "LRAT line 1 is malformed"),
    ],
)
def test_a_tampered_lrat_proof_is_rejected(proof, reason):
    with pytest.raises(ProofError, match=reason):
        lrat.check(SQUARE, proof)


def test_a_formula_with_the_empty_clause_needs_no_steps():
    assert lrat.check([(1,), ()], []) == 0


def test_the_cnf_reader_takes_comments_and_clauses_across_lines():
    text = "c a comment\np cnf 2 3\n1 2 0 -1\n 2 0\n-2 0\n"
    assert lrat.read_cnf(io.StringIO(text)) == [(1, 2), (-1, 2), (-2,)]
    with pytest.raises(ProofError, match="not ended by 0"):
        lrat.read_cnf(["1 2"])


def test_drat_lemmas_get_hints_that_the_lrat_checker_accepts():
    out = io.StringIO()
    assert drat.to_lrat(SQUARE, ["1 0", "0"], out) == 2  # x1, then the empty clause
    lines = out.getvalue().splitlines()
    assert [line.split()[:3] for line in lines] == [["5", "1", "0"], ["7", "0", "5"]]
    assert lrat.check(SQUARE, lines) == 2


def test_unused_lemmas_are_left_out_of_the_lrat():
    """Backward checking (DRAT-trim's) checks and keeps only the lemmas that the final
    conflict needs, then those that their hints need, and so on: here only x1."""
    unused = [f"{v} {-v} 0" for v in range(3, 50)] + ["1 2 7 0", "d 1 2 7 0", "-1 2 5 0"]
    out = io.StringIO()
    assert drat.to_lrat(SQUARE, [*unused, "1 0"], out) == 2
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{len(SQUARE) + 47 + 3} 1 0 ")
    assert lines[1].split()[1] == "0"  # the empty clause
    assert lrat.check(SQUARE, lines) == 2


#: x3 is false in every model: the lemma x3 is wrong, and with it the formula is refuted.
NOT_X3 = [(-3, 1), (-3, -1)]


def test_a_wrong_lemma_matters_only_when_it_is_used():
    """DRAT-trim semantics: a lemma that the refutation never uses is not checked, so a
    wrong one (x4, which propagation does not imply, before SQUARE's refutation) does
    not make the proof fail; a wrong lemma that the refutation needs is rejected."""
    out = io.StringIO()
    assert drat.to_lrat(SQUARE, ["4 0", "1 0", "0"], out) == 2
    assert lrat.check(SQUARE, out.getvalue().splitlines()) == 2
    with pytest.raises(ProofError, match=r"DRAT step 1 \(3 0\) is not implied"):
        drat.to_lrat(NOT_X3, ["3 0", "0"], io.StringIO())


def test_a_drat_lemma_that_propagation_does_not_refute_is_rejected():
    with pytest.raises(ProofError, match=r"DRAT step 3 \(0\) is not implied"):
        drat.to_lrat(SQUARE[:3], ["d 1 2 0", "-1 0", "0"], io.StringIO())
    with pytest.raises(ProofError, match="ends without refuting"):
        drat.to_lrat(pigeons(3), ["d 1 2 3 0"], io.StringIO())


def test_a_deleted_clause_is_not_used():
    with pytest.raises(ProofError, match=r"DRAT step 2 \(1 0\) is not implied"):
        drat.to_lrat(SQUARE, ["d 1 2 0", "1 0", "0"], io.StringIO())


@pytest.mark.skipif(shutil.which("cadical") is None, reason="needs the cadical program")
def test_a_cadical_proof_checks_and_a_changed_lemma_is_rejected(tmp_path):
    formula = pigeons(5)
    cnf, proof = tmp_path / "php.cnf", tmp_path / "php.drat"
    cnf.write_text(
        f"p cnf 30 {len(formula)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in formula)
    )
    done = subprocess.run(["cadical", "-q", "--no-binary", str(cnf), str(proof)], timeout=120)
    assert done.returncode == 20
    lines = proof.read_text().splitlines()
    out = io.StringIO()
    drat.to_lrat(lrat.read_cnf(cnf.read_text().splitlines()), lines, out)
    steps = out.getvalue().splitlines()
    assert lrat.check(formula, steps) >= 1
    first = next(i for i, line in enumerate(steps) if " d " not in line)
    words = steps[first].split()
    zero = words.index("0", 1)
    dropped = " ".join(words[: zero + 1] + words[zero + 2 :])  # its first hint removed
    with pytest.raises(ProofError, match=f"step {words[0]}"):
        lrat.check(formula, [*steps[:first], dropped, *steps[first + 1 :]])
    changed = " ".join([words[0], str(-int(words[1])), *words[2:]])  # a literal negated
    with pytest.raises(ProofError, match=f"step {words[0]}"):
        lrat.check(formula, [*steps[:first], changed, *steps[first + 1 :]])


def test_a_stop_request_ends_the_drat_pass():
    with pytest.raises(LimitReached):
        drat.to_lrat(SQUARE, ["1 0", "0"], io.StringIO(), should_stop=lambda: True)


def test_deleting_the_reason_of_a_fixed_literal_is_ignored():
    """As DRAT-trim does for unit clauses: x1 stays fixed by clause 1 after "d 1 0", the
    lemma x2 needs it, and the LRAT does not delete it."""
    formula = [(1,), (-1, 2, 3), (-1, 2, -3), (-2, 4), (-2, -4)]
    out = io.StringIO()
    assert drat.to_lrat(formula, ["d 1 0", "2 0", "0"], out) == 2
    lines = out.getvalue().splitlines()
    assert not any(" d " in line for line in lines)
    assert lrat.check(formula, lines) == 2


def test_a_lemma_literal_false_at_the_top_level_is_not_hinted_by_its_reason():
    """The lemma (x1 x2) has x1 false at the top level (clause 1); its check assumes -x1
    and -x2, so clause 1 is satisfied there and may not be a hint: the LRAT checker
    rejected the hints of a 13 x 13 domination cube's proof for it."""
    formula = [(-1,), (1, 2, 3), (1, 2, -3), (1, -2, 4), (1, -2, -4)]
    out = io.StringIO()
    drat.to_lrat(formula, ["1 2 0", "0"], out)
    lines = out.getvalue().splitlines()
    step, *clause, zero = lines[0].split()[:4]
    assert (step, sorted(clause), zero) == ("6", ["1", "2"], "0"), lines
    assert "1" not in lines[0].split()[4:]  # clause 1 is not among its hints
    assert lrat.check(formula, lines) == 2


def test_the_drat_reader_matches_deletions_to_the_latest_alive_clause_with_those_literals(
    monkeypatch,
):
    """Deletions name clauses by their literals in any order, repeats and all; the latest
    alive clause of the same literals goes, an absent one is a step 0. Thousands of
    clauses read in small batches regrow the reader's arrays and rebuild its hash table
    (deletions replayed) on the way."""
    monkeypatch.setattr(drat, "_BATCH", 97)
    rng = random.Random(7)
    formula = [tuple(rng.sample(range(-30, 31), 3)) for _ in range(50)]
    formula = [c for c in formula if 0 not in c]
    lines, expected, alive = [], [], {}
    for cid, clause in enumerate(formula, 1):
        alive.setdefault(frozenset(clause), []).append(cid)
        expected.append(cid)
    cid = len(formula)
    for _ in range(6000):
        if alive and rng.random() < 0.4:
            key = rng.choice(sorted(alive, key=sorted))
            named = [*key, *rng.sample(sorted(key), 1)]  # one literal named twice
            rng.shuffle(named)
            lines.append("d " + " ".join(map(str, named)) + " 0")
            ids = alive[key]
            expected.append(-ids.pop())
            if not ids:
                del alive[key]
        elif rng.random() < 0.05:
            lines.append("c a comment\n")
            lines.append("d 99 0\n")  # never added
            expected.append(0)
        else:
            clause = tuple(rng.sample([v * rng.choice((1, -1)) for v in range(1, 9)], 2))
            cid += 1
            lines.append(" ".join(map(str, clause)) + " 0\n")
            alive.setdefault(frozenset(clause), []).append(cid)
            expected.append(cid)
    read = drat._read(formula, lines, never)
    assert read.steps.tolist() == expected
    assert (read.formula, read.variables, len(read.flags)) == (len(formula), 30, cid + 1)


@pytest.mark.parametrize(
    ("line", "reason"),
    [("1 2", "DRAT line 2 is not one clause ended by 0: '1 2'"),
     ("1 0 2 0", "DRAT line 2 is not one clause ended by 0: '1 0 2 0'"),
     ("1 x 0", "DRAT line 2 is malformed: '1 x 0'"),
     ("d -", "DRAT line 2 is malformed: 'd -'")],
)  # fmt: skip
def test_a_malformed_drat_line_is_named(line, reason):
    with pytest.raises(ProofError, match=re.escape(reason)):
        drat.to_lrat(SQUARE, ["1 0\n", line, "0"], io.StringIO())


def test_lrat_ids_may_jump_and_lemmas_may_name_new_variables(monkeypatch):
    """The checker keeps clauses by id and literals by variable in arrays it grows: ids
    far apart, a variable the formula lacks, a repeated literal, comments, and a proof
    read a line per batch all check; past the empty clause nothing is read."""
    monkeypatch.setattr(lrat, "_BATCH", 1)
    proof = ["c jumps", "1000 1 7 7 0 1 2 0", "5000000 1 0 1 2 0", "5000001 d 1000 0",
             "5000002 0 5000000 3 4 0", "not read"]  # fmt: skip
    assert lrat.check(SQUARE, proof) == 3
    with pytest.raises(ProofError, match=r"LRAT line 3 is malformed: '5000000 1 0 1 2'"):
        lrat.check(SQUARE, [*proof[:2], "5000000 1 0 1 2", *proof[3:]])
    with pytest.raises(ProofError, match="clause id 268435457 is beyond"):
        lrat.check(SQUARE, [f"{(1 << 28) + 1} 1 0 1 2 0"])
