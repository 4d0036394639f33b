"""One property model for TMX and JSON: every shipped level, exported to JSON by Tiled itself (``tiled
--export-map``), loads as the TMX does: the same objects with the same classes, places and properties (an
object reference as the referenced LevelObject, a float property as a float), the same collision.

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
        subprocess.run(["tiled", "--export-map", "json", str(folder / "levels" / level.name),
                        str(folder / "levels" / f"{level.stem}.json")], check=True, env=env, capture_output=True,
                       timeout=120)
    return folder / "levels"


def _value(value):
    """A property value as compared: a referenced object by its id, every other value with its type."""
    if isinstance(value, LevelObject):
        return ("object", value.id)
    return (type(value).__name__, value)


@pytest.mark.parametrize("level_path", LEVELS, ids=[p.stem for p in LEVELS])
def test_tiled_s_json_export_loads_as_the_tmx_does(exported, level_path):
    from_tmx = load_level(level_path)
    from_json = load_level(exported / f"{level_path.stem}.json")
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
