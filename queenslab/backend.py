"""The interface every backend implements, and the vocabulary that describes it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from enum import StrEnum
from typing import Any, ClassVar

import numpy as np

from queenslab.errors import CapabilityError, UsageError
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, OptimizeResult, SolveResult

#: Called with the number of finished work units and their total (None when unknown).
ProgressCallback = Callable[[int, int | None], None]


class Family(StrEnum):
    MODEL = "model"
    EXACT = "exact"
    HEURISTIC = "heuristic"


class Capability(StrEnum):
    SOLVE = "solve"
    ENUMERATE = "enumerate"
    COUNT = "count"
    UNIQUE = "unique"  # count up to rotation and reflection
    GIVENS = "givens"  # honours queens placed in advance
    OPTIMIZE = "optimize"  # weighted N-queens


class Backend:
    """Base class: subclasses set the class attributes and override what they support.

    ``options`` maps each option the backend accepts to its valid choices (a tuple of
    strings) or to a converter (e.g. ``int``); the constructor rejects anything else with
    a message naming the valid choices. Solver packages are imported inside methods only.
    """

    name: ClassVar[str]
    family: ClassVar[Family]
    capabilities: ClassVar[frozenset[Capability]]
    summary: ClassVar[str] = ""
    #: Importable modules the backend needs, and the pip package that provides them.
    requires: ClassVar[Mapping[str, str]] = {}
    options: ClassVar[Mapping[str, tuple[str, ...] | Callable[[str], Any]]] = {}
    defaults: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, **options: Any) -> None:
        self.settings: dict[str, Any] = dict(self.defaults)
        for key, value in options.items():
            if value is None:
                continue
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise UsageError(f"backend {self.name!r} has no option {key!r} (options: {known})")
            self.settings[key] = _convert_option(self.name, key, value, self.options[key])

    # Each capability raises unless the subclass provides it.
    def solve(self, problem: Problem) -> SolveResult:
        raise self._lacks(Capability.SOLVE)

    def enumerate(self, problem: Problem) -> Iterator[Placement]:
        raise self._lacks(Capability.ENUMERATE)

    def count(
        self, problem: Problem, unique: bool = False, progress: ProgressCallback | None = None
    ) -> CountResult:
        raise self._lacks(Capability.COUNT)

    def optimize(self, problem: Problem, weights: np.ndarray) -> OptimizeResult:
        raise self._lacks(Capability.OPTIMIZE)

    def _lacks(self, capability: Capability) -> CapabilityError:
        able = [b for b in sorted(Capability) if b in self.capabilities]
        return CapabilityError(
            f"backend {self.name!r} cannot {capability} (it can: {', '.join(able)})"
        )


def default_workers() -> int:
    """The cores this process may run on: the default for every ``workers`` option."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def positive_int(value: Any) -> int:
    """Option converter for counts such as ``workers``."""
    number = int(value)
    if number < 1:
        raise ValueError("must be at least 1")
    return number


def _convert_option(backend: str, key: str, value: Any, spec: Any) -> Any:
    if isinstance(spec, tuple):
        if str(value) not in spec:
            raise UsageError(
                f"unknown {key} {value!r} for backend {backend!r}; choose from: {', '.join(spec)}"
            )
        return str(value)
    try:
        return spec(value)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"invalid {key} {value!r} for backend {backend!r}: {exc}") from None
