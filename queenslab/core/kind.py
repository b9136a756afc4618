"""What a problem kind declares: its question, models, checker and published values.

A kind is the question asked of a board: place n peaceful queens (``placement``), dominate
every cell with the fewest queens (``domination``), and so on. It knows nothing of
solvers: it builds ``BoolModel``s (one per formulation the literature compares), reads
an answer back from a solution's values, and checks an answer with a checker of its own
that shares no code with the models, so a wrong model can never vouch for itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, combinations
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast

from queenslab.boards import VARIANTS, Board, Cell
from queenslab.boards.symmetry import Symmetry
from queenslab.core.errors import KindError, LimitReached, QueensError, Undecided, UsageError
from queenslab.core.expressions import ModelBuilder
from queenslab.core.model import BoolModel, Sense, Var

#: ``--symmetry`` choices: every model takes them.
SYMMETRY_CHOICES = ("none", "lex-leader")
#: Where lex-leader symmetry breaking comes from, for the assumption it states.
LEX_LEADER_SOURCE = "Crawford, Ginsberg, Luks and Roy 1996"
#: Every board variant, for a kind that understands them all (``variants = ALL_VARIANTS``).
ALL_VARIANTS: tuple[str, ...] = tuple(VARIANTS)
#: The answer type of a kind: a set of cells by default (``ProblemKind[frozenset[Cell]]``).
AnswerT = TypeVar("AnswerT")


class ProblemKind(Generic[AnswerT]):
    """Base class of a question about a board, the built-in ones and a user's alike.

    A subclass sets the class attributes and writes ``state`` (each of its ``models``,
    with the expression API of ``core.expressions``) and ``check`` (its own, sharing no
    code with the models). The rest defaults to the common answer, a set of cells: the
    cells whose ``m.cells(...)`` variables are true, valued by their number, written as
    sorted [row, col] lists, with lex-leader symmetry breaking over those variables; a
    kind with another answer overrides ``decode``, ``encode``, ``value``, ``to_json``,
    ``from_json`` and ``text``.

    An instance is the whole question: ``weights`` (an n x n integer matrix, already
    checked by the caller) only for a kind that ``takes_weights``, ``givens`` (cells every
    answer must hold) only for one that ``takes_givens``; any other kind refuses them in
    one line.
    """

    name: ClassVar[str]
    question: ClassVar[str]
    #: The objective's direction, ``"min"`` or ``"max"``; None (the default): the question
    #: has no objective, and its answers are solved, counted and enumerated, not optimised.
    sense: ClassVar[Literal["min", "max"] | Sense | None] = None
    #: Formulations, the default first: names (a tuple passes ruff's RUF012 as written),
    #: or name -> one line on where it comes from. Read through ``formulations()``.
    models: ClassVar[Mapping[str, str] | Sequence[str]] = ("default",)
    #: The board variants whose rules the kind's models and checker understand; any other
    #: board is refused in one line before any work. A kind that knows them all says
    #: ``variants = ALL_VARIANTS``.
    variants: ClassVar[Sequence[str]] = ("standard",)
    #: Formulations whose solutions at the optimum are not the kind's answers one for one
    #: (labelled colours, armies compared by count): name -> what they would count. Counting
    #: and enumerating refuse them; every other model counts the same answers.
    uncounted: ClassVar[Mapping[str, str]] = {}
    #: Board variant -> OEIS id of the optimum's value, and of the number of optima.
    value_sequences: ClassVar[Mapping[str, str]] = {}
    count_sequences: ClassVar[Mapping[str, str]] = {}
    #: The largest board whose 0-1 model is built, refused up front beyond: the kinds'
    #: models grow as n³ (covering clauses, attacking pairs, a colour per cell and line),
    #: and past it they would take more than 2 GB (about 75 bytes a term, measured).
    largest_model_n: ClassVar[int] = 200
    #: Whether blocked cells make sense for this question (else they are refused).
    takes_blocked: ClassVar[bool] = True
    #: Whether the question has cell weights (weighted placement); else they are refused.
    takes_weights: ClassVar[bool] = False
    #: Whether answers may be required to hold given cells (queens placed in advance).
    takes_givens: ClassVar[bool] = False
    #: The symmetries ``break_symmetry`` breaks, for the assumption it states.
    broken_symmetries: ClassVar[str] = "the board's symmetries"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The class attributes as a user writes them, checked and read once: a kind that
        cannot be stated is refused when its class is made, in one line naming it. The
        methods a kind writes are wrapped so that an exception escaping them is the kind's
        ``KindError``, naming it, wherever a backend called them."""
        super().__init_subclass__(**kwargs)
        for method in _KIND_METHODS:
            if method in cls.__dict__:
                setattr(cls, method, _blamed(cls.__dict__[method], method))
        name = cls.__dict__.get("name", getattr(cls, "name", cls.__name__))
        if "sense" in cls.__dict__ and cls.sense is not None:
            if cls.sense not in ("min", "max"):
                raise KindError(f"kind {name!r}: sense is 'min', 'max' or None, got {cls.sense!r}")
            cls.sense = Sense(cls.sense)  # "min" and "max" read as the backends test them
        if "models" in cls.__dict__:
            models = cls.models
            if isinstance(models, str) or not models:
                raise KindError(f"kind {name!r}: models is a tuple of names or a dict, got "
                                f"{models!r}")  # fmt: skip
            described = models if isinstance(models, Mapping) else dict.fromkeys(models, "")
            cls.models = MappingProxyType(dict(described))
        if "variants" in cls.__dict__:
            unknown = [v for v in cls.variants if v not in VARIANTS]
            if isinstance(cls.variants, str) or unknown:
                raise KindError(f"kind {name!r}: unknown variants {unknown or cls.variants!r}; "
                                f"choose from: {', '.join(VARIANTS)}")  # fmt: skip

    @classmethod
    def formulations(cls) -> Mapping[str, str]:
        """The formulations, the default first: name -> where it comes from ("" unsaid)."""
        models = cls.models
        return models if isinstance(models, Mapping) else dict.fromkeys(models, "")

    @classmethod
    def goal(cls) -> Sense:
        """The objective's direction; a one-line KindError for a kind with none."""
        if cls.sense is None:
            raise KindError(
                f"kind {cls.name!r} states no objective (sense = None): solve, count or "
                "enumerate its answers, or give it a sense and an objective to optimise"
            )
        return Sense(cls.sense)

    @classmethod
    def refuse_board(cls, variant: str, blocked: bool, givens: bool) -> None:
        """A one-line UsageError when the kind does not take this board: a variant it does
        not declare, blocked cells or given queens it does not take."""
        if variant not in cls.variants:
            raise UsageError(
                f"problem {cls.name!r} does not take the {variant} board (it declares "
                f"variants: {', '.join(cls.variants)})"
            )
        if givens and not cls.takes_givens:
            raise UsageError(f"problem {cls.name!r} takes no given queens")
        if blocked and not cls.takes_blocked:
            raise UsageError(f"problem {cls.name!r} takes no blocked cells")

    def __init__(self, weights: Any = None, givens: Sequence[Cell] = ()) -> None:
        if weights is not None and not self.takes_weights:
            raise UsageError(f"problem {self.name!r} takes no weights")
        if givens and not self.takes_givens:
            raise UsageError(f"problem {self.name!r} takes no given queens")
        self.weights = weights
        self.givens = tuple(givens)

    def model_name(self, model: str | None) -> str:
        """``model`` checked against this kind's formulations; None: the default one."""
        models = self.formulations()
        if model is None:
            return next(iter(models))
        if model not in models:
            raise UsageError(
                f"unknown model {model!r} for problem {self.name!r}; "
                f"choose from: {', '.join(models)}"
            )
        return model

    def counting_model_name(self, model: str | None) -> str:
        """``model_name(model)``, refused in one line when it cannot count the answers."""
        name = self.model_name(model)
        if name in self.uncounted:
            counting = ", ".join(m for m in self.formulations() if m not in self.uncounted)
            raise UsageError(
                f"the {name} model of {self.name} would count {self.uncounted[name]}, not "
                f"its answers; count and enumerate with: {counting}"
            )
        return name

    def state(self, m: ModelBuilder, board: Board, model: str) -> None:
        """State the model called ``model`` of this question on ``board`` with ``m``."""
        raise KindError(f"the {self.name} kind writes no state method")

    def build(
        self,
        board: Board,
        model: str,
        symmetry: str = "none",
        axioms: str = "all",
        should_stop: Callable[[], bool] | None = None,
    ) -> BoolModel:
        """The model called ``model`` on ``board``; a KindError when it cannot be solved as
        stated (no variables, or an objective that does not match ``sense``). ``axioms``:
        ``"none"`` leaves out every fact beyond the board's rules that the caller did not
        ask for (``ModelBuilder.assume``); ``symmetry`` is asked for, and stated.
        ``should_stop``: asked while the model is stated (LimitReached)."""
        m = ModelBuilder(f"{self.name}-{model}", axioms, should_stop)
        self.state(m, board, model)
        if symmetry == "lex-leader":
            kept = f"one answer of each class under {self.broken_symmetries}"
            m.assume("lex-leader", kept, LEX_LEADER_SOURCE, kind="symmetry", asked=True)
            self.break_symmetry(m, board, model)
        built = m.bool_model
        if next(iter(board.open_cells()), None) is None:
            return built  # a board without open cells: its answer may well be empty
        if not built.names:
            raise KindError(f"the {self.name} kind's {model} model states no variables")
        unweighted = self.takes_weights and self.weights is None
        if self.sense is not None and not unweighted:
            if not m.objective_stated:
                raise KindError(
                    f"the {self.name} kind has sense {str(self.sense)!r} but its {model} model "
                    "states no objective (m.minimise(...) or m.maximise(...))"
                )
            if built.objective and built.sense != self.sense:
                raise KindError(
                    f"the {self.name} kind has sense {str(self.sense)!r} but its {model} model "
                    f"{built.sense}imises"
                )
        return built

    def break_symmetry(self, m: ModelBuilder, board: Board, model: str) -> None:
        """Lex-leader over the board's symmetries, on the one family of ``m.cells``."""
        if len(m.cell_families) != 1:
            raise KindError(
                f"{self.name} made {len(m.cell_families)} families of cell variables: "
                "the default lex-leader takes one; override break_symmetry"
            )
        cells = list(m.cell_families[0])
        variables = [lit.var for lit in m.cell_families[0].values()]
        lex_leader(m.bool_model, board, cells, variables, board.symmetries())

    def decode(self, board: Board, model: BoolModel, values: Sequence[bool]) -> AnswerT:
        """The open cells whose answer variables are true (one per open cell, in order)."""
        open_cells = list(board.open_cells())
        if len(open_cells) != len(model.answer):
            raise KindError(
                f"{self.name} has {len(model.answer)} answer variables for "
                f"{len(open_cells)} open cells: the default decode takes one a cell; "
                "override decode"
            )
        chosen = frozenset(
            cell for cell, v in zip(open_cells, model.answer, strict=True) if values[v]
        )
        return cast(AnswerT, chosen)  # a kind of another answer type overrides decode

    def encode(self, board: Board, model: BoolModel, answer: Any) -> dict[Var, bool]:
        """The answer variables' values that ``decode`` reads back as ``answer``: how a
        start is given to a model (a hint, a cutoff). Only what the answer fixes is set;
        the auxiliary variables are left to the solver."""
        return encode_cells(board, model, answer)

    def value(self, answer: Any) -> int:
        return len(answer)

    def to_json(self, answer: Any) -> Any:
        return [list(cell) for cell in sorted(answer)]

    def from_json(self, data: Any) -> Any:
        """The answer ``to_json`` wrote as ``data`` (a start read from a file); a one-line
        UsageError when it has the wrong shape. The kind's ``check`` judges the rest."""
        return frozenset(cells_from_json(data, f"a {self.name} answer"))

    def check(self, board: Board, answer: Any) -> str | None:
        """None when ``answer`` answers the question on ``board``, else what is wrong."""
        raise KindError(f"the {self.name} kind writes no check method")

    def text(self, board: Board, data: Any) -> str:
        """An answer's JSON data drawn as text; here a list of [row, col] queens: Q a
        queen, x a blocked cell, . any other."""
        return grid(board, {(r, c): "Q" for r, c in data})

    def candidates(self, board: Board) -> Iterable[Any]:
        """Every answer that might be one, for a brute force on boards of a few cells: the
        tests' harness keeps those ``check`` accepts and takes the best ``value``, so a kind
        is tested against its own brute force. Here every set of open cells (2^cells of
        them); a kind with another answer overrides it."""
        cells = list(board.open_cells())
        sizes = range(len(cells) + 1)
        return map(frozenset, chain.from_iterable(combinations(cells, k) for k in sizes))


#: The methods a kind writes: an exception escaping one is the kind's (``_blamed``).
_KIND_METHODS = (
    "state", "check", "decode", "encode", "value", "to_json", "break_symmetry", "text",
)  # fmt: skip
#: Exceptions that say something on purpose and pass through a kind's methods as they are.
_PASSED = (QueensError, LimitReached, Undecided)


def _blamed(method: Callable[..., Any], what: str) -> Callable[..., Any]:
    """``method`` with any exception but those that say something on purpose turned into a
    one-line KindError naming the kind and the method (the original chained)."""

    @functools.wraps(method)
    def blamed(self: ProblemKind[Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except _PASSED:
            raise
        except Exception as exc:
            raise KindError(
                f"the {self.name} kind's {what} raised {type(exc).__name__}: {exc}"
            ) from exc

    return blamed


def encode_cells(board: Board, model: BoolModel, cells: Collection[Cell]) -> dict[Var, bool]:
    """One answer variable per open cell (``m.cells``, in order): true on ``cells``."""
    open_cells = list(board.open_cells())
    if len(open_cells) != len(model.answer):
        raise KindError(
            f"{model.name} has {len(model.answer)} answer variables for {len(open_cells)} "
            "open cells: the default encode takes one a cell; override encode"
        )
    return {v: cell in cells for cell, v in zip(open_cells, model.answer, strict=True)}


def cells_from_json(data: Any, what: str) -> list[Cell]:
    """``data`` as a list of cells, each a [row, col] pair of integers, each once; UsageError
    naming ``what`` otherwise (a cell named twice would vanish into the kind's set, and
    the answer read would not be the one written)."""
    if not isinstance(data, list) or not all(
        isinstance(cell, list | tuple)
        and len(cell) == 2
        and all(isinstance(i, int) and not isinstance(i, bool) for i in cell)
        for cell in data
    ):
        raise UsageError(f"{what} is a list of [row, col] cells, got {str(data)[:60]}")
    cells = [(r, c) for r, c in data]
    seen: set[Cell] = set()
    for cell in cells:
        if cell in seen:
            raise UsageError(f"{what} names the cell {list(cell)} twice")
        seen.add(cell)
    return cells


def grid(board: Board, marks: dict[Cell, str]) -> str:
    """The board in rows of one character a cell: its mark, else x (blocked) or . (open)."""
    return "\n".join(
        " ".join(marks.get((r, c)) or ("." if board.is_open(r, c) else "x") for c in range(board.n))
        for r in range(board.n)
    )


@dataclass(frozen=True)
class Question:
    """What a backend is asked: a kind (with its weights and givens), the model to build
    of it (None: a search of the backend's own, or the kind's first), the symmetry breaking,
    and for a count whether to count symmetry classes too (``unique``, the placement
    counters' ``--unique``).

    An optimisation may bring what other runs found: ``start``, an answer already checked
    (the kind's form), to begin from (``core.warm_start``), and ``bound``, a bound on the
    optimum proven elsewhere (lower when minimising, upper when maximising), stated in the
    model as a constraint on the objective. ``axioms``: ``"none"`` builds the model
    without the facts beyond the board's rules it would add of its own accord (theorem
    bounds, implied constraints, symmetry breaking not asked for; ``ProblemKind.build``)."""

    kind: ProblemKind[Any]
    model: str | None = None
    symmetry: str = "none"
    unique: bool = False
    start: Any = None
    bound: int | None = None
    axioms: str = "all"

    @property
    def native(self) -> bool:
        """Whether a backend may answer with a search of its own (placement's counters, a
        local search) instead of the kind's 0-1 model: no model or symmetry breaking was
        asked for, and no formula of known assumptions (``axioms="none"``)."""
        return self.model is None and self.symmetry == "none" and self.axioms == "all"

    def refuse_size(self, n: int) -> None:
        """A one-line UsageError when the kind's models are not built for an n x n board."""
        largest = self.kind.largest_model_n
        if n > largest:
            raise UsageError(f"the {self.kind.name} models take n <= {largest}, got {n}")

    def build(self, board: Board) -> BoolModel:
        """The model of the question on ``board``; a one-line UsageError, before any work,
        when the board is larger than the kind's models are built for."""
        self.refuse_size(board.n)
        model = self.kind.build(board, self.kind.model_name(self.model), self.symmetry, self.axioms)
        if self.bound is not None:  # the optimum is no better than the bound
            model.state_bound(self.bound)
        return model


def check_symmetry(symmetry: str) -> str:
    if symmetry not in SYMMETRY_CHOICES:
        raise UsageError(
            f"unknown symmetry {symmetry!r}; choose from: {', '.join(SYMMETRY_CHOICES)}"
        )
    return symmetry


def cell_images(board: Board, cells: Sequence[Cell], symmetry: Symmetry) -> list[int]:
    """For each of ``cells``, the index in ``cells`` of its image under ``symmetry``.

    ``cells`` must be closed under the board's symmetries (all cells, or the open ones):
    a lex-leader constraint compares a variable vector with its permuted self.
    """
    index = {cell: i for i, cell in enumerate(cells)}
    return [index[symmetry.cell(board.n, r, c)] for r, c in cells]


def lex_leader(
    model: BoolModel,
    board: Board,
    cells: Sequence[Cell],
    variables: Sequence[Var],
    symmetries: Sequence[Symmetry],
) -> None:
    """Keep only the lexicographically least answer of each class: ``variables`` (one per
    cell of ``cells``) at most their image under each of ``symmetries`` but the identity."""
    for image in symmetries:
        order = cell_images(board, cells, image)
        if order != list(range(len(cells))):
            model.lex_leq(variables, [variables[i] for i in order])
