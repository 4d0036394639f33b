"""One property model for TMX and JSON, and a round trip through the installed Tiled: every shipped level,
exported by Tiled itself (``tiled --export-map``) to JSON and saved again as TMX, loads as the original does:
the same objects with the same classes, places and properties (an object reference as the referenced
LevelObject, a float property as a float), the same collision. With Tiled 1.8 (Debian 12, Ubuntu 22.04) this
also shows that its load and save keep every object's class.

Skipped, with a notice, where Tiled is not installed (``apt-get install -y tiled``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.level.level import load_level
from engine.level.objects import LevelObject

ROOT = Path(__file__).resolve().parents[2]
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    if shutil.which("tiled") is None:
        pytest.skip("Tiled is not installed (apt-get install -y tiled): the JSON export round trip is not checked")
    folder = tmp_path_factory.mktemp("export")
    shutil.copytree(ROOT / "levels", folder / "levels")
    shutil.copytree(ROOT / "assets", folder / "assets")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for level in LEVELS:
        for form, suffix in (("json", ".json"), ("tmx", "_resaved.tmx")):
            subprocess.run(["tiled", "--export-map", form, str(folder / "levels" / level.name),
                            str(folder / "levels" / f"{level.stem}{suffix}")], check=True, env=env,
                           capture_output=True, timeout=120)
    return folder / "levels"


def _value(value):
    """A property value as compared: a referenced object by its id, every other value with its type."""
    if isinstance(value, LevelObject):
        return ("object", value.id)
    return (type(value).__name__, value)


@pytest.mark.parametrize("suffix", [".json", "_resaved.tmx"])
@pytest.mark.parametrize("level_path", LEVELS, ids=[p.stem for p in LEVELS])
def test_tiled_s_export_loads_as_the_shipped_level_does(exported, level_path, suffix):
    from_tmx = load_level(level_path)
    from_json = load_level(exported / f"{level_path.stem}{suffix}")
    assert len(from_json.objects) == len(from_tmx.objects) > 0
    for ours, theirs in zip(from_tmx.objects, from_json.objects):
        assert (theirs.id, theirs.cls, theirs.kind, theirs.size) == (ours.id, ours.cls, ours.kind, ours.size)
        assert theirs.position == pytest.approx(ours.position)
        assert {k: _value(v) for k, v in theirs.properties.items()} == \
            {k: _value(v) for k, v in ours.properties.items()}, f"object {ours.id} ({ours.cls})"
    assert from_json.solid_rings == from_tmx.solid_rings
    assert from_json.one_way == from_tmx.one_way
    assert from_json.spawn == from_tmx.spawn
    assert [str(p) for p in from_json.problems if p.severity == "error"] == []
