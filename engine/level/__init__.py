"""Levels from the Tiled map editor: loading, authoring conventions, seamless collision outlines.

Both readers are imported here so that each can read the other format's tilesets (see :mod:`.formats`).
"""

from . import tiled_json, tmx  # noqa: F401 - they register their readers

__all__: list[str] = []
