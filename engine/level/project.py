"""A Tiled project file's custom types, and the checks of a map's objects against them.

When a map's folder (or one above it) holds a ``*.tiled-project`` file, the object classes it declares are
the classes the level may use: an object of another class is an error (with a "did you mean" for a typo),
and every property an object sets is checked against the type its class declares for it. Without a
project file, the built-in classes are known and any other class is kept for the game's factories (with a
warning).
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .model import LevelError
from .source import read_json

__all__ = ["ClassType", "Project", "find_project", "read_project"]

_SEARCH_DEPTH = 8
"""How many folders up from a map a project file is looked for."""


@dataclass(frozen=True)
class ClassType:
    """A class declared in the project: its members (property name -> (Tiled type, enum name or ``""``))."""

    name: str
    members: dict[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Project:
    """The object classes and enums a project file declares."""

    path: Path
    classes: dict[str, ClassType]
    enums: dict[str, tuple[str, ...]]

    def suggestion(self, name: str) -> str:
        """`` (did you mean `X`?)`` for the declared class closest to ``name``, or ``""``."""
        lowered = {c.lower(): c for c in self.classes}
        if name.lower() in lowered:
            return f" (did you mean `{lowered[name.lower()]}`?)"
        close = difflib.get_close_matches(name, list(self.classes), n=1, cutoff=0.6)
        return f" (did you mean `{close[0]}`?)" if close else ""

    def property_problem(self, cls: str, name: str, value: Any) -> str | None:
        """What is wrong with property ``name`` = ``value`` of an object of class ``cls``, or ``None``."""
        declared = self.classes.get(cls)
        if declared is None or name not in declared.members:
            return None
        kind, enum = declared.members[name]
        if enum and enum in self.enums:
            allowed = self.enums[enum]
            if str(value) not in allowed:
                return f"property {name} = {value!r} must be one of {', '.join(allowed)}"
            return None
        expected = _TYPE_CHECKS.get(kind)
        if expected is not None and not expected(value):
            return f"property {name} = {value!r} must be {_TYPE_WORDS.get(kind, kind)} (its class {cls} says so)"
        return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


_TYPE_CHECKS = {
    "float": _is_number,
    "int": lambda v: _is_number(v) and float(v).is_integer(),
    "bool": lambda v: isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "color": lambda v: isinstance(v, str),
    "file": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
}
_TYPE_WORDS = {"float": "a number", "int": "a whole number", "bool": "true or false", "string": "text",
               "color": "a colour", "file": "a file", "object": "an object reference"}


def find_project(map_path: Path) -> Path | None:
    """The ``*.tiled-project`` file in the map's folder or the nearest folder above it (a few levels up)."""
    folder = map_path.resolve().parent
    for _ in range(_SEARCH_DEPTH):
        found = sorted(folder.glob("*.tiled-project"))
        if found:
            return found[0]
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def read_project(path: Path) -> Project:
    """The object classes and enums of a project file; a file that cannot be read is a :class:`LevelError`."""
    data = read_json(path, "project file")
    types = data.get("propertyTypes", []) if isinstance(data, dict) else None
    if not isinstance(types, list):
        raise LevelError(f"{path}: not a Tiled project file (no propertyTypes list)")
    classes: dict[str, ClassType] = {}
    enums: dict[str, tuple[str, ...]] = {}
    for entry in types:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        if entry.get("type") == "enum":
            enums[entry["name"]] = tuple(str(v) for v in entry.get("values", []) if isinstance(v, str))
        elif entry.get("type") == "class" and "object" in (entry.get("useAs") or ["object"]):
            members = {
                str(m["name"]): (str(m.get("type", "string")), str(m.get("propertyType", "")))
                for m in entry.get("members", []) if isinstance(m, dict) and isinstance(m.get("name"), str)
            }
            classes[entry["name"]] = ClassType(entry["name"], members)
    return Project(path, classes, enums)
