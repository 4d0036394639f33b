"""Authoring conventions: a map becomes the engine's world (y-up), and broken maps are reported."""

import subprocess
import sys
from pathlib import Path

import pytest

from engine.level.cli import main as ledgekit
from engine.level.level import LevelError, check_level, load_level
from engine.platformer import PlatformerController, PlatformerInput

FIXTURES = Path(__file__).parent / "fixtures"
MAP_H = 10 * 32


@pytest.fixture(scope="module")
def level():
    return load_level(FIXTURES / "conventions.tmx")


def test_map_properties(level):
    assert level.gravity == 1600.0 and level.segment_radius == 1.5
    assert (level.width, level.height) == (640.0, 320.0)


def test_spawn_is_converted_to_the_y_up_frame(level):
    assert level.spawn == (48.0, MAP_H - 240.0)


def test_the_tile_ground_is_one_outline_with_the_slope_in_it(level):
    ground = [r for r in level.solid_rings if any(y == 0.0 for _, y in r)]
    assert len(ground) == 1
    ring = ground[0]
    assert (576.0, 64.0) in ring and (608.0, 96.0) in ring  # the 45-degree slope tile and the block after it


def test_one_way_tiles_merge_into_one_segment_and_objects_keep_theirs(level):
    tiles = [s for s in level.one_way if s[0][1] == MAP_H - 5 * 32]
    assert tiles == [((128.0, 160.0), (224.0, 160.0), (0.0, 1.0))]
    obj = [s for s in level.one_way if s[0][0] == 480.0]
    assert obj == [((480.0, 200.0), (576.0, 200.0), pytest.approx((0.0, 1.0)))]


def test_solid_objects_concave_polygons_and_polylines(level):
    concave = [r for r in level.solid_rings if (320.0, MAP_H - 160.0) in r]
    assert len(concave) == 1 and len(concave[0]) == 5
    assert level.solid_chains == [[(420.0, 120.0), (460.0, 140.0), (500.0, 120.0)]]


def test_entities_with_their_properties(level):
    kinds = sorted(e.kind for e in level.entities)
    assert kinds == ["checkpoint", "crate", "goal", "hazard", "pickup", "platform", "spawn"]
    crate = level.of_kind("crate")[0]
    assert crate.position == (116.0, MAP_H - 240.0)  # the centre of the 32 px box at y = 224..256
    assert crate.properties == {"density": 0.5, "friction": 0.6, "restitution": 0.2}
    platform = level.of_kind("platform")[0]
    path = platform.properties["_path"]
    assert path.mode == "pingpong" and path.speed == 80.0
    assert list(path.points) == [(232.0, MAP_H - 208.0), (232.0, MAP_H - 112.0)]
    assert level.of_kind("pickup")[0].properties["kind"] == "gem"


def test_the_built_world_runs_the_hero_from_the_spawn_onto_the_ground(level):
    world = level.build_world()
    assert world.gravity == (0.0, -1600.0)
    assert len(world.bodies) == 1 and len(world.kinematic_bodies) == 1 and len(world.sensors) == 4
    hero = world.add_character(__import__("engine.geometry", fromlist=["RoundedPolygon"]).RoundedPolygon.box(10, 16, 2),
                               level.spawn)
    controller = PlatformerController(hero)
    for _ in range(90):
        controller.update(PlatformerInput(), 1 / 60)
        world.step(1 / 60)
    # It stands on the drawn ground (y 64) within the mover's skin (0.5 px), not a segment radius above it.
    assert hero.on_floor and 64 + 16 - 1e-9 <= hero.position[1] <= 64 + 16 + 0.5


def test_problems_name_file_layer_object_and_position():
    problems = {p.object_id: p for p in check_level(FIXTURES / "problems.tmx") if p.object_id is not None}
    # Without a project file, a class the engine does not build is kept for the game's factories, with a warning.
    assert "class 'Dragon'" in problems[3].message and "factory" in problems[3].message
    assert problems[3].severity == "warning"
    assert "not convex" in problems[4].message and problems[4].severity == "error"
    assert "points to object 99" in problems[5].message
    assert "too small" in problems[6].message
    assert "more than one Spawn" in problems[2].message
    text = str(problems[5])
    assert "problems.tmx" in text and "layer 'things'" in text and "object 5 'lost'" in text and "at (220, 95)" in text
    assert any("next_level 'missing.tmx'" in p.message for p in check_level(FIXTURES / "problems.tmx"))


def test_load_level_refuses_a_map_with_errors():
    with pytest.raises(LevelError, match="problems.tmx: 5 error"):
        load_level(FIXTURES / "problems.tmx")


def test_missing_spawn_is_an_error(tmp_path):
    text = (FIXTURES / "conventions.tmx").read_text().replace('class="Spawn"', 'class="Checkpoint"')
    path = tmp_path / "nospawn.tmx"
    path.write_text(text)
    (tmp_path / "tiles.tsx").write_text((FIXTURES / "tiles.tsx").read_text())
    (tmp_path / "tiles.png").write_bytes((FIXTURES / "tiles.png").read_bytes())
    assert any("no Spawn" in p.message for p in check_level(path))


def test_missing_tileset_image_is_an_error(tmp_path):
    (tmp_path / "tiles.tsx").write_text((FIXTURES / "tiles.tsx").read_text())
    path = tmp_path / "m.tmx"
    path.write_text((FIXTURES / "conventions.tmx").read_text())
    assert any("image 'tiles.png' not found" in p.message for p in check_level(path))


def test_cli_exit_codes_and_output(capsys):
    assert ledgekit(["check", str(FIXTURES / "conventions.tmx")]) == 0
    assert "ok:" in capsys.readouterr().out
    assert ledgekit(["check", str(FIXTURES)]) == 1
    out = capsys.readouterr().out
    assert "object 4 'bent'" in out and "5 map(s) checked: 5 error(s), 1 warning(s)" in out


def test_cli_is_installed_as_the_ledgekit_console_script():
    exe = Path(sys.executable).parent / "ledgekit"
    if not exe.exists():
        pytest.skip("the package is not installed in this environment (pip install -e .)")
    done = subprocess.run([str(exe), "check", str(FIXTURES / "conventions.tmx")], capture_output=True, text=True)
    assert done.returncode == 0 and "0 error(s)" in done.stdout


def test_the_tiled_project_declares_every_class_the_loader_knows():
    import json

    project = json.loads((Path(__file__).parents[2] / "levels" / "ledgekit.tiled-project").read_text())
    declared = {t["name"]: t for t in project["propertyTypes"] if t["type"] == "class"}
    from engine.level.level import CLASSES

    assert set(CLASSES) <= set(declared)
    assert {m["name"] for m in declared["Crate"]["members"]} == {"density", "friction", "restitution"}
    assert {m["name"] for m in declared["MovingPlatform"]["members"]} == {"path", "speed", "mode", "one_way"}
    assert {m["name"] for m in declared["LedgekitMap"]["members"]} == {"gravity", "segment_radius", "next_level"}
