"""An LRAT proof checker: pure Python, one pass, each step checked by its own hints.

LRAT (Cruz-Filipe, Heule, Hunt, Kaufmann and Schneider-Kamp 2017) numbers the formula's
clauses 1..m in file order; each step adds a clause under a new, larger number with the
hints that justify it (RUP with hints), or deletes clauses by number:

    id lit ... 0 hint ... 0        add the clause ``lit ...``
    id d id ... 0                  delete these clauses (they may not be hinted again)

A clause is accepted when, starting from its literals all false, each hint in turn is a
clause with exactly one literal not yet false (that literal becomes true) until a hint
has none left: a conflict. No search and no unit propagation over the whole formula: the
work is the total length of the hinted clauses, linear in the proof's size. A proof is
valid when every step is and one of them (or the formula) is the empty clause. RAT steps
(negative hints) are refused: the solvers used here write none.

Why a checker of our own: a solver's "unsatisfiable" is a claim; a proof checked by a
program that shares no code with the solver is evidence (the "proof" of ``queens decide``
says ``checked`` only after this function returned).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from queenslab.core.errors import LimitReached
from queenslab.core.run import never

Clause = tuple[int, ...]
#: Steps checked between two looks at ``should_stop``.
_CHECK_EVERY = 4096


class ProofError(Exception):
    """The proof is rejected; the message says which step fails and why, in one line."""


def read_cnf(lines: Iterable[str]) -> list[Clause]:
    """The clauses of a DIMACS CNF (comments and the ``p`` line skipped; a clause may span
    lines). ProofError on a word that is not a number."""
    clauses: list[Clause] = []
    current: list[int] = []
    for number, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0] in ("c", "p") or line.startswith(("c", "%")):
            continue
        try:
            literals = [int(word) for word in words]
        except ValueError:
            raise ProofError(f"CNF line {number} is not a clause: {line.strip()[:40]!r}") from None
        for lit in literals:
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            else:
                current.append(lit)
    if current:
        raise ProofError("the CNF's last clause is not ended by 0")
    return clauses


def steps(lines: Iterable[str]) -> Iterator[tuple[int, Clause | None, tuple[int, ...]]]:
    """The steps of a text LRAT proof: (id, clause, hints) of an addition, (id, None,
    deleted ids) of a deletion. ProofError on a malformed line."""
    for number, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        try:
            if words[1] == "d":
                numbers = [int(w) for w in words[2:]]
                if numbers[-1:] != [0]:
                    raise ValueError
                yield int(words[0]), None, tuple(numbers[:-1])
                continue
            numbers = [int(w) for w in words]
            zero = numbers.index(0, 1)
            if numbers[-1] != 0 or len(numbers) == zero + 1:
                raise ValueError
            yield numbers[0], tuple(numbers[1:zero]), tuple(numbers[zero + 1 : -1])
        except (ValueError, IndexError):
            raise ProofError(f"LRAT line {number} is malformed: {line.strip()[:60]!r}") from None


def check(
    formula: Sequence[Clause],
    proof: Iterable[str],
    should_stop: Callable[[], bool] = never,
) -> int:
    """Check the text LRAT ``proof`` of the formula's unsatisfiability; the number of
    clauses it added. ProofError (one line) when a step fails or no empty clause comes;
    LimitReached when ``should_stop`` says stop first."""
    clauses: dict[int, frozenset[int]] = {
        i: frozenset(clause) for i, clause in enumerate(formula, 1)
    }
    refuted = any(not clause for clause in formula)
    last = len(formula)
    added = 0
    for count, (step, clause, hints) in enumerate(steps(proof)):
        if count % _CHECK_EVERY == 0 and should_stop():
            raise LimitReached
        if refuted:
            break
        if clause is None:
            for gone in hints:
                if clauses.pop(gone, None) is None:
                    raise ProofError(f"step {step} deletes clause {gone}, which is not there")
            continue
        if step <= last:
            raise ProofError(f"step {step} reuses a number: ids must grow (last {last})")
        _implied(step, clause, hints, clauses)
        clauses[step] = frozenset(clause)
        last, added = step, added + 1
        refuted = not clause
    if not refuted:
        raise ProofError("the proof does not derive the empty clause")
    return added


def _implied(
    step: int, clause: Clause, hints: Sequence[int], clauses: dict[int, frozenset[int]]
) -> None:
    """Unit propagation over the hints alone must reach a conflict."""
    true = {-lit for lit in clause}
    if any(-lit in true for lit in true):
        return  # a tautology needs no hints
    for hint in hints:
        if hint < 0:
            raise ProofError(f"step {step} has a RAT hint {hint}: only RUP steps are checked")
        members = clauses.get(hint)
        if members is None:
            raise ProofError(f"step {step} hints clause {hint}, which is deleted or unknown")
        unit = None
        for lit in members:
            if -lit in true:
                continue
            if lit in true or unit is not None:
                raise ProofError(f"step {step}: hint {hint} is not unit where it is used")
            unit = lit
        if unit is None:
            return  # a conflict: the clause is implied
        true.add(unit)
    raise ProofError(f"step {step}: its hints end without a conflict")
