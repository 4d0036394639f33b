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
