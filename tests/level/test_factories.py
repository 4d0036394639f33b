"""Game objects from Tiled: factories registered by the game, LevelObjects, and a project file's classes.

A game maps Tiled class names to factories; every object of that class reaches its factory in map order,
converted to the engine frame, with typed properties and object references resolved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import LevelError, LevelObject, RigidBody, World, WorldError, load_level
from engine.level.cli import main as ledgekit
from engine.level.level import check_level
from tests.level.mapkit import map_text, objects, write_map

ENEMIES = objects(
    '<object id="1" name="a" class="Enemy" x="40" y="60" width="20" height="10">'
    '<properties><property name="speed" type="float" value="80"/><property name="angry" type="bool" value="true"/>'
    '<property name="friend" type="object" value="2"/></properties></object>'
    '<object id="2" name="b" class="Enemy" x="100" y="20"><point/></object>'
    '<object id="3" name="box" class="Crate" x="150" y="60" width="32" height="32"/>'
)


def test_a_factory_gets_every_object_of_its_class_in_map_order(tmp_path):
    level = load_level(write_map(tmp_path, map_text(ENEMIES)))
    seen: list[LevelObject] = []

    def enemy(obj: LevelObject, world: World) -> str:
        seen.append(obj)
        return f"enemy {obj.name}"

    world = level.build_world(factories={"Enemy": enemy})
    assert [o.id for o in seen] == [1, 2]
    a, b = seen
    assert a.position == pytest.approx((50.0, 128 - 65.0)) and a.size == (20.0, 10.0)  # centre, y up (map 128 px)
    assert a.shape is not None and a.shape.local_aabb.width == pytest.approx(20.0)
    assert a.properties["speed"] == 80.0 and a.properties["angry"] is True
    assert a.properties["friend"] is b  # the object reference, resolved
    assert b.shape is None and b.position == pytest.approx((100.0, 108.0))
    assert level.built == [(a, "enemy a"), (b, "enemy b")]
    assert len(world.bodies) == 1 and isinstance(world.bodies[0].user_data, LevelObject)  # the built-in crate


def test_a_factory_replaces_a_built_in_class(tmp_path):
    level = load_level(write_map(tmp_path, map_text(ENEMIES)))
    made = []
    world = level.build_world(factories={"Crate": lambda obj, world: made.append(obj.id) or world.add_body(
        RigidBody(obj.shape, obj.position, density=5.0, user_data=obj))})
    assert made == [3] and len(world.bodies) == 1 and world.bodies[0].density == 5.0


def test_a_factory_error_names_the_file_and_the_object(tmp_path):
    level = load_level(write_map(tmp_path, map_text(ENEMIES)))

    def picky(obj, world):
        raise WorldError(f"speed {obj.properties.get('speed')!r} is too fast")

    with pytest.raises(LevelError, match=r"m\.tmx: layer 'things', object 1 'a' \(Enemy\): speed 80\.0 is too fast"):
        level.build_world(factories={"Enemy": picky})


# ------------------------------------------------------------------------------------------------ project file
def project(folder, classes: dict[str, list[tuple[str, str]]]):
    types = [{"id": i + 1, "name": name, "type": "class", "useAs": ["object"],
              "members": [{"name": m, "type": t, "value": 0} for m, t in members]}
             for i, (name, members) in enumerate(classes.items())]
    (folder / "game.tiled-project").write_text(json.dumps({"propertyTypes": types, "folders": ["."]}))


def test_with_a_project_file_a_class_typo_is_an_error_with_a_suggestion(tmp_path):
    project(tmp_path, {"Spawn": [], "Crate": [], "Enemy": [("speed", "float")]})
    body = objects('<object id="1" class="crate" x="40" y="40" width="32" height="32"/>'
                   '<object id="2" class="Dragon" x="100" y="40" width="32" height="32"/>')
    problems = {p.object_id: p for p in check_level(write_map(tmp_path, map_text(body)))}
    assert problems[1].severity == "error" and "did you mean `Crate`?" in problems[1].message
    assert problems[2].severity == "error" and "unknown class 'Dragon'" in problems[2].message
    assert "game.tiled-project" in problems[2].message


def test_with_a_project_file_property_types_are_checked_and_the_bad_one_is_named(tmp_path):
    project(tmp_path, {"Spawn": [], "Enemy": [("speed", "float"), ("angry", "bool")]})
    body = objects('<object id="1" class="Enemy" x="40" y="40"><point/><properties>'
                   '<property name="speed" value="fast"/><property name="angry" type="bool" value="true"/>'
                   '</properties></object>')
    errors = [p for p in check_level(write_map(tmp_path, map_text(body))) if p.severity == "error"]
    assert len(errors) == 1 and "property speed = 'fast' must be a number" in errors[0].message
    assert errors[0].object_id == 1


def test_a_bad_platform_speed_is_reported_against_speed_not_path(tmp_path):
    body = objects('<object id="1" class="MovingPlatform" x="40" y="40" width="64" height="16"><properties>'
                   '<property name="path" type="object" value="2"/><property name="speed" value="fast"/>'
                   '</properties></object><object id="2" x="40" y="40"><polyline points="0,0 100,0"/></object>')
    errors = [p.message for p in check_level(write_map(tmp_path, map_text(body))) if p.severity == "error"]
    assert len(errors) == 1 and errors[0].startswith("MovingPlatform property speed = 'fast' must be a number of px/s")


def test_without_a_project_file_an_unknown_class_is_kept_with_a_warning(tmp_path):
    level = load_level(write_map(tmp_path, map_text(ENEMIES)))
    warnings = [p for p in level.problems if p.severity == "warning"]
    assert {p.object_id for p in warnings} == {1, 2} and all("factory" in p.message for p in warnings)
    assert [o.cls for o in level.objects] == ["Enemy", "Enemy", "Crate", "Spawn"]


def test_ledgekit_check_uses_the_project_file(tmp_path, capsys):
    project(tmp_path, {"Spawn": [], "Crate": []})
    write_map(tmp_path, map_text(objects('<object id="1" class="Crte" x="40" y="40" width="32" height="32"/>')))
    assert ledgekit(["check", str(tmp_path)]) == 1
    assert "did you mean `Crate`?" in capsys.readouterr().out


def test_the_shipped_project_declares_every_class_the_engine_builds():
    from engine.level.level import BLOCK_CLASSES, CLASSES
    from engine.level.project import read_project
    from engine.play import standard_factories

    declared = read_project(Path(__file__).resolve().parents[2] / "levels" / "ledgekit.tiled-project").classes
    assert set(CLASSES) | set(BLOCK_CLASSES) <= set(declared)
    assert set(standard_factories()) == set(BLOCK_CLASSES)
