"""Live reload: notice when a level, or a tileset or template it uses, is saved (from Tiled).

Polling file modification times is enough (a handful of files, checked a few times a second) and works the
same on every platform, with no extra dependency. The game calls :meth:`LevelWatcher.poll` once a frame;
it looks at the disk at most every ``interval`` seconds and answers ``True`` once per change, after the
file has stopped changing (Tiled writes a file in one go, but editors that write in pieces are common).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

__all__ = ["LevelWatcher"]

_REFERENCE = re.compile(rb'(?:source|template)="([^"]+)"')


class LevelWatcher:
    """Watches ``path`` and the tilesets and templates it references."""

    def __init__(self, path: str | Path, interval: float = 0.25, clock=time.monotonic) -> None:
        self.path = Path(path)
        self.interval = interval
        self._clock = clock
        self._next_check = 0.0
        self._stamps = self._read_stamps()
        self._pending: dict[Path, int] | None = None

    def files(self) -> list[Path]:
        """The level file and every ``.tsx`` / ``.tx`` file it names."""
        found = [self.path]
        try:
            text = self.path.read_bytes()
        except OSError:
            return found
        for ref in _REFERENCE.findall(text):
            name = ref.decode("utf-8", "replace")
            if name.endswith((".tsx", ".tx")):
                found.append((self.path.parent / name).resolve())
        return found

    def _read_stamps(self) -> dict[Path, int]:
        stamps: dict[Path, int] = {}
        for f in self.files():
            try:
                stamps[f] = f.stat().st_mtime_ns
            except OSError:
                stamps[f] = -1
        return stamps

    def poll(self) -> bool:
        """True once after the level (or a file it uses) changed and then stayed the same for one check."""
        now = self._clock()
        if now < self._next_check:
            return False
        self._next_check = now + self.interval
        stamps = self._read_stamps()
        if stamps == self._stamps:
            self._pending = None
            return False
        if self._pending != stamps:
            self._pending = stamps  # changed since the last look: wait one more check for it to settle
            return False
        self._stamps = stamps
        self._pending = None
        return True
