"""Exceptions that the CLI turns into one-line messages and exit code 2."""


class QueensError(Exception):
    """Base class: a problem the user can fix (bad input, missing package, wrong backend)."""


class UsageError(QueensError, ValueError):
    """Bad input: an invalid n, option value, given queen or file."""


class CapabilityError(QueensError):
    """A backend was asked for something it does not do (e.g. counting with a heuristic)."""


class BackendUnavailable(QueensError):
    """The backend's solver package is not installed; the message says what to install."""
