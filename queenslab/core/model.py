"""A 0-1 model of a question about the board: stated once, solved by every paradigm.

Why: four questions on four paradigms would be sixteen hand-written models, each with its
own mistakes. A problem kind states its model here instead, over Boolean variables with
clauses, linear constraints and a linear objective; each paradigm (CP-SAT, MILP, MaxSAT,
SAT with an incremental bound) translates this form once. A formulation the literature
compares (the line-variable model of peaceable armies, Bosch's MILP) is another
``BoolModel`` of the same question, so the gap between a naive and a good model shows on
every solver alike.

Variables are numbered from 0. A literal is ``v + 1`` (true) or ``-(v + 1)`` (false), as
in DIMACS. ``answer`` lists the variables that make up the answer: solutions are counted,
enumerated and compared on them (the other variables are auxiliary and determined by
them, or projected away).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum

from queenslab.core.errors import UsageError

Var = int
Literal = int
Term = tuple[int, Var]  # (coefficient, variable)

#: ``axioms`` choices (``ModelBuilder.assume``): ``all`` states every fact a model adds
#: beyond the board's rules; ``none`` only those the caller asked for (``--symmetry``, a
#: bound, givens), so that a proof of a no is a proof about the board itself.
AXIOMS = ("all", "none")


#: ``Assumption.kind``: what sort of fact it is (its docstring says each).
ASSUMPTION_KINDS = ("theorem", "implied", "search", "symmetry", "bound", "given")


def check_axioms(axioms: str) -> str:
    if axioms not in AXIOMS:
        raise UsageError(f"unknown axioms {axioms!r}; choose from: {', '.join(AXIOMS)}")
    return axioms


@dataclass(frozen=True)
class Assumption:
    """A fact a model takes as given beyond the board's rules, which a proof of a no then
    rests on: a solver's refutation shows only that the formula, this fact included, has no
    answer. ``kind``: ``theorem`` (a published bound, cited in ``source``), ``implied`` (a
    constraint every answer meets, by the short argument in ``statement``), ``search`` (a
    fact proven by a search outside the formula), ``symmetry`` (symmetry breaking: one
    answer of each class is kept), ``bound`` (a bound the caller gave) or ``given``
    (cells fixed by the question)."""

    name: str
    kind: str
    statement: str
    source: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ASSUMPTION_KINDS:
            raise UsageError(
                f"unknown kind of assumption {self.kind!r}; choose from: "
                + ", ".join(ASSUMPTION_KINDS)
            )

    def to_json(self) -> dict[str, str]:
        return asdict(self)

    def brief(self) -> str:
        """One short phrase: the statement and, in brackets, its source."""
        return f"{self.statement} ({self.source})" if self.source else self.statement


class Sense(StrEnum):
    MIN = "min"
    MAX = "max"

    def better(self, value: int, than: int) -> bool:
        """Whether an answer of ``value`` is strictly better than one of ``than``."""
        return value < than if self is Sense.MIN else value > than

    def tighter(self, bound: int, than: int) -> bool:
        """Whether the proven ``bound`` is strictly closer to the optimum than ``than``
        (a higher lower bound when minimising, a lower upper bound when maximising)."""
        return bound > than if self is Sense.MIN else bound < than


@dataclass(frozen=True)
class Linear:
    """``lower <= sum(coefficient * variable) <= upper``; a missing bound is open.
    ``name``: what the row states, in the kind's words (``row_3``), so an export reads as
    the question; "" for none (the exports number it)."""

    terms: tuple[Term, ...]
    lower: int | None = None
    upper: int | None = None
    name: str = ""

    def holds(self, values: Sequence[bool]) -> bool:
        total = sum(a * values[v] for a, v in self.terms)
        return (self.lower is None or total >= self.lower) and (
            self.upper is None or total <= self.upper
        )

    @property
    def is_cardinality(self) -> bool:
        """Every coefficient is +1 or -1: SAT encodings take it without pseudo-Booleans."""
        return all(a in (1, -1) for a, _ in self.terms)


@dataclass
class BoolModel:
    """Boolean variables, clauses, linear constraints and an objective to optimise."""

    name: str
    names: list[str] = field(default_factory=list)
    clauses: list[tuple[Literal, ...]] = field(default_factory=list)
    linear: list[Linear] = field(default_factory=list)
    objective: tuple[Term, ...] = ()
    sense: Sense = Sense.MIN
    answer: list[Var] = field(default_factory=list)
    #: Why the model cannot hold, in the kind's words, once it has an empty clause (which
    #: proves it infeasible before any solver runs); "" otherwise.
    impossible: str = ""
    #: An answer the building itself found, as the variables true in it (every other is
    #: false), which a search may begin from (``found_values``): a reformulation that
    #: searched before it stated anything, such as colouring's exact cover. None: none.
    found: frozenset[Var] | None = None
    #: Sums that no answer puts above its objective (a minimum): implied constraints, such
    #: as "the rows holding a queen are at most the queens", which every bound on the
    #: objective bounds too (``objective_rows``). A SAT encoding cannot state "a sum at
    #: most another" well, but states "at most K" for each at every K the search asks
    #: about; a translator that takes general rows states them whole
    #: (``rows_with_links``), and one that takes neither may leave them out (they are
    #: implied). Set by ``ModelBuilder.at_most_objective``.
    beneath_objective: list[tuple[Term, ...]] = field(default_factory=list)
    #: The facts stated beyond the board's rules, each recorded where it is added
    #: (``ModelBuilder.assume``, ``state_bound``): what a proof of a no rests on.
    assumptions: list[Assumption] = field(default_factory=list)

    # -- building -----------------------------------------------------------------------
    def var(self, name: str, *, answer: bool = False) -> Var:
        """A new variable; ``answer``: it is part of the answer (counted, compared)."""
        self.names.append(name)
        index = len(self.names) - 1
        if answer:
            self.answer.append(index)
        return index

    def clause(self, *literals: Literal, why: str = "") -> None:
        """At least one of ``literals`` holds; ``why``: what it means when there is none."""
        if not literals and not self.impossible:
            self.impossible = why or "the model has an empty clause"
        self.clauses.append(tuple(literals))

    def add_linear(
        self,
        terms: Iterable[Term],
        lower: int | None = None,
        upper: int | None = None,
        name: str = "",
    ) -> None:
        self.linear.append(Linear(tuple(terms), lower, upper, name))

    def at_most_one(self, variables: Sequence[Var]) -> None:
        if len(variables) > 1:
            self.add_linear(((1, v) for v in variables), upper=1)

    def exactly_one(self, variables: Sequence[Var]) -> None:
        self.add_linear(((1, v) for v in variables), lower=1, upper=1)

    def at_most_objective(self, terms: Iterable[Term]) -> None:
        """State ``sum(terms) <= objective``, which every answer already meets
        (``beneath_objective``); only a minimum has such sums."""
        if self.sense is not Sense.MIN or not self.objective:
            raise UsageError("a sum at most the objective needs the minimum stated first")
        self.beneath_objective.append(tuple(terms))

    def minimise(self, terms: Iterable[Term]) -> None:
        self.objective, self.sense = tuple(terms), Sense.MIN

    def maximise(self, terms: Iterable[Term]) -> None:
        self.objective, self.sense = tuple(terms), Sense.MAX

    def lex_leq(self, xs: Sequence[Var], ys: Sequence[Var]) -> None:
        """The vector ``xs`` is lexicographically at most ``ys`` (false < true).

        Decomposed into clauses over one auxiliary variable per position, ``equal[i]``:
        the vectors agree before position i. It is defined both ways (no free auxiliary
        variable multiplies the models a SAT counter sees); positions where both vectors
        hold the same variable are skipped.
        """
        equal: Literal | None = None  # None: the empty prefix, which always agrees
        for x, y in zip(xs, ys, strict=True):
            if x == y:
                continue
            X, Y = x + 1, y + 1
            guard = () if equal is None else (-equal,)
            self.clause(*guard, -X, Y)  # agreeing so far, x <= y here
            after = self.var(f"{self.name}_lex_{len(self.names)}") + 1
            # after <-> (agreeing so far) and x == y
            if equal is not None:
                self.clause(-after, equal)
            self.clause(-after, -X, Y)
            self.clause(-after, X, -Y)
            self.clause(*guard, X, Y, after)
            self.clause(*guard, -X, -Y, after)
            equal = after

    def with_objective_at(self, value: int) -> BoolModel:
        """A copy whose solutions are this model's answers of objective ``value``, with
        nothing to optimise: what counting and enumerating the optima solve."""
        return self._objective_within(value, value)

    def with_objective_bound(self, value: int) -> BoolModel:
        """A copy whose solutions are this model's answers of objective ``value`` or
        better (at most ``value`` when minimising, at least when maximising), with
        nothing to optimise: what deciding solves."""
        if self.sense is Sense.MIN:
            return self._objective_within(None, value)
        return self._objective_within(value, None)

    def without_objective(self) -> BoolModel:
        """A copy with nothing to optimise, whose solutions are this model's answers: what
        solving (any answer) solves."""
        return replace(
            self,
            names=list(self.names),
            clauses=list(self.clauses),
            linear=list(self.linear),
            objective=(),
            answer=list(self.answer),
            beneath_objective=[],
            assumptions=list(self.assumptions),
        )

    def _objective_within(self, lower: int | None, upper: int | None) -> BoolModel:
        bounded = self.without_objective()
        bounded.linear += self.objective_rows(lower, upper)
        return bounded

    def objective_rows(self, lower: int | None, upper: int | None) -> list[Linear]:
        """The rows saying the objective lies in [lower, upper], with each sum beneath
        the objective held below ``upper`` too."""
        beneath = [] if upper is None else [Linear(t, upper=upper) for t in self.beneath_objective]
        return [Linear(self.objective, lower, upper), *beneath]

    def rows_with_links(self) -> list[Linear]:
        """The linear constraints, with each sum beneath the objective stated as the row
        ``sum - objective <= 0`` (for translators that take any linear row)."""
        negated = tuple((-a, v) for a, v in self.objective)
        return [*self.linear, *(Linear(t + negated, upper=0) for t in self.beneath_objective)]

    # -- reading ------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.names)

    def value(self, values: Sequence[bool]) -> int:
        """The objective of a full assignment."""
        return sum(a * int(values[v]) for a, v in self.objective)

    def state_bound(self, bound: int) -> None:
        """State a proven bound on the optimum (a lower bound when minimising, an upper
        one when maximising) as a constraint over the objective's terms, which
        ``stated_bound`` reads back."""
        if self.sense is Sense.MIN:
            self.add_linear(self.objective, lower=bound)
        else:
            self.add_linear(self.objective, upper=bound)
        relation = "at least" if self.sense is Sense.MIN else "at most"
        given = Assumption(
            "bound", "bound", f"the optimum is {relation} {bound}", "given, unchecked"
        )
        self.assumptions.append(given)

    def stated_bound(self) -> int | None:
        """The best bound on the objective that a linear constraint over exactly its terms
        states (a kind's proven bound, ``problems.domination.lower_bound``): below it for a
        minimum, above it for a maximum, no answer exists. None when no constraint says."""
        if not self.objective:
            return None
        terms = set(self.objective)
        found = [
            row.lower if self.sense is Sense.MIN else row.upper
            for row in self.linear
            if set(row.terms) == terms and len(row.terms) == len(terms)
        ]
        bounds = [bound for bound in found if bound is not None]
        if not bounds:
            return None
        return max(bounds) if self.sense is Sense.MIN else min(bounds)

    def found_values(self) -> list[bool] | None:
        """The answer the building found, a value per variable, when it satisfies this
        model (a bound added since may cut it off); None otherwise."""
        if self.found is None:
            return None
        values = [v in self.found for v in range(self.size)]
        return values if self.satisfied_by(values) else None

    def satisfied_by(self, values: Sequence[bool]) -> bool:
        """Every clause and linear constraint holds."""
        return not self.violations(values, first=True)

    def violations(self, values: Sequence[bool], first: bool = False) -> list[str]:
        """What ``values`` (one per variable) break: each clause and linear constraint that
        fails, in words naming its variables (``first``: the first one only); [] when they
        satisfy the model. How a solver's answer is checked against the model it was
        given, before the kind reads it (the sums beneath the objective are left out:
        they are the kind's claim, not the solver's to keep)."""
        if len(values) != self.size:
            return [f"{len(values)} values for {self.size} variables"]
        broken = []
        for i, clause in enumerate(self.clauses):
            if not any(values[abs(lit) - 1] == (lit > 0) for lit in clause):
                shown = " or ".join(self._literal(lit) for lit in clause) or "false"
                broken.append(f"clause {i} ({shown})")
                if first:
                    return broken
        for i, row in enumerate(self.linear):
            if not row.holds(values):
                total = sum(a * values[v] for a, v in row.terms)
                sum_ = " + ".join(f"{a}*{self.names[v]}" for a, v in row.terms) or "0"
                low = "" if row.lower is None else f"{row.lower} <= "
                high = "" if row.upper is None else f" <= {row.upper}"
                broken.append(f"linear constraint {i} ({low}{sum_}{high}) is {total}")
                if first:
                    return broken
        return broken

    def _literal(self, lit: Literal) -> str:
        name = self.names[abs(lit) - 1]
        return name if lit > 0 else f"not {name}"

    def stats(self) -> dict[str, int]:
        """The model's size, reported beside the solver's statistics."""
        return {
            "variables": self.size,
            "clauses": len(self.clauses),
            "linear_constraints": len(self.linear),
        }
