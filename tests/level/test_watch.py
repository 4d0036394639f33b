"""Live reload: a saved level is noticed within a second."""

import os
import shutil
from pathlib import Path

from engine.level.watch import LevelWatcher

FIXTURES = Path(__file__).parent / "fixtures"


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def copy_level(tmp_path):
    for name in ("conventions.tmx", "tiles.tsx", "tiles.png"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    return tmp_path / "conventions.tmx"


def touch(path, seconds):
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + int(seconds * 1e9)))


def run_until_noticed(watcher, clock, limit=2.0, frame=1 / 60):
    while clock.now < limit:
        clock.now += frame
        if watcher.poll():
            return clock.now
    return None


def test_saving_the_map_is_noticed_within_a_second(tmp_path):
    level = copy_level(tmp_path)
    clock = Clock()
    watcher = LevelWatcher(level, clock=clock)
    assert run_until_noticed(watcher, clock, limit=1.0) is None  # nothing changed: no reload
    start = clock.now
    touch(level, 1)
    noticed = run_until_noticed(watcher, clock, limit=start + 2.0)
    assert noticed is not None and noticed - start <= 1.0
    assert run_until_noticed(watcher, clock, limit=clock.now + 1.0) is None  # once per change


def test_saving_the_tileset_is_noticed_too(tmp_path):
    level = copy_level(tmp_path)
    clock = Clock()
    watcher = LevelWatcher(level, clock=clock)
    assert tmp_path / "tiles.tsx" in watcher.files()
    touch(tmp_path / "tiles.tsx", 1)
    assert run_until_noticed(watcher, clock) is not None


def test_saving_the_tileset_image_is_noticed_too(tmp_path):
    level = copy_level(tmp_path)
    clock = Clock()
    watcher = LevelWatcher(level, clock=clock)
    assert (tmp_path / "tiles.png").resolve() in watcher.files()
    touch(tmp_path / "tiles.png", 1)
    assert run_until_noticed(watcher, clock) is not None


def test_a_json_map_s_json_tileset_template_and_images_are_watched(tmp_path):
    import json

    (tmp_path / "art").mkdir()
    for name in ("tiles.png", "sky.png"):
        (tmp_path / "art" / name).write_bytes(b"png")
    (tmp_path / "t.tsj").write_text(json.dumps({"type": "tileset", "image": "art/tiles.png", "tilewidth": 32}))
    (tmp_path / "crate.tj").write_text(json.dumps({"type": "template", "object": {"width": 32}}))
    (tmp_path / "m.tmj").write_text(json.dumps({
        "type": "map", "tilesets": [{"firstgid": 1, "source": "t.tsj"}],
        "layers": [{"type": "imagelayer", "image": "art/sky.png"},
                   {"type": "objectgroup", "objects": [{"id": 1, "template": "crate.tj"}]}]}))
    clock = Clock()
    watcher = LevelWatcher(tmp_path / "m.tmj", clock=clock)
    watched = set(watcher.files())
    for name in ("t.tsj", "crate.tj", "art/tiles.png", "art/sky.png"):
        assert (tmp_path / name).resolve() in watched, name
    touch(tmp_path / "art" / "tiles.png", 1)
    assert run_until_noticed(watcher, clock) is not None
