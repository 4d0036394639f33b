"""Collision is where Tiled draws the tiles and objects: layer and group offsets, tileset offsets, image
collection tiles, polylines, tile objects' shapes, flips and scale, tile class inheritance; and all static solid
geometry of a map is one set of outlines. Expected geometry is worked out by hand from the fixture maps
(engine frame: pixels, y up, origin at the map's bottom-left; the maps are 4 tiles = 128 px high)."""

import pytest

from engine.level.level import LevelError, check_level, load_level

from .mapkit import csv_layer, map_text, objects, write_map

EMPTY = [[0] * 8 for _ in range(4)]


def floor(gid: int = 1, cols: range = range(8)) -> list[list[int]]:
    return [[0] * 8, [0] * 8, [0] * 8, [gid if c in cols else 0 for c in range(8)]]


def ring_box(ring):
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    return (min(xs), min(ys), max(xs), max(ys))


def test_a_floor_split_between_two_layers_and_a_solid_object_is_one_outline(tmp_path):
    even = floor(cols=range(0, 8, 2))
    odd = floor(cols=range(1, 8, 2))
    wall = objects('<object id="7" class="Solid" x="224" y="32" width="32" height="64"/>')  # stands on the floor
    body = csv_layer(even, "even", lid=1) + csv_layer(odd, "odd", lid=3) + wall
    level = load_level(write_map(tmp_path, map_text(body)))
    assert len(level.solid_rings) == 1
    ring = level.solid_rings[0]
    # The floor's top runs from x 0 to 224 in one edge; no vertex at the joints between tiles.
    assert sorted(ring) == sorted([(0.0, 0.0), (256.0, 0.0), (256.0, 96.0), (224.0, 96.0), (224.0, 32.0),
                                   (0.0, 32.0)])


def test_layer_and_group_offsets_move_the_collision_with_the_tiles(tmp_path):
    layer = csv_layer(floor(), extra='offsetx="16" offsety="-8"')
    body = f'<group name="g" offsetx="4" offsety="-24">{layer}</group>'
    level = load_level(write_map(tmp_path, map_text(body)))
    # Drawn 20 px right and 32 px up (Tiled's offsets are y down).
    assert [ring_box(r) for r in level.solid_rings] == [(20.0, 32.0, 276.0, 64.0)]


def test_a_tileset_tile_offset_moves_the_collision(tmp_path):
    tileset = ('<tileset firstgid="1" name="shifted" tilewidth="32" tileheight="32" tilecount="4" columns="4">'
               '<tileoffset x="0" y="8"/><image source="tiles.png" width="128" height="32"/>'
               '<tile id="0"><objectgroup><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>'
               "</tileset>")
    level = load_level(write_map(tmp_path, map_text(csv_layer(floor()), tileset=tileset)))
    assert [ring_box(r) for r in level.solid_rings] == [(0.0, -8.0, 256.0, 24.0)]


def test_parallax_on_a_colliding_layer_is_an_error_and_on_decoration_is_fine(tmp_path):
    path = write_map(tmp_path, map_text(csv_layer(floor(), extra='parallaxx="0.5"')))
    with pytest.raises(LevelError, match=r"layer 'ground'.*parallax 0.5 x 1 on a layer that collides"):
        load_level(path)
    deco = csv_layer(floor(), "deco", extra='parallaxx="0.5"', lid=3).replace(
        ">", '><properties><property name="collision" type="bool" value="false"/></properties>', 1)
    assert check_level(write_map(tmp_path / "ok", map_text(csv_layer(floor()) + deco))) == []


def test_image_collection_tiles_collide_at_their_own_image_size(tmp_path):
    tileset = ('<tileset firstgid="1" name="pics" tilewidth="64" tileheight="64" tilecount="2" columns="0">'
               '<grid orientation="orthogonal" width="1" height="1"/>'
               '<tile id="0"><image source="small.png" width="32" height="32"/>'
               '<objectgroup><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>'
               '<tile id="1"><image source="big.png" width="64" height="64"/>'
               '<objectgroup><object id="1" x="0" y="0" width="64" height="64"/></objectgroup></tile>'
               "</tileset>")
    cells = [[0] * 8, [0] * 8, [0] * 8, [1, 0, 0, 0, 2, 0, 0, 0]]
    path = write_map(tmp_path, map_text(csv_layer(cells), tileset=tileset))
    for image in ("small.png", "big.png"):
        (tmp_path / image).write_bytes((tmp_path / "tiles.png").read_bytes())
    level = load_level(path)
    boxes = sorted(ring_box(r) for r in level.solid_rings)
    # The small tile sits on the map's bottom edge; the big one hangs up and right from its cell.
    assert boxes == [(0.0, 0.0, 32.0, 32.0), (128.0, 0.0, 192.0, 64.0)]


def test_a_tile_collision_polyline_is_an_open_chain(tmp_path):
    tileset = ('<tileset firstgid="1" name="bumps" tilewidth="32" tileheight="32" tilecount="4" columns="4">'
               '<image source="tiles.png" width="128" height="32"/>'
               '<tile id="0"><objectgroup><object id="1" x="0" y="32"><polyline points="0,0 16,-16 32,0"/>'
               "</object></objectgroup></tile></tileset>")
    level = load_level(write_map(tmp_path, map_text(csv_layer(floor(cols=range(2, 3))), tileset=tileset)))
    assert level.solid_rings == []
    assert level.solid_chains == [[(64.0, 0.0), (80.0, 16.0), (96.0, 0.0)]]


def test_a_solid_tile_object_uses_its_tiles_shape_flipped_and_scaled(tmp_path):
    # gid 2 is the slope (0,32 32,0 32,32); flipped horizontally and drawn 64 x 64 from (64, 128).
    tile = objects(f'<object id="7" class="Solid" gid="{2 | 1 << 31}" x="64" y="128" width="64" height="64"/>')
    level = load_level(write_map(tmp_path, map_text(csv_layer(EMPTY) + tile)))
    assert [sorted(r) for r in level.solid_rings] == [sorted([(64.0, 0.0), (128.0, 0.0), (64.0, 64.0)])]


@pytest.mark.parametrize(("cls", "kind"), [("Crate", "crate"), ("MovingPlatform", "platform")])
def test_a_body_tile_object_takes_its_tiles_shape(tmp_path, cls, kind):
    # gid 3 is the half block: a 32 x 32 tile object of it is a 32 x 16 body on the object's bottom half.
    body = objects(f'<object id="7" class="{cls}" gid="3" x="64" y="64" width="32" height="32"/>')
    level = load_level(write_map(tmp_path, map_text(csv_layer(floor()) + body)))
    entity = level.of_kind(kind)[0]
    box = entity.shape.local_aabb
    assert (box.width, box.height) == pytest.approx((32.0, 16.0))
    assert entity.position == pytest.approx((80.0, 128 - 56.0))


def test_a_crate_tile_object_takes_its_tiles_shape_and_rotation(tmp_path):
    # gid 3 is the half block: the bottom 16 px of its tile. The object's bottom-left corner is (64, 64)
    # (Tiled, y down); turned 90 degrees clockwise about it, the tile's bottom half lies along the corner's
    # right: x 64..80, y 64..96 in Tiled's frame, so 16 px wide and 32 px tall, centred on (72, 80) = engine
    # (72, 128 - 80).
    crate = objects('<object id="7" class="Crate" gid="3" x="64" y="64" width="32" height="32" rotation="90"/>')
    level = load_level(write_map(tmp_path, map_text(csv_layer(floor()) + crate)))
    shape = level.of_kind("crate")[0]
    box = shape.shape.local_aabb
    assert (box.width, box.height) == pytest.approx((16.0, 32.0))
    assert shape.position == pytest.approx((72.0, 48.0))


def test_a_tile_object_without_a_class_takes_its_tiles_class(tmp_path):
    tileset = ('<tileset firstgid="1" name="things" tilewidth="32" tileheight="32" tilecount="4" columns="4">'
               '<image source="tiles.png" width="128" height="32"/>'
               '<tile id="0"><objectgroup><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>'
               '<tile id="2" class="Crate"><properties><property name="density" type="float" value="3"/>'
               "</properties></tile></tileset>")
    crate = objects('<object id="7" name="box" gid="3" x="64" y="64" width="32" height="32"/>')
    level = load_level(write_map(tmp_path, map_text(csv_layer(floor()) + crate, tileset=tileset)))
    crates = level.of_kind("crate")
    assert len(crates) == 1 and crates[0].properties["density"] == 3.0
