"""A ``BoolModel`` as CNF: its clauses, its linear constraints by cardinality encodings,
and its objective as weighted literals (for the ``sat`` and ``maxsat`` translators).

Variables keep their numbers (variable v is DIMACS variable v + 1); the encodings'
auxiliary variables come after them. A linear constraint whose coefficients are all +1
or -1 is a cardinality constraint once each -1 moves onto the negated literal:
``-x = (1 - x) - 1 = not x - 1``, so ``sum(a x)`` in [lo, hi] becomes ``sum(literals)`` in
[lo + m, hi + m] with m the number of -1 coefficients. Any other linear constraint has
no cardinality encoding here and is a one-line UsageError naming the backends that take it.

pysat's ``pairwise``, ``ladder`` and ``bitwise`` encodings only bound a sum by 1; a larger
bound is encoded by a ``totalizer`` instead (counted in ``encoding_fallbacks``): on
peaceable armies' equal-armies constraint it proves n = 8 in 3.2 s where a sequential
counter takes 8.6 s (sat backend, lex-leader, this 2-core machine under load).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.model import BoolModel, Linear, Sense
from queenslab.core.run import never
from queenslab.models.cnf import check_encoding

#: The backends whose translators take any linear constraint and objective (``maxsat``
#: also takes any objective: its weights are the soft clauses' weights).
GENERAL_LINEAR = ("cpsat", "milp")
#: The encoding of bounds above 1 where the chosen one only bounds by 1.
FALLBACK_ENCODING = "totalizer"
#: Constraints encoded between two looks at ``should_stop``; one with more terms than
#: ``_LONG`` is looked at alone.
_CHECK_EVERY = 256
_LONG = 64

Clause = tuple[int, ...]


@dataclass
class Cnf:
    """Clauses over variables 1..top; the first ``model.size`` are the model's."""

    clauses: list[Clause]
    top: int
    #: How many constraints needed the fallback encoding.
    fallbacks: int = 0

    def stats(self, model: BoolModel) -> dict[str, int]:
        return {
            "variables": self.top,
            "constraints": len(self.clauses),
            "auxiliary_variables": self.top - model.size,
            **({"encoding_fallbacks": self.fallbacks} if self.fallbacks else {}),
        }


def literals(constraint: Linear) -> tuple[list[int], int]:
    """The literals of a cardinality constraint and how far its bounds shift (m above)."""
    if not constraint.is_cardinality:
        raise _not_cardinality("a linear constraint", constraint.terms, GENERAL_LINEAR)
    lits = [v + 1 if a > 0 else -(v + 1) for a, v in constraint.terms]
    return lits, sum(1 for a, _ in constraint.terms if a < 0)


def encode(model: BoolModel, encoding: str, should_stop: Callable[[], bool] = never) -> Cnf:
    """The model's clauses and its linear constraints, encoded; the objective is left out.

    LimitReached when ``should_stop`` says stop before the encoding is done.
    """
    from pysat.formula import IDPool

    check_encoding(encoding)
    for constraint in model.linear:  # refuse before any work
        literals(constraint)
    pool = IDPool(start_from=model.size + 1)
    cnf = Cnf(list(model.clauses), model.size)
    for i, constraint in enumerate(model.linear):
        long = len(constraint.terms) > _LONG  # a line of a big board: n²/2 pairwise clauses
        if (long or i % _CHECK_EVERY == 0) and should_stop():
            raise LimitReached
        lits, shift = literals(constraint)
        lower = None if constraint.lower is None else constraint.lower + shift
        upper = None if constraint.upper is None else constraint.upper + shift
        cnf.clauses.extend(_bounded(cnf, lits, lower, upper, encoding, pool))
    cnf.top = max(cnf.top, pool.top)
    return cnf


def _bounded(
    cnf: Cnf, lits: list[int], lower: int | None, upper: int | None, encoding: str, pool: object
) -> list[Clause]:
    """Clauses for ``lower <= number of true lits <= upper``; the trivial cases by hand
    (pysat's encodings want a bound strictly inside 0..len)."""
    size = len(lits)
    if (lower is not None and lower > size) or (upper is not None and upper < 0):
        return [()]  # unsatisfiable
    clauses: list[Clause] = []
    if lower is not None and lower == size:
        clauses += [(lit,) for lit in lits]
    elif lower is not None and lower == 1:
        clauses.append(tuple(lits))
    elif lower is not None and lower > 1:
        clauses += _card(cnf, "atleast", lits, lower, encoding, pool)
    if upper is not None and upper == 0:
        clauses += [(-lit,) for lit in lits]
    elif upper is not None and upper < size:
        clauses += _card(cnf, "atmost", lits, upper, encoding, pool)
    return clauses


def _card(
    cnf: Cnf, bound: str, lits: list[int], k: int, encoding: str, pool: object
) -> list[Clause]:
    from pysat.card import CardEnc, EncType, UnsupportedBound

    encode = getattr(CardEnc, bound)
    try:
        made = encode(lits, k, vpool=pool, encoding=getattr(EncType, encoding))
    except UnsupportedBound:
        cnf.fallbacks += 1
        made = encode(lits, k, vpool=pool, encoding=getattr(EncType, FALLBACK_ENCODING))
    return [tuple(clause) for clause in made.clauses]


@dataclass(frozen=True)
class Penalties:
    """The objective as weighted literals: ``sum(w for w, lit if lit is true) + offset``
    is the quantity to minimise, and the objective is ``sign`` times it."""

    weighted: tuple[tuple[int, int], ...]
    offset: int
    sign: int

    def objective(self, cost: int) -> int:
        return self.sign * (cost + self.offset)

    @property
    def unit(self) -> bool:
        return all(w == 1 for w, _ in self.weighted)


def penalties(model: BoolModel, *, reduced: bool = False) -> Penalties:
    """Each term ``a x`` of the quantity to minimise (the objective, negated when
    maximising) as weight ``|a|`` on ``x`` (a > 0) or on ``not x`` (a < 0, adding a to the
    offset, since ``a x = a + |a| not x``).

    ``reduced``: first, each "exactly one" constraint's least cost is taken out of its
    variables' costs into the offset, exact since one of them is true (rows, then columns
    of a weighted placement: the reduction of Kuhn's Hungarian method, 1955). Most cells
    then cost nothing, and a MaxSAT solver's cores find the bound at once (weighted
    placement, random weights 0..10^6: n = 8 in hundredths of a second, where one soft
    clause per cell ran for minutes).
    """
    sign = 1 if model.sense is Sense.MIN else -1
    cost: dict[int, int] = {}
    for a, v in model.objective:
        cost[v] = cost.get(v, 0) + sign * a
    offset = _reduce(cost, model.linear) if reduced else 0
    weighted = []
    for v, a in cost.items():
        if a > 0:
            weighted.append((a, v + 1))
        elif a < 0:
            weighted.append((-a, -(v + 1)))
            offset += a
    return Penalties(tuple(weighted), offset, sign)


def _reduce(cost: dict[int, int], constraints: Sequence[Linear]) -> int:
    """Take each exactly-one constraint's least cost out of ``cost``; what was taken."""
    taken = 0
    for constraint in constraints:
        terms = constraint.terms
        if not terms or constraint.lower != 1 or constraint.upper != 1:
            continue
        if any(a != 1 for a, _ in terms):
            continue
        least = min(cost.get(v, 0) for _, v in terms)
        if least:
            for _, v in terms:
                cost[v] = cost.get(v, 0) - least
            taken += least
    return taken


def unit_penalties(model: BoolModel) -> Penalties:
    """The penalties of an objective whose coefficients are all +1 or -1 (a count of
    literals, which a cardinality encoding can bound); UsageError otherwise."""
    found = penalties(model)
    if not found.unit:
        raise _not_cardinality("an objective", model.objective, (*GENERAL_LINEAR, "maxsat"))
    return found


def _not_cardinality(
    what: str, terms: tuple[tuple[int, int], ...], able: tuple[str, ...]
) -> UsageError:
    coefficient = next(a for a, _ in terms if a not in (1, -1))
    return UsageError(
        f"the model has {what} with coefficient {coefficient}, which no cardinality "
        f"encoding takes; backends that take it: {', '.join(able)}"
    )
