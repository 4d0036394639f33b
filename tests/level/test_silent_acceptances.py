"""What a level accepted without a word now gets a warning or an error naming file, layer, object and place:
a cell whose gid is past its tileset's last tile, a tileset with no image, a Spawn far outside the map, a
crate or platform larger than the map, a class with no factory (and no project file to declare it), a
``.world`` listing more maps than a world may have."""

from __future__ import annotations

import json

import pytest

from engine.level.level import MAX_WORLD_MAPS, LevelError, check_level, load_level, load_world

from .mapkit import csv_layer, map_text, objects, write_map


def messages(path, severity):
    return [str(p) for p in check_level(path) if p.severity == severity]


def test_a_cell_past_its_tileset_s_last_tile_is_reported_with_its_layer_and_place(tmp_path):
    path = write_map(tmp_path, map_text(csv_layer([[0] * 8, [0] * 8, [0, 0, 7, 0, 0, 0, 0, 0], [1] * 8])))
    found = messages(path, "warning")
    assert any("layer 'ground'" in m and "gid 7" in m and "column 2, row 2" in m for m in found), found


def test_a_tileset_without_an_image_is_reported(tmp_path):
    tsx = ('<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.10" name="blank" tilewidth="32" '
           'tileheight="32" tilecount="4" columns="4"/>\n')
    (tmp_path / "blank.tsx").write_text(tsx)
    text = map_text(csv_layer([[0] * 8, [0] * 8, [0] * 8, [5] * 8]),
                    tileset='<tileset firstgid="1" source="tiles.tsx"/><tileset firstgid="5" source="blank.tsx"/>')
    found = messages(write_map(tmp_path, text), "warning")
    assert any("tileset 'blank'" in m and "no image" in m for m in found), found


def test_a_spawn_far_outside_the_map_is_reported(tmp_path):
    body = objects('<object id="1" class="Spawn" x="10000000" y="16"><point/></object>')
    path = write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8]) + body, spawn=False))
    found = messages(path, "warning")
    assert any("Spawn" in m and "outside the map" in m and "object 1" in m for m in found), found


def test_a_crate_larger_than_the_map_is_an_error(tmp_path):
    body = objects('<object id="1" class="Crate" x="0" y="0" width="9000000" height="32"/>')
    path = write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8]) + body))
    found = messages(path, "error")
    assert any("Crate" in m and "larger than the map" in m and "object 1" in m for m in found), found
    with pytest.raises(LevelError):
        load_level(path)


def test_a_class_no_factory_builds_is_reported_when_the_world_is_built(tmp_path):
    body = objects('<object id="1" class="Lantern" x="40" y="40" width="16" height="16"/>')
    level = load_level(write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8]) + body)))
    level.build_world()
    found = [str(p) for p in level.problems if "Lantern" in p.message and "no factory" in p.message]
    assert found and "object 1" in found[0]
    level.build_world(factories={"Lantern": lambda obj, world: obj})
    assert not [p for p in level.problems if "Lantern" in p.message and "no factory" in p.message]


def test_a_world_listing_too_many_maps_is_refused_before_reading_them(tmp_path):
    write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8])))
    world = tmp_path / "big.world"
    world.write_text(json.dumps({"maps": [{"fileName": "m.tmx", "x": 256 * k, "y": 0}
                                          for k in range(MAX_WORLD_MAPS + 1)], "type": "world"}))
    with pytest.raises(LevelError, match="maps"):
        load_world(world)


@pytest.mark.parametrize("y, inside", [(96, True), (100, True), (80, False), (64, False)])
def test_a_spawn_or_crate_inside_the_ground_is_reported(tmp_path, y, inside):
    """The Spawn is the player's centre (issue 30): one placed on the grass line (y 96, Tiled's frame: the top of
    the bottom row) or in the ground puts half the player inside the solid ground; 16 px above it is fine. A
    crate whose centre is in the ground is reported too."""
    body = objects(f'<object id="1" class="Spawn" x="48" y="{y}"><point/></object>'
                   f'<object id="2" class="Crate" x="160" y="{y - 16}" width="32" height="32"/>')
    path = write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8]) + body, spawn=False))
    found = messages(path, "warning")
    spawn = [m for m in found if "object 1" in m and "inside solid" in m]
    crate = [m for m in found if "object 2" in m and "inside solid" in m]
    assert bool(spawn) == inside and bool(crate) == inside, found
    if inside:
        assert "player's centre" in spawn[0]


@pytest.mark.parametrize("bottom, sunk", [(106, True), (98, True), (96, False), (90, False)])
def test_a_crate_whose_shape_starts_in_the_ground_is_reported(tmp_path, bottom, sunk):
    """Not only its centre: a 32 px crate whose bottom edge is 2 or 10 px into the ground (its top at Tiled y 96)
    starts stuck, and would be thrown out at the first step; one resting on it or above it is fine (issue 30,
    item 7). The playground had one 8 px into the foot of a slope."""
    cls = "Crate"
    body = objects(f'<object id="2" class="{cls}" x="160" y="{bottom - 32}" width="32" height="32"/>')
    path = write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8]) + body))
    found = [m for m in messages(path, "warning") if "object 2" in m and "inside solid" in m]
    assert bool(found) == sunk, found
    if sunk:
        assert cls in found[0] and f"{bottom - 96:g} px" in found[0]


@pytest.mark.parametrize("cls", ["Crate", "MovingPlatform"])
def test_a_crate_or_platform_outside_the_map_is_reported(tmp_path, cls):
    body = objects(f'<object id="2" class="{cls}" x="400" y="20" width="32" height="32"/>')
    path = write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8]) + body))
    found = [m for m in messages(path, "warning") if "object 2" in m and "outside the map" in m]
    assert found and cls in found[0], messages(path, "warning")


@pytest.mark.parametrize("top, rise, stuck", [(100, None, True), (112, 8, True), (80, None, False),
                                              (112, 64, False), (100, 48, False)])
def test_a_moving_platform_stuck_in_the_ground_is_reported(tmp_path, top, rise, stuck):
    """A MovingPlatform whose shape starts in the solid ground and is still in it at every point of its path
    (or that has no path) can carry nothing: reported (issue 30, item 7). A lift that starts in its shaft, flush
    with the floor or partly in it, and rises out of it (the shipped levels' lifts) is not. The platform is
    64 x 16 px, its top at Tiled y ``top`` (the ground's top is at 96); its path rises ``rise`` px."""
    path_ref = '<properties><property name="path" type="object" value="3"/></properties>' if rise else ""
    body = objects(f'<object id="2" class="MovingPlatform" x="96" y="{top}" width="64" height="16">{path_ref}'
                   f'</object>'
                   f'<object id="3" x="128" y="{top + 8}"><polyline points="0,0 0,{-(rise or 0)}"/></object>')
    path = write_map(tmp_path, map_text(csv_layer([[0] * 8] * 3 + [[1] * 8]) + body))
    found = [m for m in messages(path, "warning") if "object 2" in m and "inside solid" in m]
    assert bool(found) == stuck, messages(path, "warning")
    if stuck:
        assert "MovingPlatform" in found[0] and "path" in found[0]
