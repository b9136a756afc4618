"""Backend names -> classes, imported only when asked for, with their availability."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from queenslab.backend import Backend, Capability, Family
from queenslab.errors import BackendUnavailable, UsageError

#: Every backend of the project. Importing a backend module is cheap: solver packages are
#: imported inside its methods.
BACKENDS: dict[str, str] = {
    "backtrack": "queenslab.exact.backtracking:BacktrackingBackend",
    "bitmask": "queenslab.exact.bitmask:BitmaskBackend",
    "milp": "queenslab.models.milp:MilpBackend",
    "cpsat": "queenslab.models.cpsat:CpSatBackend",
    "sat": "queenslab.models.cnf:SatBackend",
    "maxsat": "queenslab.models.maxsat:MaxSatBackend",
    "sharpsat": "queenslab.models.sharpsat:SharpSatBackend",
    "min-conflicts": "queenslab.heuristics.min_conflicts:MinConflictsBackend",
    "hill-climbing": "queenslab.heuristics.hill_climbing:HillClimbingBackend",
    "las-vegas": "queenslab.heuristics.las_vegas:LasVegasBackend",
    "divide-conquer": "queenslab.heuristics.divide_conquer:DivideConquerBackend",
    "explicit": "queenslab.heuristics.explicit:ExplicitBackend",
}


@dataclass(frozen=True)
class BackendInfo:
    name: str
    family: Family
    capabilities: frozenset[Capability]
    summary: str
    missing: tuple[str, ...]  # pip packages to install before it can run

    @property
    def available(self) -> bool:
        return not self.missing


def backend_class(name: str) -> type[Backend]:
    try:
        target = BACKENDS[name]
    except KeyError:
        raise UsageError(f"unknown backend {name!r}; choose from: {', '.join(BACKENDS)}") from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def info(name: str) -> BackendInfo:
    cls = backend_class(name)
    missing = tuple(
        package
        for module, package in cls.requires.items()
        if importlib.util.find_spec(module) is None
    )
    return BackendInfo(name, cls.family, cls.capabilities, cls.summary, missing)


def backends() -> list[BackendInfo]:
    """Every registered backend, available or not, in registry order."""
    return [info(name) for name in BACKENDS]


def names_with(capability: Capability, *, available_only: bool = True) -> list[str]:
    return [
        b.name
        for b in backends()
        if capability in b.capabilities and (b.available or not available_only)
    ]


def get_backend(name: str, capability: Capability | None = None, **options: Any) -> Backend:
    """An instance of backend ``name``; a clear error when it is missing or lacks the capability."""
    details = info(name)
    if details.missing:
        raise BackendUnavailable(
            f"backend {name!r} needs {', '.join(details.missing)}: "
            f"pip install {' '.join(details.missing)}"
        )
    cls = backend_class(name)
    if capability is not None and capability not in cls.capabilities:
        raise cls(**options)._lacks(capability)
    return cls(**options)
