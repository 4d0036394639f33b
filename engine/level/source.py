"""Reading a level's files safely: the one place that touches the file system for map, tileset, template
and world files, hand-written because neither pytmx nor pytiled-parser bounds what it reads.

* Only regular files are read (a directory, ``/dev/zero``, a FIFO are refused by what they are, not by the
  size ``stat()`` reports, which is 0 for devices), and no more than :data:`MAX_FILE_BYTES` of them.
* XML: a ``<!DOCTYPE>`` naming an external DTD (older Tiled wrote ``map.dtd`` ones) is accepted, entity
  declarations are refused (no "billion laughs" expansion), an encoding Python does not know is a clear
  error, and element nesting is bounded before anything recurses over the tree.
* JSON: parsed by the standard library (its C scanner stops at the recursion limit), then nesting is
  bounded the same way.
"""

from __future__ import annotations

import codecs
import json
import re
import stat
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from .model import MAX_DEPTH, MAX_FILE_BYTES, LevelError

__all__ = ["path_kind", "read_bytes", "read_json", "read_xml", "resolve_name"]

_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def resolve_name(base: Path, name: str, where: str) -> Path:
    """``base / name`` made absolute; a name no file system accepts (too long, a NUL byte) is an error."""
    try:
        return (base / name).resolve()
    except (OSError, ValueError, RuntimeError):
        raise LevelError(f"{where}: {name[:60]!r} is not a usable file name") from None


def path_kind(path: Path) -> str:
    """``"file"`` (a regular file), ``"folder"``, ``"other"`` (a device, FIFO, socket) or ``"missing"``
    (including names the file system refuses)."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return "missing"
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def read_bytes(path: Path, what: str) -> bytes:
    """The bytes of a regular file, at most :data:`MAX_FILE_BYTES` of them (more is an error)."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        raise LevelError(f"{path}: {what} not found") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a device, FIFO or socket)"
        raise LevelError(f"{path}: {what} is {kind}")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise LevelError(f"{path}: {what} cannot be read ({error.strerror or error})") from None
    if len(data) > MAX_FILE_BYTES:
        raise LevelError(f"{path}: {what} is larger than {MAX_FILE_BYTES} bytes; not read")
    return data


def read_xml(path: Path, what: str) -> ET.Element:
    """Parse an XML file within bounds (see the module docstring)."""
    data = read_bytes(path, what)
    declared = _ENCODING.match(data[:200])
    if declared:
        name = declared.group(1).decode("ascii")
        try:
            codecs.lookup(name)
        except LookupError:
            raise LevelError(f"{path}: {what} declares the unknown text encoding {name!r}; save it as UTF-8") from None
    # An internal DTD subset is where entities are declared; a DOCTYPE naming only an external DTD is harmless
    # (expat does not fetch it). Searching the whole file costs one pass and catches entities anywhere.
    if b"<!ENTITY" in data or re.search(rb"<!DOCTYPE[^>\[]*\[", data[:65536]):
        raise LevelError(f"{path}: {what} declares entities; Tiled never writes those, refusing to expand them")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        raise LevelError(f"{path}: {what} is not well-formed XML ({error})") from None
    except (LookupError, ValueError, UnicodeError) as error:
        raise LevelError(f"{path}: {what} cannot be decoded ({error})") from None
    _check_depth_xml(root, path, what)
    return root


def _check_depth_xml(root: ET.Element, path: Path, what: str) -> None:
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise LevelError(f"{path}: {what} nests elements more than {MAX_DEPTH} deep (groups inside groups?)")
        stack.extend((child, depth + 1) for child in node)


def read_json(path: Path, what: str) -> Any:
    """Parse a JSON file within bounds: size, nesting depth, and only finite numbers."""
    data = read_bytes(path, what)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LevelError(f"{path}: {what} is not UTF-8 text ({error.reason} at byte {error.start})") from None
    def no_constant(name: str) -> float:
        raise LevelError(f"{path}: {what} contains {name}, which is not a number JSON allows")

    try:
        value = json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as error:
        raise LevelError(f"{path}: {what} is not valid JSON ({error.msg} at line {error.lineno})") from None
    except RecursionError:  # the C scanner stops at the interpreter's recursion limit
        raise LevelError(f"{path}: {what} nests values more than {MAX_DEPTH} deep") from None
    _check_depth_json(value, path, what)
    return value


def _check_depth_json(value: Any, path: Path, what: str) -> None:
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise LevelError(f"{path}: {what} nests values more than {MAX_DEPTH} deep")
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values() if isinstance(child, (dict, list)))
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node if isinstance(child, (dict, list)))
