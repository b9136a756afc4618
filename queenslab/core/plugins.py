"""Plug-ins by name, for backends, problem kinds and 0-1 translators alike: the package's
own, those other packages declare in an entry-point group, and those registered at run
time.

Why its own module: the registries (``registry`` for backends, ``problems`` for kinds,
``models.zero_one.translator`` for translators) are one idea, and they read entry points
cheaply: importing ``importlib.metadata`` costs every command about 50 ms (a quarter of
``queens solve 8``), while reading the ``entry_points.txt`` files of the distributions'
metadata folders takes 1-2 ms, so importlib.metadata is asked only when one of them
names the group.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from queenslab.core.errors import BackendUnavailable, UsageError

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


def load(name: str, target: str, base: type, instance: bool = False) -> Any:
    """What ``target`` names ("module:attribute"; "module" alone: the module itself),
    which must be a subclass of ``base``, or with ``instance`` an instance of it (a
    runtime-checkable Protocol: a module with the right functions is one)."""
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        item = getattr(module, attribute) if attribute else module
    except (ImportError, AttributeError) as exc:
        raise BackendUnavailable(f"{name} cannot be loaded from {target}: {exc}") from None
    if not fits(item, base, instance):
        raise BackendUnavailable(f"{name} ({target}) is not a queenslab {base.__name__}")
    return item


#: A name a plug-in may take: one word on the command line (``--problem NAME``).
NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


def _origin(item: object) -> str:
    """Where ``item`` was written, ``module.Qualname``: a class defined again under the same
    name there (a notebook cell run twice) replaces itself, any other is refused."""
    return f"{getattr(item, '__module__', '?')}.{getattr(item, '__qualname__', repr(item))}"


def fits(item: object, base: type, instance: bool) -> bool:
    """Whether ``item`` is a subclass of ``base`` (``instance``: an instance of it)."""
    if instance:
        return isinstance(item, base)
    return isinstance(item, type) and issubclass(item, base)


class Registry(Generic[T]):
    """The plug-ins of one kind (``noun``: "backend", "problem", "translator") by name,
    from three sources looked up when a name is asked for, never frozen at import:
    ``builtin`` (the package's own), the entry-point ``group`` (installed packages,
    imported only when asked for) and ``registered`` (``register`` at run time, e.g. from
    a notebook). Each is a subclass of ``base`` named by its ``name`` attribute, or with
    ``instances`` an instance of it (a Protocol) named where it is registered."""

    def __init__(
        self,
        noun: str,
        base: type,
        group: str,
        builtin: Callable[[], Mapping[str, T]],
        *,
        instances: bool = False,
    ) -> None:
        self.noun, self.base, self.group, self.builtin = noun, base, group, builtin
        self.instances = instances
        self.registered: dict[str, T] = {}
        self._declared: dict[str, str] | None = None

    def declared(self) -> dict[str, str]:
        """What installed packages declare: name -> "module:Class" (not imported)."""
        if self._declared is None:
            self._declared = declared(self.group)
        return self._declared

    def register(self, item: T, name: str | None = None) -> T:
        """Make ``item`` known under ``name`` (a class: its own ``name``); returns it (a
        class decorator too)."""
        if not fits(item, self.base, self.instances):
            what = "a" if self.instances else "a subclass of"
            raise UsageError(f"{item!r} must be {what} queenslab.{self.base.__name__}")
        name = getattr(item, "name", None) if name is None else name
        if not isinstance(name, str) or not name:
            raise UsageError(f"{getattr(item, '__name__', item)} must set its name (name = '...')")
        if not NAME.fullmatch(name):
            raise UsageError(
                f"{self.noun} name {name!r} is not a command-line word: lower-case letters, "
                "digits, '-' and '_', starting with a letter or digit"
            )
        if name in self.builtin():
            raise UsageError(f"{self.noun} name {name!r} is taken by a built-in {self.noun}")
        held = self.registered.get(name)
        if held is not None and held is not item and _origin(held) != _origin(item):
            raise UsageError(
                f"{self.noun} name {name!r} is taken by {_origin(held)}; give "
                f"{_origin(item)} another name"
            )
        self.registered[name] = item
        return item

    def names(self) -> list[str]:
        """Every name: built-in, then installed plug-ins, then registered ones."""
        return list(dict.fromkeys([*self.builtin(), *self.declared(), *self.registered]))

    def get(self, name: str) -> T:
        """The plug-in called ``name``; a one-line UsageError naming the choices otherwise."""
        found = self.registered.get(name)
        if found is None:
            found = self.builtin().get(name)
        if found is not None:
            return found
        target = self.declared().get(name) if name else None
        if target is None:
            known = ", ".join(self.names())
            raise UsageError(f"unknown {self.noun} {name!r}; choose from: {known}")
        item: T = load(f"{self.noun} {name!r}", target, self.base, self.instances)
        called = getattr(item, "name", name) if not self.instances else name
        if called != name:
            raise BackendUnavailable(f"{self.noun} {name!r} ({target}) calls itself {called!r}")
        return item
