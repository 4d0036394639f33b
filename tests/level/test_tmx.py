"""The pytmx gap-filler: every object kind, templates, flips, rotation, class/type, layer order; and bad
files rejected with the file named, quickly and in bounded memory."""

import time
from pathlib import Path

import pytest

from engine.level.tmx import LevelError, read_map

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def gaps():
    return read_map(FIXTURES / "gaps.tmx")


def by_id(m, oid):
    return next(o for o in m.objects if o.id == oid)


def test_point_ellipse_and_text_objects_keep_their_kind(gaps):
    assert by_id(gaps, 1).kind == "point"
    assert by_id(gaps, 2).kind == "ellipse"
    assert by_id(gaps, 3).kind == "text"


def test_class_and_older_type_fields_both_give_the_class(gaps):
    assert by_id(gaps, 1).cls == "Spawn"  # Tiled 1.9+ class
    assert by_id(gaps, 2).cls == "Solid"  # older type


def test_templates_are_merged_and_the_object_overrides_them(gaps):
    plain, light = by_id(gaps, 4), by_id(gaps, 5)
    assert plain.cls == light.cls == "Crate" and plain.width == 32
    assert plain.properties == {"density": 2.0, "friction": 0.4}
    assert light.properties == {"density": 0.5, "friction": 0.4} and light.name == "light"


def test_rotation_and_tile_object_flips(gaps):
    rotated = by_id(gaps, 6)
    assert rotated.rotation == 90.0
    corners = rotated.outline()
    assert corners[1] == pytest.approx((200.0, 80.0))  # the 40 px side now points down (clockwise)
    tile = by_id(gaps, 7)
    assert tile.kind == "tile" and tile.gid == 3 and tile.flip_h and not tile.flip_v


def test_tile_layer_keeps_flip_bits_and_group_order(gaps):
    layer = gaps.layers[0]
    assert layer.name == "ground"  # inside a group, still first in file order
    assert layer.cells[3][7] == 2147483650  # slope tile, flipped horizontally
    assert gaps.properties == {"gravity": 1500.0}


def test_tile_collision_shapes_come_with_their_kinds(gaps):
    shapes = gaps.tilesets[0].tile_shapes
    assert shapes[0][0].kind == "rectangle" and shapes[1][0].kind == "polygon"
    assert gaps.tilesets[0].tile_properties[3] == {"one_way": True}


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="{w}" height="{h}" tilewidth="32" tileheight="32" infinite="{inf}">
 {tileset}
 <layer id="1" name="ground" width="{w}" height="{h}"><data encoding="csv">{data}</data></layer>
</map>"""


def test_malformed_xml_names_the_file(tmp_path):
    path = write(tmp_path, "broken.tmx", "<map><layer>")
    with pytest.raises(LevelError, match="broken.tmx.*not well-formed XML"):
        read_map(path)


def test_a_missing_tileset_names_the_tileset_and_the_map(tmp_path):
    tileset = '<tileset firstgid="1" source="nowhere.tsx"/>'
    path = write(tmp_path, "m.tmx", MAP.format(w=1, h=1, inf=0, tileset=tileset, data="0"))
    with pytest.raises(LevelError, match=r"m.tmx: tileset 'nowhere.tsx' not found"):
        read_map(path)


def test_billion_laughs_is_refused_quickly(tmp_path):
    lol = ['<!ENTITY lol0 "lol">'] + [f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10)]
    text = f'<?xml version="1.0"?><!DOCTYPE map [{"".join(lol)}]><map width="1" height="1">&lol9;</map>'
    path = write(tmp_path, "lol.tmx", text)
    start = time.perf_counter()
    with pytest.raises(LevelError, match="lol.tmx: map declares entities"):
        read_map(path)
    assert time.perf_counter() - start < 1.0


def test_a_billion_tile_map_is_refused_before_anything_is_allocated(tmp_path):
    path = write(tmp_path, "huge.tmx", MAP.format(w=100000, h=10000, inf=0, tileset="", data="0"))
    start = time.perf_counter()
    with pytest.raises(LevelError, match=r"huge.tmx: 100000x10000 tiles x 1 layers is 1,000,000,000 cells"):
        read_map(path)
    assert time.perf_counter() - start < 1.0


def test_infinite_maps_say_so(tmp_path):
    path = write(tmp_path, "inf.tmx", MAP.format(w=1, h=1, inf=1, tileset="", data="0"))
    with pytest.raises(LevelError, match="infinite maps are not supported"):
        read_map(path)


def test_wrong_cell_count_names_the_layer(tmp_path):
    path = write(tmp_path, "short.tmx", MAP.format(w=2, h=2, inf=0, tileset="", data="0,0,0"))
    with pytest.raises(LevelError, match=r"short.tmx, layer 'ground': has 3 cells, the map needs 4"):
        read_map(path)
