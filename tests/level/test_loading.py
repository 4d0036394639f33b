"""Maps Tiled (old and new) writes load: DOCTYPEs, tilesets without tilecount, class-typed properties; maps the
engine cannot play (isometric, staggered, hexagonal) are refused with a reason."""

import pytest

from engine.level.level import LevelError, load_level
from engine.level.tmx import read_map

from .mapkit import csv_layer, map_text, objects, write_map

FLOOR = [[0] * 8, [0] * 8, [0] * 8, [1] * 8]


def test_an_old_map_with_a_doctype_naming_the_dtd_loads(tmp_path):
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n'
    level = load_level(write_map(tmp_path, map_text(csv_layer(FLOOR), head=head)))
    assert level.solid_rings  # the floor is there


def test_a_doctype_declaring_entities_is_still_refused(tmp_path):
    head = '<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY x "y">]>\n'
    with pytest.raises(LevelError, match="m.tmx: map declares entities"):
        load_level(write_map(tmp_path, map_text(csv_layer(FLOOR), head=head)))


def test_a_tileset_without_tilecount_loads_and_its_tiles_collide(tmp_path):
    tileset = ('<tileset firstgid="1" name="old" tilewidth="32" tileheight="32">'
               '<image source="tiles.png" width="128" height="32"/>'
               '<tile id="3"><objectgroup><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>'
               "</tileset>")
    floor = [[0] * 8, [0] * 8, [0] * 8, [4] * 8]
    level = load_level(write_map(tmp_path, map_text(csv_layer(floor), tileset=tileset)))
    assert level.tmx.tilesets[0].tilecount == 4  # the 128 x 32 image holds four 32 px tiles
    assert [sorted(set(y for _, y in ring)) for ring in level.solid_rings] == [[0.0, 32.0]]


def test_class_typed_properties_load_as_nested_values(tmp_path):
    props = ('<properties><property name="weather" type="class" propertytype="Weather">'
             '<properties><property name="wind" type="float" value="2.5"/>'
             '<property name="rain" type="bool" value="true"/></properties></property>'
             '<property name="gravity" type="float" value="1200"/></properties>')
    crate = ('<object id="5" class="Crate" x="64" y="64" width="32" height="32"><properties>'
             '<property name="look" type="class" propertytype="Look"><properties>'
             '<property name="tint" type="color" value="#ff00ff00"/></properties></property>'
             "</properties></object>")
    level = load_level(write_map(tmp_path, map_text(csv_layer(FLOOR) + objects(crate), props=props)))
    assert level.properties["weather"] == {"wind": 2.5, "rain": True}
    assert level.gravity == 1200.0
    assert level.of_kind("crate")[0].source.properties["look"] == {"tint": "#ff00ff00"}


@pytest.mark.parametrize("orientation", ["isometric", "staggered", "hexagonal"])
def test_non_orthogonal_maps_are_refused_with_the_orientation_named(tmp_path, orientation):
    attrs = f'orientation="{orientation}" staggeraxis="y" staggerindex="odd" hexsidelength="8"'
    path = write_map(tmp_path, map_text(csv_layer(FLOOR), attrs=attrs))
    with pytest.raises(LevelError, match=f"m.tmx: {orientation} maps are not supported, only orthogonal"):
        read_map(path)


def test_the_oldest_xml_tile_data_still_loads(tmp_path):
    cells = "".join(f'<tile gid="{g}"/>' for row in FLOOR for g in row)
    layer = f'<layer id="1" name="ground" width="8" height="4"><data>{cells}</data></layer>'
    level = load_level(write_map(tmp_path, map_text(layer)))
    assert [sorted(set(y for _, y in ring)) for ring in level.solid_rings] == [[0.0, 32.0]]


def test_loading_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    """The loader holds Python's collector off while it builds a map's outlines (millions of tuples on a big map,
    no cycles): afterwards it runs again, or stays off when the game had turned it off, even when the map is
    refused."""
    import gc

    good = write_map(tmp_path, map_text(csv_layer(FLOOR)))
    bad = write_map(tmp_path, map_text(csv_layer(FLOOR), attrs='orientation="isometric"'), name="bad.tmx")
    assert gc.isenabled()
    load_level(good)
    assert gc.isenabled()
    with pytest.raises(LevelError):
        load_level(bad)
    assert gc.isenabled()
    gc.disable()
    try:
        load_level(good)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_world_gets_each_outline_chain_and_one_way_segment_in_order(tmp_path):
    """build_world adds the collision's rings, open chains and one-way segments in a few calls: the world's
    segments are those a chain at a time gives, in the same order, with the same radius and one-way sides."""
    import numpy as np

    from engine.world import World

    rows = [[0, 0, 0, 0, 0, 0, 0, 0], [0, 4, 4, 0, 0, 4, 0, 0], [0, 0, 0, 2, 1, 0, 0, 3], [1, 1, 1, 1, 1, 1, 0, 1]]
    line = '<object id="5" class="Solid" x="20" y="10"><polyline points="0,0 40,0 60,20"/></object>'
    level = load_level(write_map(tmp_path, map_text(csv_layer(rows) + objects(line))))
    collision = level.collision
    assert collision.rings and collision.chains and collision.one_way  # (every kind is there)
    expected = World()
    for ring in collision.rings:
        expected.add_chain(ring, collision.radius, closed=True)
    for chain in collision.chains:
        expected.add_chain(chain, collision.radius, closed=False)
    for a, b, direction in collision.one_way:
        expected.add_segments([a], [b], collision.radius, one_way=direction)
    built = level.build_world()
    ours, theirs = built.static, expected.static
    assert len(ours) == len(theirs)
    for name in ("a", "b", "radius"):
        assert np.array_equal(getattr(ours.broadphase, name), getattr(theirs.broadphase, name))
    assert [ours.collider(i).one_way for i in range(len(ours))] == \
        [theirs.collider(i).one_way for i in range(len(theirs))]
