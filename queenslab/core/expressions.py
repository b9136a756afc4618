"""Readable 0-1 models: variables as objects, constraints written as Python expressions.

Why: a ``BoolModel`` speaks DIMACS integers (``-(v + 1)`` for "not v"), which is what the
translators want and what nobody should have to write. Here a model is stated as
``m.add(x >> y)``, ``m.add(sum(q.values()) <= k)``, ``m.minimise(sum(q.values()))`` over
variables named by what they stand for (``q[r, c]``, ``line[key]``), and the
``ModelBuilder`` writes the very ``BoolModel`` rows a hand-written model would: clauses as
literal tuples in the order written, ``Linear`` rows with their terms in the order written.

A sum is a tree built in O(1) per ``+`` and flattened once, when it is compared or made
the objective, so ``sum(...)`` over a board's cells stays linear in their number.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from numbers import Integral
from typing import Generic, TypeVar, cast

from queenslab.boards import Board, Cell
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.model import Assumption, BoolModel, Term, check_axioms

K = TypeVar("K", bound=Hashable)

#: Variables and terms stated between two looks at a builder's ``should_stop``.
_LOOK_EVERY = 1 << 16


def _no_truth(what: str) -> TypeError:
    return TypeError(
        f"{what} has no truth value while a model is stated: add it with m.add(...) "
        "(a chained comparison lo <= sum <= hi is two constraints)"
    )


def _integer(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{what} {value!r} is not an integer: 0-1 models take integers only")
    return int(value)


class _Arithmetic:
    """``+``, ``-`` and integer ``*`` for variables and sums: each makes a ``LinExpr``."""

    def __add__(self, other: Addend) -> LinExpr:
        return LinExpr(((1, self), (1, _addend(other))))

    def __radd__(self, other: Addend) -> LinExpr:
        return LinExpr(((1, _addend(other)), (1, self)))

    def __sub__(self, other: Addend) -> LinExpr:
        return LinExpr(((1, self), (-1, _addend(other))))

    def __rsub__(self, other: Addend) -> LinExpr:
        return LinExpr(((1, _addend(other)), (-1, self)))

    def __neg__(self) -> LinExpr:
        return LinExpr(((-1, self),))

    def __mul__(self, coefficient: int) -> LinExpr:
        if isinstance(coefficient, _Arithmetic):
            raise TypeError("a product of two variables or sums is not linear")
        return LinExpr(((_integer(coefficient, "coefficient"), self),))

    __rmul__ = __mul__


class Lit(_Arithmetic):
    """A variable or its negation ``~x`` (in a sum, ``~x`` counts ``1 - x``), kept as its
    DIMACS ``literal``: ``var + 1``, negated for ``~x``.

    ``==`` between literals is plain equality (they key dicts and sets); comparisons that
    make constraints are written on sums: ``1 * x == 1``, ``x + y <= 1``.
    """

    __slots__ = ("literal", "owner")

    def __init__(self, owner: ModelBuilder, literal: int) -> None:
        self.owner, self.literal = owner, literal

    @property
    def var(self) -> int:
        return abs(self.literal) - 1

    @property
    def positive(self) -> bool:
        return self.literal > 0

    @property
    def name(self) -> str:
        return self.owner.bool_model.names[self.var]

    def __invert__(self) -> Lit:
        return Lit(self.owner, -self.literal)

    def only_if(self, *enforcers: Lit) -> Clause:
        """This literal holds whenever every one of ``enforcers`` does (``Clause.only_if``)."""
        return any_of(self).only_if(*enforcers)

    def __or__(self, other: Lit | Clause) -> Clause:
        return any_of(self, other)

    def __rshift__(self, other: Lit | Clause) -> Clause:
        """``x >> y``: x implies y, the clause ``~x | y`` (``y`` may be a clause)."""
        return any_of(Lit(self.owner, -self.literal), other)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Lit) and self.owner is other.owner and self.literal == other.literal
        )

    def __hash__(self) -> int:
        return hash((id(self.owner), self.literal))

    def __bool__(self) -> bool:
        raise _no_truth(f"variable {self.name}")

    def __repr__(self) -> str:
        return self.name if self.positive else f"~{self.name}"


@dataclass(frozen=True)
class Clause:
    """At least one of ``literals`` (DIMACS, of ``owner``'s variables) holds; empty, it
    cannot hold."""

    owner: ModelBuilder | None
    literals: tuple[int, ...]

    def __or__(self, other: Lit | Clause) -> Clause:
        return any_of(self, other)

    def only_if(self, *enforcers: Lit) -> Clause:
        """The clause enforced only when every one of ``enforcers`` holds (OR-Tools'
        ``only_enforce_if``): ``~e1 | ~e2 | ... | clause``."""
        return any_of((~e for e in enforcers), self)

    def __bool__(self) -> bool:
        raise _no_truth(f"clause {self}")

    def __str__(self) -> str:
        if self.owner is None:
            return "(empty clause)"
        return " | ".join(repr(Lit(self.owner, lit)) for lit in self.literals)


def any_of(*items: Lit | Clause | Iterable[Lit | Clause]) -> Clause:
    """The clause of every literal given, in order: literals, clauses or iterables of them."""
    literals: list[int] = []
    owner: ModelBuilder | None = None
    for item in items:
        if type(item) is Lit:  # the common case, first
            literals.append(item.literal)
            if item.owner is not owner:
                owner = _same(owner, item.owner)
            continue
        if not isinstance(item, Clause | Iterable):
            raise TypeError(f"a clause takes literals, got {type(item).__name__} {item!r}")
        for part in (item,) if isinstance(item, Clause) else item:
            if type(part) is Lit:
                literals.append(part.literal)
            elif isinstance(part, Clause):
                literals.extend(part.literals)
            else:
                raise TypeError(f"a clause takes literals, got {type(part).__name__} {part!r}")
            if part.owner is not owner and part.owner is not None:
                owner = _same(owner, part.owner)
    return Clause(owner, tuple(literals))


Addend = _Arithmetic | int


def _addend(value: Addend) -> _Arithmetic | int:
    return value if isinstance(value, _Arithmetic) else _integer(value, "constant")


class LinExpr(_Arithmetic):
    """An integer-weighted sum of literals and constants; compare it to make a constraint."""

    def __init__(self, parts: tuple[tuple[int, _Arithmetic | int], ...]) -> None:
        self.parts = parts

    def flatten(self) -> tuple[ModelBuilder | None, tuple[Term, ...], int]:
        """The model it belongs to, its terms (first appearance order, like terms merged,
        zero coefficients dropped) and its constant."""
        coefficients: dict[int, int] = {}
        constant, owner = 0, None
        # a depth-first walk, part by part in order, without recursion (sum() nests deep)
        stack: list[tuple[int, Iterator[tuple[int, _Arithmetic | int]]]] = [(1, iter(self.parts))]
        while stack:
            scale, parts = stack[-1]
            for a, item in parts:
                if type(item) is Lit:
                    if item.owner is not owner:
                        owner = _same(owner, item.owner)
                    a, var = a * scale, item.literal - 1
                    if var < 0:  # a * ~x = a - a * x
                        constant, a, var = constant + a, -a, -item.literal - 1
                    coefficients[var] = coefficients.get(var, 0) + a
                elif isinstance(item, LinExpr):
                    stack.append((a * scale, iter(item.parts)))
                    break
                else:  # a part is a literal, a sum or an int
                    constant += a * scale * cast(int, item)
            else:
                stack.pop()
        return owner, tuple((a, v) for v, a in coefficients.items() if a), constant

    def _compare(self, other: Addend, lower: bool, upper: bool, shift: int = 0) -> Constraint:
        owner, terms, constant = (self - other).flatten()
        bound = shift - constant
        return Constraint(owner, terms, bound if lower else None, bound if upper else None)

    def __le__(self, other: Addend) -> Constraint:
        return self._compare(other, lower=False, upper=True)

    def __lt__(self, other: Addend) -> Constraint:
        return self._compare(other, lower=False, upper=True, shift=-1)

    def __ge__(self, other: Addend) -> Constraint:
        return self._compare(other, lower=True, upper=False)

    def __gt__(self, other: Addend) -> Constraint:
        return self._compare(other, lower=True, upper=False, shift=1)

    def __eq__(self, other: object) -> Constraint:  # type: ignore[override]
        return self._compare(other, lower=True, upper=True)  # type: ignore[arg-type]

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        raise _no_truth("a sum")


def total(items: Iterable[Addend]) -> LinExpr:
    """The sum of ``items`` as an expression, even of none (Python's ``sum`` of nothing is
    the int 0, whose comparisons are bools, not constraints)."""
    return LinExpr(tuple((1, item if type(item) is Lit else _addend(item)) for item in items))


def _same(owner: ModelBuilder | None, other: ModelBuilder) -> ModelBuilder:
    if owner is not None and owner is not other:
        raise UsageError(
            f"an expression mixes variables of two models ({owner.bool_model.name!r} and "
            f"{other.bool_model.name!r}): state each model with its own variables"
        )
    return other


@dataclass(frozen=True)
class Constraint:
    """``lower <= sum of terms <= upper`` (a missing bound is open; with neither bound it
    always holds, and adding it adds nothing). Not a bool: ``if constraint:`` is refused.
    ``name``: the row's name in the model and its exports (``named``)."""

    owner: ModelBuilder | None
    terms: tuple[Term, ...]
    lower: int | None = None
    upper: int | None = None
    name: str = ""

    def named(self, name: str) -> Constraint:
        """A copy called ``name`` (``row_3``): the LP and MPS exports name its row so."""
        return replace(self, name=name)

    def only_if(self, *enforcers: Lit) -> tuple[Constraint, ...]:
        """The constraint enforced only when every one of ``enforcers`` holds (OR-Tools'
        ``only_enforce_if``), as linear rows every paradigm takes: each bound relaxed by
        its slack M (the most the sum can miss it by) times the enforcers that are false,
        ``sum + M * (e1 + e2 + ...) <= upper + M * k`` and its mirror for ``lower``."""
        if not enforcers:
            return (self,)
        top = sum(a for a, _ in self.terms if a > 0)
        bottom = sum(a for a, _ in self.terms if a < 0)
        expression = LinExpr(
            tuple((a, Lit(_owned(self.owner, enforcers), v + 1)) for a, v in self.terms)
        )
        switched = total(enforcers)
        k = len(enforcers)
        rows: list[Constraint] = []
        if self.upper is not None:
            slack = max(0, top - self.upper)
            rows.append(expression + slack * switched <= self.upper + slack * k)
        if self.lower is not None:
            slack = max(0, self.lower - bottom)
            rows.append(expression - slack * switched >= self.lower - slack * k)
        return tuple(row.named(self.name) for row in rows)

    def __bool__(self) -> bool:
        raise _no_truth("a constraint")


def _owned(owner: ModelBuilder | None, enforcers: Sequence[Lit]) -> ModelBuilder:
    """The model of a constraint's terms, or of its enforcers when it has none."""
    if owner is not None:
        return owner
    return enforcers[0].owner


def at_most_one(literals: Iterable[Lit]) -> Constraint:
    """At most one of ``literals`` holds; of fewer than two, it always holds."""
    items = list(literals)
    return total(items) <= 1 if len(items) > 1 else Constraint(None, ())


def exactly_one(literals: Iterable[Lit]) -> Constraint:
    """Exactly one of ``literals`` holds; of none, it cannot hold."""
    return total(literals) == 1


class Family(Mapping[K, Lit], Generic[K]):
    """Variables keyed by what they stand for (a cell, a line, a colour): ``q[r, c]``."""

    def __init__(self, name: str, variables: dict[K, Lit]) -> None:
        self.name = name
        self._variables = variables

    def __getitem__(self, key: K) -> Lit:
        try:
            return self._variables[key]
        except KeyError:
            raise KeyError(f"{self.name} has no variable for {key!r}") from None

    def __contains__(self, key: object) -> bool:
        return key in self._variables

    def __iter__(self) -> Iterator[K]:
        return iter(self._variables)

    def __len__(self) -> int:
        return len(self._variables)


def key_name(prefix: str, key: object) -> str:
    """``prefix`` and the key's parts joined by ``_``: ``q_2_3`` for cell (2, 3), nested
    tuples flattened (``r_0_1_2_3`` for a pair of cells)."""
    if type(key) is tuple and not any(type(part) is tuple for part in key):
        return "_".join((prefix, *map(str, key)))
    parts: list[str] = [prefix]
    stack = [key]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
        else:
            parts.append(str(item))
    return "_".join(parts)


class ModelBuilder:
    """States a ``BoolModel`` (``bool_model``) with variables, expressions and constraints."""

    def __init__(
        self, name: str, axioms: str = "all", should_stop: Callable[[], bool] | None = None
    ) -> None:
        self.bool_model = BoolModel(name)
        #: Asked every ``_LOOK_EVERY`` variables and terms stated: a big board's model takes
        #: seconds and gigabytes, and a run's limit covers building it (LimitReached).
        self._should_stop = should_stop
        self._work = 0
        #: Which facts beyond the board's rules ``assume`` lets the model state
        #: (``core.model.AXIOMS``).
        self.axioms = check_axioms(axioms)
        #: The families made by ``cells``, in order: default symmetry breaking reads them.
        self.cell_families: list[Family[Cell]] = []
        #: Whether ``minimise`` or ``maximise`` was called (an objective may still have no
        #: terms: weights all zero).
        self.objective_stated = False

    def _worked(self, amount: int) -> None:
        """Count ``amount`` units of work; look at ``should_stop`` once per
        ``_LOOK_EVERY``."""
        before = self._work
        self._work += amount
        stop = self._should_stop
        if stop is not None and self._work // _LOOK_EVERY > before // _LOOK_EVERY and stop():
            raise LimitReached

    # -- variables ----------------------------------------------------------------------
    def var(self, name: str, *, answer: bool = False) -> Lit:
        """A new variable; ``answer``: it is part of the answer (counted, compared)."""
        self._worked(1)
        return Lit(self, self.bool_model.var(name, answer=answer) + 1)

    def family(
        self,
        name: str | Callable[[K], str],
        keys: Iterable[K],
        *,
        answer: bool = False,
    ) -> Family[K]:
        """A variable per key, in the keys' order; named ``name_<key parts>``, or by
        ``name(key)`` when ``name`` is a function."""
        naming = name if callable(name) else (lambda key: key_name(name, key))
        variables = {key: self.var(naming(key), answer=answer) for key in keys}
        return Family(name if isinstance(name, str) else "family", variables)

    def found(self, true: Iterable[Lit]) -> None:
        """An answer the building found: ``true``'s variables true, every other false
        (``BoolModel.found``)."""
        self.bool_model.found = frozenset(lit.var for lit in true)

    def cells(self, prefix: str, board: Board, *, answer: bool = True) -> Family[Cell]:
        """An answer variable per open cell, row by row, named ``prefix_r_c``."""
        family = self.family(prefix, board.open_cells(), answer=answer)
        self.cell_families.append(family)
        return family

    # -- constraints --------------------------------------------------------------------
    def add(
        self, *statements: Lit | Clause | Constraint | tuple[Constraint, ...], why: str = ""
    ) -> None:
        """Add clauses (a literal alone is a unit clause) and linear constraints, in order
        (an enforced constraint, ``c.only_if(x)``, is its rows); ``why``: what an empty
        clause among them means, in the kind's words."""
        flat = (part for item in statements
                for part in (item if isinstance(item, tuple) else (item,)))  # fmt: skip
        for statement in flat:
            if isinstance(statement, Lit):
                statement = any_of(statement)
            if isinstance(statement, Clause):
                self._own(statement.owner)
                self._worked(len(statement.literals))
                self.bool_model.clause(*statement.literals, why=why)
            elif isinstance(statement, Constraint):
                self._own(statement.owner)
                self._worked(len(statement.terms))
                if statement.lower is not None or statement.upper is not None:
                    self.bool_model.add_linear(
                        statement.terms, statement.lower, statement.upper, statement.name
                    )
            else:
                hint = (
                    " (a comparison of plain values: == between variables is equality, and "
                    "sum() of nothing is 0; compare total(...) or 1 * x)"
                )
                raise TypeError(
                    "m.add takes literals, clauses and constraints, got "
                    f"{type(statement).__name__} {statement!r}"
                    + (hint if isinstance(statement, bool) else "")
                )

    def assume(
        self, name: str, statement: str, source: str = "", *, kind: str, asked: bool = False
    ) -> bool:
        """Whether to state a fact beyond the board's rules (a theorem's bound, an implied
        constraint, symmetry breaking): a kind asks here just before it adds the fact, and
        adds it only on True. The fact is then recorded (``BoolModel.assumptions``), so a
        proof of a no names what it rests on. With ``axioms="none"`` only the facts the
        caller ``asked`` for are stated (``core.model.Assumption`` for the kinds)."""
        if self.axioms == "none" and not asked:
            return False
        self.bool_model.assumptions.append(Assumption(name, kind, statement, source))
        return True

    def minimise(self, objective: Lit | LinExpr | int) -> None:
        self.bool_model.minimise(self._objective(objective))
        self.objective_stated = True

    def maximise(self, objective: Lit | LinExpr | int) -> None:
        self.bool_model.maximise(self._objective(objective))
        self.objective_stated = True

    def at_most_objective(self, count: LinExpr) -> None:
        """``count <= the objective`` (a minimum, stated first) holds in every answer: an
        implied constraint, which each bound on the objective bounds too
        (``BoolModel.beneath_objective``)."""
        owner, terms, constant = count.flatten()
        if constant:
            raise UsageError(f"a sum beneath the objective takes no constant term, got {constant}")
        self._own(owner)
        self.bool_model.at_most_objective(terms)

    def lex_leq(self, xs: Sequence[Lit], ys: Sequence[Lit]) -> None:
        """The variables ``xs`` are lexicographically at most ``ys`` (``BoolModel.lex_leq``)."""
        self.bool_model.lex_leq(self._vars(xs), self._vars(ys))

    # -- checks -------------------------------------------------------------------------
    def _objective(self, objective: Lit | LinExpr | int) -> tuple[Term, ...]:
        if isinstance(objective, _Arithmetic):
            owner, terms, constant = LinExpr(((1, objective),)).flatten()
        else:
            owner, terms, constant = None, (), _integer(objective, "objective")
        if constant:
            raise UsageError(f"an objective takes no constant term, got {constant}")
        self._own(owner)
        return terms

    def _vars(self, literals: Sequence[Lit]) -> list[int]:
        for lit in literals:
            self._own(lit.owner)
            if not lit.positive:
                raise UsageError(f"lex_leq compares variables, got the literal {lit!r}")
        return [lit.var for lit in literals]

    def _own(self, owner: ModelBuilder | None) -> None:
        if owner is not None:
            _same(self, owner)
