"""Live reload: notice when a level, or a tileset, template or image it uses, is saved (from Tiled or a
paint program).

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

_XML_REFERENCE = re.compile(rb'(?:source|template)="([^"]+)"')
_JSON_REFERENCE = re.compile(rb'"(?:source|template|image)"\s*:\s*"((?:[^"\\]|\\.)+)"')
_WATCHED = (".tsx", ".tx", ".tsj", ".tj", ".json", ".png", ".gif", ".jpg", ".jpeg", ".bmp", ".webp")
"""What a map's references may name that the watcher follows: tilesets, templates and images."""
_FOLLOWED = (".tsx", ".tx", ".tsj", ".tj", ".json")
"""Referenced files whose own references (a tileset's image, a template's tileset) are followed too."""


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
        """The level file, every tileset and template it names (``.tsx`` / ``.tx`` or JSON ``.tsj`` / ``.tj``),
        and every image those or the map name (tilesets' sheets and tiles, image layers)."""
        found = [self.path]
        seen = {self.path.resolve()}
        for current in found:  # (grows as references are found: a tileset's image, a template's tileset)
            if current != self.path and current.suffix.lower() not in _FOLLOWED:
                continue
            for target in _references(current):
                if target not in seen:
                    seen.add(target)
                    found.append(target)
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


def _references(path: Path) -> list[Path]:
    """The tilesets, templates and images a Tiled file (XML or JSON) names, resolved from its folder."""
    try:
        text = path.read_bytes()
    except OSError:
        return []
    names = _JSON_REFERENCE.findall(text) if text.lstrip()[:1] in (b"{", b"[") else _XML_REFERENCE.findall(text)
    out = []
    for ref in names:
        name = ref.decode("utf-8", "replace").replace("\\/", "/")
        if name.lower().endswith(_WATCHED):
            out.append((path.parent / name).resolve())
    return out
