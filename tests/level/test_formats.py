"""JSON maps (.tmj with .tsj tilesets and .tj templates) load into the same level as the same map saved as
TMX; .world files load as a set of maps with their offsets; ``ledgekit check`` checks .tmj maps too; hostile
JSON is a clear error."""

import json

import pytest

from engine.level.cli import main as ledgekit
from engine.level.level import LevelError, check_level, load_level, load_world

from .mapkit import FIXTURES

FORMATS = FIXTURES / "formats"


@pytest.fixture(scope="module")
def pair():
    return load_level(FORMATS / "same.tmx"), load_level(FORMATS / "same.tmj")


def test_the_json_map_gives_the_same_geometry_as_its_tmx_twin(pair):
    xml, js = pair
    assert js.solid_rings == xml.solid_rings and js.solid_chains == xml.solid_chains
    assert js.one_way == xml.one_way and js.spawn == xml.spawn
    assert len(xml.solid_rings) >= 2 and xml.solid_chains and xml.one_way  # the fixture exercises them all


def test_the_json_map_gives_the_same_entities_and_properties(pair):
    xml, js = pair
    assert [(e.kind, e.id, e.position, e.angle) for e in js.entities] == \
        [(e.kind, e.id, e.position, e.angle) for e in xml.entities]
    strip = lambda props: {k: v for k, v in props.items() if k != "_path"}  # noqa: E731
    assert [strip(e.properties) for e in js.entities] == [strip(e.properties) for e in xml.entities]
    assert js.properties == xml.properties == {"gravity": 1500.0}
    # The template's object fields lose to the object's own: the light crate keeps its position and density.
    light = next(e for e in js.entities if e.source.name == "light")
    assert light.position == (206.0, 88.0) and light.properties["density"] == 0.5


def test_the_json_map_s_properties_have_the_types_of_its_tmx_twin_s(pair):
    """A float property stays a float (JSON writes a float of 80 as 80) and an object reference is the
    referenced LevelObject, as from the TMX: Tiled's JSON and XML of one map give one property model."""
    from engine.level.objects import LevelObject

    xml, js = pair

    def typed(level):
        return {(obj.id, name): (type(value).__name__, value.id if isinstance(value, LevelObject) else value)
                for obj in level.objects for name, value in obj.properties.items()}

    assert typed(js) == typed(xml)
    platform = next(obj for obj in js.objects if "path" in obj.properties)
    assert isinstance(platform.properties["path"], LevelObject) and isinstance(platform.properties["speed"], float)


def test_both_formats_pass_check(pair):
    assert check_level(FORMATS / "same.tmj") == [] and check_level(FORMATS / "same.tmx") == []


def test_a_world_file_loads_its_maps_with_their_offsets():
    loaded = load_world(FORMATS / "pair.world")
    assert [(level.path.name, offset) for level, offset in loaded] == [("same.tmx", (0.0, 0.0)),
                                                                       ("same.tmj", (256.0, 0.0))]


def test_ledgekit_check_finds_json_maps_in_a_folder_and_in_a_world(capsys):
    assert ledgekit(["check", str(FORMATS)]) == 0
    out = capsys.readouterr().out
    assert "ok: " in out and "same.tmj" in out and "2 map(s) checked: 0 error(s)" in out
    assert ledgekit(["check", str(FORMATS / "pair.world")]) == 0


def write_json_map(tmp_path, mutate):
    """The fixture JSON map with one change, beside copies of its tileset, template and image."""
    for name in ("tiles.tsj", "crate.tj", "tiles.png"):
        (tmp_path / name).write_bytes((FORMATS / name).read_bytes())
    raw = json.loads((FORMATS / "same.tmj").read_text())
    mutate(raw)
    path = tmp_path / "m.tmj"
    path.write_text(raw if isinstance(raw, str) else json.dumps(raw))
    return path


def things(raw):
    return raw["layers"][1]["objects"]


JSON_CASES = {
    "NaN constant": (lambda raw: things(raw)[0].update(x=float("nan")), r"m.tmj: map contains NaN"),
    "1e308 coordinate": (lambda raw: things(raw)[0].update(x=1e308), r"layer 'things', object 1 'start': x: 1e\+308"),
    "template is a device": (lambda raw: things(raw)[3].update(template="/dev/zero"), r"not a regular file"),
    "tileset is a folder": (lambda raw: raw["tilesets"][0].update(source="."), r"a folder"),
    "isometric": (lambda raw: raw.update(orientation="isometric"), r"isometric maps are not supported"),
    "a coordinate that is text": (lambda raw: things(raw)[0].update(x="abc"),
                                  r"layer 'things', object 1 'start': x: 'abc' is not a number"),
    "cells of the wrong count": (lambda raw: raw["layers"][0]["layers"][0]["data"].pop(),
                                 r"layer 'ground': has 31 cells, the map needs 32"),
    "a gid that is not a number": (lambda raw: raw["layers"][0]["layers"][0]["data"].__setitem__(0, "x"),
                                   r"layer 'ground'"),
}


@pytest.mark.parametrize("case", JSON_CASES, ids=list(JSON_CASES))
def test_hostile_json_is_a_clear_error(tmp_path, case):
    mutate, message = JSON_CASES[case]
    path = write_json_map(tmp_path, mutate)
    with pytest.raises(LevelError, match=message):
        load_level(path)
    assert any(p.severity == "error" for p in check_level(path))


def test_an_older_json_map_without_object_ids_loads(tmp_path):
    def drop(raw):
        for obj in things(raw):
            for key in ("id", "visible", "rotation"):
                obj.pop(key, None)
        things(raw)[:] = [o for o in things(raw) if "template" not in o and o.get("name") not in ("lift", "route")]

    level = load_level(write_json_map(tmp_path, drop))
    assert level.spawn == (40.0, 68.0) and level.of_kind("crate")


def test_deeply_nested_json_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "deep.tmj"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(LevelError, match=r"deep.tmj: map nests values more than \d+ deep"):
        load_level(path)


def test_tilesets_load_across_formats(tmp_path, pair):
    """A JSON map may use a .tsx tileset and a TMX map a .tsj one; the geometry does not change."""
    xml, _ = pair

    def use_tsx(raw):
        raw["tilesets"][0]["source"] = "tiles.tsx"

    (tmp_path / "tiles.tsx").write_bytes((FIXTURES / "tiles.tsx").read_bytes())
    assert load_level(write_json_map(tmp_path, use_tsx)).solid_rings == xml.solid_rings
    tmx = (FORMATS / "same.tmx").read_text().replace('source="../tiles.tsx"', 'source="tiles.tsj"')
    tmx = tmx.replace("../crate.tx", "crate.tx")
    (tmp_path / "crate.tx").write_bytes((FIXTURES / "crate.tx").read_bytes())
    (tmp_path / "same.tmx").write_text(tmx)
    assert load_level(tmp_path / "same.tmx").solid_rings == xml.solid_rings


def test_a_template_tile_is_renumbered_into_the_maps_tilesets(tmp_path):
    """The template names its tileset at firstgid 1; in the map the same tileset starts at gid 5."""
    (tmp_path / "tiles.tsx").write_bytes((FIXTURES / "tiles.tsx").read_bytes())
    (tmp_path / "tiles.png").write_bytes((FIXTURES / "tiles.png").read_bytes())
    (tmp_path / "crate.tx").write_bytes((FIXTURES / "crate.tx").read_bytes())
    (tmp_path / "slope.tx").write_text('<?xml version="1.0"?><template><tileset firstgid="1" source="tiles.tsx"/>'
                                       '<object class="Solid" gid="2" width="32" height="32"/></template>')
    other = ('<tileset firstgid="1" name="other" tilewidth="32" tileheight="32" tilecount="4" columns="4">'
             '<image source="tiles.png" width="128" height="32"/></tileset>')
    text = (FIXTURES / "gaps.tmx").read_text()
    text = text.replace('<tileset firstgid="1" source="tiles.tsx"/>', other + '<tileset firstgid="5" source="tiles.tsx"/>')
    text = text.replace('<object id="4" template="crate.tx" x="150" y="30"/>',
                        '<object id="4" template="slope.tx" x="160" y="128"/>')
    (tmp_path / "m.tmx").write_text(text)
    from engine.level.tmx import read_map

    tile = next(o for o in read_map(tmp_path / "m.tmx").objects if o.id == 4)
    assert (tile.kind, tile.gid, tile.cls) == ("tile", 6, "Solid")


def test_a_json_tileset_s_tile_properties_have_their_declared_types(tmp_path):
    """A tile's float property of 2 is 2.0 from a .tsj as from a .tsx (and a tile object takes it so)."""
    from engine.level.tiled_json import read_json_tileset
    from engine.level.tmx import read_tsx_tileset

    (tmp_path / "t.tsj").write_text(json.dumps({
        "type": "tileset", "name": "t", "tilewidth": 32, "tileheight": 32, "tilecount": 1, "columns": 1,
        "image": "tiles.png", "imagewidth": 32, "imageheight": 32,
        "tiles": [{"id": 0, "properties": [{"name": "bounce", "type": "float", "value": 2},
                                           {"name": "count", "type": "int", "value": 3}]}]}))
    (tmp_path / "t.tsx").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tileset name="t" tilewidth="32" tileheight="32" tilecount="1" '
        'columns="1"><image source="tiles.png" width="32" height="32"/><tile id="0"><properties>'
        '<property name="bounce" type="float" value="2"/><property name="count" type="int" value="3"/>'
        '</properties></tile></tileset>\n')
    from_json = read_json_tileset(tmp_path / "t.tsj", 1, tmp_path / "m.tmj").tile_properties[0]
    from_xml = read_tsx_tileset(tmp_path / "t.tsx", 1, tmp_path / "m.tmx").tile_properties[0]
    assert [(k, type(v), v) for k, v in sorted(from_json.items())] == \
        [(k, type(v), v) for k, v in sorted(from_xml.items())] == [("bounce", float, 2.0), ("count", int, 3)]
