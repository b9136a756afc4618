"""Exceptions that the CLI turns into one-line messages, and the exit codes: one table."""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from queenslab.core.result import CountResult, OptimizeResult

#: What a stopped run had: an optimisation's best answer, or a count so far.
Kept = TypeVar("Kept", "OptimizeResult", "CountResult")


class ExitCode(IntEnum):
    """The ``queens`` command's exit codes, the contract every command keeps."""

    OK = 0
    NO_SOLUTION = 1  # a proven "no solution", or a cross-check disagreement
    USAGE = 2  # bad usage or input: one line on stderr
    LIMIT = 3  # a limit was reached before an answer (or an incomplete method gave up)
    INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
    TERMINATED = 143  # 128 + SIGTERM, after the same cleanup as Ctrl-C


class QueensError(Exception):
    """Base class: a problem the user can fix (bad input, missing package, wrong backend)."""


class UsageError(QueensError, ValueError):
    """Bad input: an invalid n, option value, given queen or file (exit code 2)."""


class CapabilityError(QueensError):
    """A backend was asked for something it does not do (e.g. counting with a heuristic)."""


class BackendUnavailable(QueensError):
    """The backend's solver package is not installed; the message says what to install."""


class KindError(QueensError):
    """A problem kind that cannot be stated as written: its class attributes, or its
    ``state``, ``check`` or ``decode`` raised, or its model has no variables or no
    objective to optimise (exit code 2). The kind is at fault, never a solver."""


class ModelMismatch(KindError):
    """A kind's model admits an answer the kind's own checker rejects (the solver's values
    satisfied the model it was given): the model and its checker disagree."""

    def __init__(self, kind: str, answer: object, why: str) -> None:
        shown = repr(answer)
        shown = shown if len(shown) <= 200 else shown[:197] + "..."
        super().__init__(
            f"the {kind} kind's model admits an answer its checker rejects ({why}): {shown}; "
            "the model and its checker disagree"
        )
        self.kind, self.answer, self.why = kind, answer, why

    def __reduce__(self) -> tuple[type[ModelMismatch], tuple[str, object, str]]:
        """Raised in a forked solver process, it travels back whole."""
        return type(self), (self.kind, self.answer, self.why)


class BackendBug(AssertionError):
    """A backend broke its contract: an invalid board, a lost given queen, a false claim,
    or a solver's values that violate the model it was given (raised by ``api``'s checks
    and by ``models.zero_one.backend``, which names the translator)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM: raised in the main thread so the run ends as on Ctrl-C, every cleanup
    (solver processes, temporary files) done, and the CLI exits with code 143."""


class StoppedWithAnswer(KeyboardInterrupt, Generic[Kept]):
    """Ctrl-C or SIGTERM (``cause``) stopped an anytime search or a count: ``result`` is
    what it had, checked (its best answer and bound, or a limit; the answers counted so
    far), for the caller to show before it ends as ``cause`` says."""

    def __init__(self, result: Kept, cause: KeyboardInterrupt) -> None:
        super().__init__(str(cause))
        self.result: Kept = result
        self.cause = cause


class LimitReached(Exception):
    """A search stopped because its time limit passed (the CLI exits with code 3)."""


class Undecided(Exception):
    """A solver ended without an answer and without a proof, for a reason other than a
    limit; the message is the solver's own account (status unknown, CLI exit code 3)."""
