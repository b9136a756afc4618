"""Classes other packages declare in an entry-point group: backends and problem kinds.

Why its own module: both registries (``registry`` for backends, ``problems`` for kinds)
read entry points the same way, and cheaply: importing ``importlib.metadata`` costs every
command about 50 ms (a quarter of ``queens solve 8``), while reading the
``entry_points.txt`` files of the distributions' metadata folders takes 1-2 ms, so
importlib.metadata is asked only when one of them names the group.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TypeVar

from queenslab.core.errors import BackendUnavailable

T = TypeVar("T")


def declared(group: str) -> dict[str, str]:
    """The classes installed packages declare in ``group``: name -> "module:Class"."""
    if not group_may_be_declared(group, sys.path):
        return {}
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=group)}


def group_may_be_declared(group: str, path: list[str]) -> bool:
    """Whether a distribution on ``path`` may declare ``group``; True also when unsure
    (a path entry that is a file: a zip)."""
    heading = f"[{group}]"
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


def load(name: str, target: str, base: type[T]) -> type[T]:
    """The class ``target`` ("module:Class") names, which must subclass ``base``."""
    module_name, _, class_name = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as exc:
        raise BackendUnavailable(f"{name!r} cannot be loaded from {target}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise BackendUnavailable(f"{name!r} ({target}) is not a queenslab {base.__name__}")
    return cls
