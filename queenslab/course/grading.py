"""Marking a student's answer to an exercise, part by part, without showing the answer.

Why here and not in the docs: an exercise's figures are computed by the package when the
answer is marked (never read from a table), so a check stays right when the package
changes, and the docs' answer key is tested against the same checks.

An answer is a TOML file of named values (``rejects = 18``) or, for an exercise that asks
for code, a Python file whose names the parts read. A part is right or wrong; a wrong part
says only that it is wrong (and, where it helps, what kind of value was expected).
"""

from __future__ import annotations

import importlib.util
import tomllib
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from queenslab.core.errors import UsageError

#: A part's judge: the student's value (or module) -> None when right, else why it is wrong.
Judge = Callable[[Any], "str | None"]


@dataclass(frozen=True)
class Part:
    """One question of an exercise: the key it is answered under, its marks, its judge."""

    key: str
    marks: int
    judge: Judge
    asks: str  # what the part asks for, in a few words (shown in the pages and the output)


@dataclass(frozen=True)
class Exercise:
    """An exercise's number, title, answer file type (``toml`` or ``py``) and parts."""

    number: int
    title: str
    parts: tuple[Part, ...]
    file: str = "toml"

    @property
    def marks(self) -> int:
        return sum(part.marks for part in self.parts)


@dataclass(frozen=True)
class Mark:
    """The mark of one part: its marks if right, 0 with the reason if not."""

    part: Part
    wrong: str | None

    @property
    def got(self) -> int:
        return 0 if self.wrong else self.part.marks


@dataclass(frozen=True)
class Grade:
    """Every part's mark; ``right`` when all are."""

    exercise: Exercise
    marks: list[Mark] = field(default_factory=list)

    @property
    def got(self) -> int:
        return sum(mark.got for mark in self.marks)

    @property
    def right(self) -> bool:
        return self.got == self.exercise.marks

    def report(self) -> str:
        """The lines the command prints: the total, then each part."""
        ex = self.exercise
        lines = [f"exercise {ex.number} ({ex.title}): {self.got} of {ex.marks} marks"]
        for mark in self.marks:
            plural = "s" if mark.part.marks > 1 else ""
            verdict = f"wrong: {mark.wrong}" if mark.wrong else "right"
            part = f"{mark.part.key}, {mark.part.asks} ({mark.part.marks} mark{plural})"
            lines.append(f"  {part}: {verdict}")
        return "\n".join(lines)


def grade(exercise: Exercise, answer: Mapping[str, Any] | ModuleType) -> Grade:
    """Mark every part; a missing value is a wrong part, a judge's own error too."""
    marks = []
    for part in exercise.parts:
        value = (
            answer.get(part.key) if isinstance(answer, Mapping) else getattr(answer, part.key, None)
        )
        if value is None:
            marks.append(Mark(part, "no answer given"))
            continue
        try:
            wrong = part.judge(value)
        except TruthError:
            raise  # the package failed to compute the truth: an error, not a wrong answer
        except Exception as error:  # the student's code raised: that part is wrong
            wrong = f"{type(error).__name__}: {error}"
        marks.append(Mark(part, wrong))
    return Grade(exercise, marks)


def read_answer(exercise: Exercise, path: str | Path) -> Mapping[str, Any] | ModuleType:
    """The answer file: TOML values, or a Python module for an exercise asking for code."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    if exercise.file == "py":
        if path.suffix != ".py":
            raise UsageError(f"exercise {exercise.number} takes a Python file (.py), not {path}")
        return _load_module(path)
    try:
        values = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: not a TOML answer file ({error})") from None
    unknown = sorted(set(values) - {part.key for part in exercise.parts})
    if unknown:
        asked = ", ".join(part.key for part in exercise.parts)
        raise UsageError(
            f"{path}: exercise {exercise.number} asks for {asked}, not {', '.join(unknown)}"
        )
    return values


def _load_module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"answer_{uuid.uuid4().hex}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise UsageError(f"{path} does not run: {type(error).__name__}: {error}") from None
    return module


class TruthError(RuntimeError):
    """The package could not compute a part's truth: the check fails, the student is not
    told that the answer is wrong."""


def truth(compute: Callable[..., Any], *args: Any) -> Any:
    """``compute(*args)``, a figure the answer is marked against; its failure a TruthError."""
    try:
        return compute(*args)
    except Exception as error:
        raise TruthError(f"the check could not compute its figure: {error!r}") from error


def equals(compute: Callable[[], Any]) -> Judge:
    """A judge that compares with ``compute()`` (computed once), lists and tuples alike."""
    known = cache(compute)

    def judge(value: Any) -> str | None:
        expected = _plain(truth(known))
        if type(_plain(value)) is not type(expected):
            return f"expected {_shape(expected)}"
        return None if _plain(value) == expected else "not this value"

    return judge


def figure(value: int | None) -> int:
    """A figure the package computed for a truth (an optimum, a count); never None."""
    if value is None:
        raise RuntimeError("the package gave no figure for this part's truth")
    return int(value)


def _plain(value: Any) -> Any:
    """Tuples as lists, all the way down, so TOML's arrays compare with Python's tuples."""
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


def _shape(value: Any) -> str:
    names = {bool: "true or false", int: "a whole number", str: "a string", list: "a list"}
    return names.get(type(value), type(value).__name__)
