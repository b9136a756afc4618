"""Backend names -> classes, imported only when asked for, with their availability.

Three sources, in this order: the package's own backends (``BUILTIN``), backends other
packages declare in the ``queenslab.backends`` entry-point group, and classes registered
at run time with ``register_backend`` (for notebooks). Listing names imports nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from functools import cache
from typing import Any

from queenslab.core.backend import Backend, Capability, Family, Option
from queenslab.core.errors import BackendUnavailable, UsageError

#: The package's own backends. Importing a backend module is cheap: solver packages are
#: imported inside its methods.
BUILTIN: dict[str, str] = {
    "backtrack": "queenslab.exact.backtracking:BacktrackingBackend",
    "bitmask": "queenslab.exact.bitmask:BitmaskBackend",
    "csp": "queenslab.exact.csp:CspBackend",
    "milp": "queenslab.models.milp:MilpBackend",
    "cpsat": "queenslab.models.cpsat:CpSatBackend",
    "sat": "queenslab.models.sat:SatBackend",
    "maxsat": "queenslab.models.maxsat:MaxSatBackend",
    "sharpsat": "queenslab.models.sharpsat:SharpSatBackend",
    "min-conflicts": "queenslab.heuristics.min_conflicts:MinConflictsBackend",
    "hill-climbing": "queenslab.heuristics.hill_climbing:HillClimbingBackend",
    "minton": "queenslab.heuristics.minton:MintonBackend",
    "las-vegas": "queenslab.heuristics.las_vegas:LasVegasBackend",
    "divide-conquer": "queenslab.heuristics.divide_conquer:DivideConquerBackend",
    "explicit": "queenslab.heuristics.explicit:ExplicitBackend",
    "small": "queenslab.exact.pure_python:SmallBackend",
}
ENTRY_POINT_GROUP = "queenslab.backends"
_registered: dict[str, type[Backend]] = {}


@cache
def _plugins() -> dict[str, str]:
    """Backends declared by installed packages: name -> "module:Class" (not imported)."""
    if not _group_may_be_declared(sys.path):
        return {}
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _group_may_be_declared(path: list[str]) -> bool:
    """Whether a distribution on ``path`` may declare the entry-point group.

    Why: importing and asking importlib.metadata costs every command about 50 ms (a
    quarter of ``queens solve 8``), while reading the ``entry_points.txt`` files of the
    distributions' metadata folders takes 1-2 ms; importlib.metadata is asked only when
    one names the group. True also when unsure: a path entry that is a file (a zip).
    """
    heading = f"[{ENTRY_POINT_GROUP}]"
    for entry in path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return True
        except OSError:  # a missing folder: nothing there
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")) or name == "EGG-INFO":  # an .egg
                try:
                    with open(os.path.join(folder, name, "entry_points.txt")) as points:
                        if heading in points.read():
                            return True
                except OSError:  # no entry points
                    continue
    return False


def register_backend(name: str, cls: type[Backend]) -> None:
    """Make ``cls`` available as backend ``name`` in this process (e.g. from a notebook)."""
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise UsageError(f"backend {name!r} must be a subclass of queenslab.Backend")
    if name in BUILTIN:
        raise UsageError(f"backend name {name!r} is taken by a built-in backend")
    _registered[name] = cls


def names() -> list[str]:
    """Every backend name: built-in, then installed plug-ins, then registered ones."""
    return list(dict.fromkeys([*BUILTIN, *_plugins(), *_registered]))


@dataclass(frozen=True)
class BackendInfo:
    name: str
    family: Family
    capabilities: frozenset[Capability]
    variants: frozenset[str]
    options: tuple[Option, ...]
    summary: str
    missing: tuple[str, ...]  # pip packages to install before it can run

    @property
    def available(self) -> bool:
        return not self.missing


def backend_class(name: str) -> type[Backend]:
    if name in _registered:
        return _registered[name]
    target = (BUILTIN.get(name) or _plugins().get(name)) if name else None
    if target is None:
        raise UsageError(f"unknown backend {name!r}; choose from: {', '.join(names())}")
    module_name, _, class_name = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise BackendUnavailable(
            f"backend {name!r} cannot be loaded from {target}: {exc}"
        ) from None
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise BackendUnavailable(f"backend {name!r} ({target}) is not a queenslab Backend")
    return cls


def info(name: str) -> BackendInfo:
    cls = backend_class(name)
    missing = tuple(
        package
        for module, package in cls.requires.items()
        if importlib.util.find_spec(module) is None
    )
    return BackendInfo(
        name, cls.family, cls.capabilities, cls.variants, cls.options, cls.summary, missing
    )


def backends() -> list[BackendInfo]:
    """Every backend, available or not, in registry order."""
    return [info(name) for name in names()]


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
