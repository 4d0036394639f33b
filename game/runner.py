"""Headless runs, input files, recordings and traces (the ``python -m game --headless`` contract).

Input files and recordings share one format: a JSON list of segments applied in order,
``[{"frames": 30, "hold": ["right", "jump"]}, ...]``; actions are ``left``, ``right``, ``up``, ``down``
and ``jump``. A trace is JSON lines, one per step (see :meth:`game.session.Session.trace`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from .session import ACTIONS

__all__ = ["InputError", "Recorder", "frames_of", "read_input"]


class InputError(ValueError):
    """A bad input file: the message names the file, the segment and what is wrong."""


def read_input(path: str | Path) -> list[tuple[int, frozenset[str]]]:
    """Read an input file into ``(frames, held actions)`` segments."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except OSError as error:
        raise InputError(f"{path}: cannot read the input file ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: must be a JSON list of segments like {{\"frames\": 30, \"hold\": [\"right\"]}}")
    segments = []
    for i, seg in enumerate(data):
        if not isinstance(seg, dict) or set(seg) - {"frames", "hold"} or "frames" not in seg:
            raise InputError(f"{path}: segment {i} must be an object with 'frames' and 'hold', got {seg!r}")
        frames = seg["frames"]
        if not isinstance(frames, int) or isinstance(frames, bool) or frames < 0:
            raise InputError(f"{path}: segment {i} 'frames' must be a whole number >= 0, got {frames!r}")
        hold = seg.get("hold", [])
        if not isinstance(hold, list) or any(a not in ACTIONS for a in hold):
            raise InputError(f"{path}: segment {i} 'hold' must list actions from {list(ACTIONS)}, got {hold!r}")
        segments.append((frames, frozenset(hold)))
    return segments


def frames_of(segments: list[tuple[int, frozenset[str]]]) -> Iterator[frozenset[str]]:
    """The held actions frame by frame; nothing held after the last segment."""
    for frames, held in segments:
        for _ in range(frames):
            yield held
    while True:
        yield frozenset()


class Recorder:
    """Collects the actions held each frame and writes them in the input-file format."""

    def __init__(self) -> None:
        self.segments: list[list] = []

    def add(self, held: frozenset[str] | set[str]) -> None:
        hold = sorted(held, key=ACTIONS.index)
        if self.segments and self.segments[-1][1] == hold:
            self.segments[-1][0] += 1
        else:
            self.segments.append([1, hold])

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps([{"frames": n, "hold": h} for n, h in self.segments], indent=1) + "\n")
