"""Hostile or broken input: every case is a clear LevelError naming the file (and the layer and object where
there is one), never a traceback, a hang, unbounded memory or a level with nonsense in it. ``check`` reports
the same errors the game's load refuses."""

import base64
import os
import re
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pytest

from engine.level.level import LevelError, check_level, load_level

from .mapkit import csv_layer, map_text, objects, write_map

FLOOR = [[0] * 8, [0] * 8, [0] * 8, [1] * 8]


def thing(inner: str, oid: int = 7, name: str = "bad", cls: str = "Solid", attrs: str = 'x="64" y="64"') -> str:
    """One object in a 'things' layer, with the given class, attributes and shape."""
    return objects(f'<object id="{oid}" name="{name}" class="{cls}" {attrs}>{inner}</object>')


OBJECT_CASES = {
    "empty polygon points": (thing('<polygon points=""/>'), r"object 7 'bad'.*(no area|at least 3)"),
    "NaN coordinate": (thing("", attrs='x="nan" y="64" width="32" height="32"'),
                       r"object 7 'bad': x: 'nan' is not a finite"),
    "inf in points": (thing('<polygon points="0,0 inf,0 0,32"/>'),
                      r"object 7 'bad': polygon points: 'inf' is not a finite"),
    "1e308 coordinate": (thing("", attrs='x="1e308" y="0" width="32" height="32"'),
                         r"object 7 'bad': x: 1e\+308 is outside"),
    "object 1.8e19 wide": (thing("", attrs='x="0" y="0" width="1.8e19" height="32"'),
                           r"object 7 'bad': width: 1.8e\+19 is outside"),
    "crate 1e308 high": (thing("", cls="Crate", attrs='x="0" y="0" width="32" height="1e308"'), r"object 7 'bad': height"),
    "crate 1e-308 high": (thing("", cls="Crate", attrs='x="64" y="64" width="32" height="1e-308"'),
                          r"object 7 'bad'.*Crate is too small"),
    "two-point Solid polygon": (thing('<polygon points="0,0 32,0"/>'), r"object 7 'bad'.*Solid polygon has no area"),
    "two-point Crate": (thing('<polygon points="0,0 32,0"/>', cls="Crate"), r"object 7 'bad'.*Crate"),
    "Spawn at 1e308": (objects('<object id="7" name="bad" class="Spawn" x="1e308" y="1"><point/></object>'),
                       r"object 7 'bad': x: 1e\+308 is outside"),
    "crate gid 999": (thing("", cls="Crate", attrs='gid="999" x="64" y="64" width="32" height="32"'),
                      r"object 7 'bad'.*gid 999 is in no tileset"),
    "crate gid -1": (thing("", cls="Crate", attrs='gid="-1" x="64" y="64" width="32" height="32"'),
                     r"object 7 'bad': gid: -1 is outside"),
    "zero-width OneWay": (thing("", cls="OneWay", attrs='x="64" y="64" width="0" height="8"'),
                          r"object 7 'bad'.*OneWay has no length"),
    "Solid tile gid in no tileset": (thing("", attrs='gid="77" x="64" y="64" width="32" height="32"'),
                                     r"object 7 'bad'.*gid 77 is in no tileset"),
    "platform path of text": (thing('<properties><property name="path" value="[]"/></properties>', cls="MovingPlatform",
                                    attrs='x="64" y="64" width="32" height="8"'),
                              r"object 7 'bad'.*path must be an object reference"),
    "crate gid 0xFFFFFFFF": (thing("", cls="Crate", attrs='gid="4294967295" x="64" y="64" width="32" height="32"'),
                             r"object 7 'bad'.*gid \d+ is in no tileset"),
}


@pytest.mark.parametrize("case", OBJECT_CASES, ids=list(OBJECT_CASES))
def test_bad_objects_are_clear_errors_from_load_and_from_check(tmp_path, case):
    body, message = OBJECT_CASES[case]
    path = write_map(tmp_path, map_text(csv_layer(FLOOR) + body, spawn=case != "Spawn at 1e308"))
    with pytest.raises(LevelError, match=message) as caught:
        load_level(path)
    assert "m.tmx" in str(caught.value)
    problems = check_level(path)
    assert any(p.severity == "error" for p in problems)


@pytest.mark.parametrize("target", ["folder", "/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("kind", ["template", "tileset"])
def test_a_template_or_tileset_that_is_not_a_file_is_refused(tmp_path, target, kind):
    source = str(tmp_path / "sub") if target == "folder" else target
    (tmp_path / "sub").mkdir()
    if kind == "template":
        text = map_text(csv_layer(FLOOR) + objects(f'<object id="7" template="{source}" x="1" y="1"/>'))
    else:
        text = map_text(csv_layer(FLOOR), tileset=f'<tileset firstgid="1" source="{source}"/>')
    with pytest.raises(LevelError, match=r"(a folder|not a regular file)"):
        load_level(write_map(tmp_path, text))


@pytest.mark.parametrize("image", ["/dev/zero", "."])
def test_a_tileset_image_that_is_not_a_file_is_an_error(tmp_path, image):
    tileset = (f'<tileset firstgid="1" name="odd" tilewidth="32" tileheight="32" tilecount="4" columns="4">'
               f'<image source="{image}" width="128" height="32"/></tileset>')
    with pytest.raises(LevelError, match="image .* is not a regular file"):
        load_level(write_map(tmp_path, map_text(csv_layer(FLOOR), tileset=tileset)))


@pytest.mark.parametrize("kind", ["template", "tileset", "next_level"])
def test_a_file_name_too_long_for_the_file_system_is_a_clear_error(tmp_path, kind):
    name = "1" * 5000
    if kind == "template":
        text = map_text(csv_layer(FLOOR) + objects(f'<object id="7" template="{name}" x="1" y="1"/>'))
    elif kind == "tileset":
        text = map_text(csv_layer(FLOOR), tileset=f'<tileset firstgid="1" source="{name}"/>')
    else:
        text = map_text(csv_layer(FLOOR), props=f'<properties><property name="next_level" value="{name}"/></properties>')
    with pytest.raises(LevelError, match="m.tmx"):
        load_level(write_map(tmp_path, text))


def test_an_unknown_xml_encoding_is_named(tmp_path):
    head = '<?xml version="1.0" encoding="klingon-8"?>\n'
    with pytest.raises(LevelError, match=r"m.tmx: map declares the unknown text encoding 'klingon-8'"):
        load_level(write_map(tmp_path, map_text(csv_layer(FLOOR), head=head)))


def test_a_thousand_nested_groups_are_refused(tmp_path):
    body = '<group name="g">' * 1000 + csv_layer(FLOOR) + "</group>" * 1000
    with pytest.raises(LevelError, match=r"m.tmx: map nests elements more than \d+ deep"):
        load_level(write_map(tmp_path, map_text(body)))


@pytest.mark.parametrize("where", ["outside", "device", "missing"])
def test_next_level_must_be_a_map_file_inside_the_maps_folder_tree(tmp_path, where):
    # "../" enough times to reach the root from any temporary folder: /etc/passwd, which exists.
    target = {"outside": "../" * 40 + "etc/passwd", "device": "/dev/zero", "missing": "nowhere.tmx"}[where]
    props = f'<properties><property name="next_level" type="file" value="{target}"/></properties>'
    path = write_map(tmp_path / "levels", map_text(csv_layer(FLOOR), props=props))
    with pytest.raises(LevelError, match="next_level"):
        load_level(path)
    assert any("next_level" in p.message for p in check_level(path))


def test_next_level_in_a_subfolder_is_fine(tmp_path):
    write_map(tmp_path / "levels" / "world2", map_text(csv_layer(FLOOR)), "two.tmx")
    props = '<properties><property name="next_level" type="file" value="world2/two.tmx"/></properties>'
    assert load_level(write_map(tmp_path / "levels", map_text(csv_layer(FLOOR), props=props))).next_level


def zlib_bomb_layer() -> str:
    """An 8 x 4 layer whose zlib data inflates to 1 GB of zero cells (a few MB compressed)."""
    inflater = zlib.compressobj(1)  # fast to make; still under 5 MB
    chunk = bytes(1 << 20)
    packed = b"".join(inflater.compress(chunk) for _ in range(1024)) + inflater.flush()
    data = base64.b64encode(packed).decode()
    return (f'<layer id="1" name="bomb" width="8" height="4">'
            f'<data encoding="base64" compression="zlib">{data}</data></layer>')


def many_shapes_tileset(folder: Path, count: int) -> str:
    """A map whose external tileset (written to ``folder``) gives its tiles ``count`` collision rectangles."""
    tiles = "".join(f'<tile id="{t}"><objectgroup>' + '<object x="0" y="0" width="8" height="8"/>' * 30
                    + "</objectgroup></tile>" for t in range(count // 30))
    (folder / "big.tsx").write_text('<tileset name="big" tilewidth="32" tileheight="32" tilecount="4" columns="4">'
                                    f'<image source="tiles.png" width="128" height="32"/>{tiles}</tileset>')
    return map_text(csv_layer(FLOOR), tileset='<tileset firstgid="1" source="big.tsx"/>')


BOUNDED_CASES = {
    "zlib bomb": (lambda folder: map_text(zlib_bomb_layer()), r"layer 'bomb': compressed layer data inflates to more"),
    "50 MB comment": (lambda folder: map_text(csv_layer(FLOOR) + "<!--" + "x" * 50_000_000 + "-->"), None),
    "20k stacked Solids": (lambda folder: map_text(objects("".join(
        f'<object id="{i}" class="Solid" x="64" y="64" width="32" height="32"/>' for i in range(1, 20_001)))), None),
    "60k tile collision shapes in a tileset": (lambda folder: many_shapes_tileset(folder, 60_000),
                                               r"more than 50,000 objects"),
    "1.2M polygon points": (lambda folder: map_text(objects("".join(
        f'<object id="{i}" x="1" y="1"><polygon points="{" ".join(f"{k % 97},{k % 89}" for k in range(6000))}"/>'
        "</object>" for i in range(1, 201)))), r"more than 1,000,000 polygon and polyline points"),
    "600k objects": (lambda folder: map_text(objects("".join(f'<object id="{i}" x="1" y="1"/>' for i in range(600_000)))),
                     r"m.tmx: 600,\d+ objects, more than"),
}

LOAD_CPU_SECONDS = 10.0
"""The loader's own budget for any hostile file, in CPU seconds of the loading process: it excludes the
interpreter's start-up and imports, and CPU time grows little when other programs share the machine (measured
on a 2-core machine busy with other sessions: 600k objects 2.8 s, 20k stacked Solids 2.6 s, 1.2M polygon points
2.0 s, the others under 1.3 s). A hang or a quadratic loader blows it; a busy machine does not."""

RUNNER = textwrap.dedent("""
    import resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    from engine.level.level import LevelError, load_level
    start = time.process_time()
    try:
        load_level(sys.argv[1])
        result = "OK"
    except LevelError as error:
        result = "LevelError: " + str(error)[:300]
    print(f"{time.process_time() - start:.3f}")
    print(result)
""")


@pytest.mark.parametrize("case", BOUNDED_CASES, ids=list(BOUNDED_CASES))
def test_hostile_files_load_or_fail_in_bounded_time_and_memory(tmp_path, case):
    make, message = BOUNDED_CASES[case]
    path = write_map(tmp_path, make(tmp_path))
    root = Path(__file__).resolve().parents[2]
    # A process of its own for the memory bound (a 1 GB address space); the time bound is the loader's CPU time,
    # measured inside it. The wall-clock timeout only catches a hang, whatever the machine's load.
    done = subprocess.run([sys.executable, "-c", RUNNER, str(path)], capture_output=True, text=True, timeout=300,
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    assert done.returncode == 0, done.stderr[-2000:]  # no traceback, no MemoryError under a 1 GB address space
    seconds, result = done.stdout.split("\n", 1)
    assert float(seconds) < LOAD_CPU_SECONDS, f"{case}: the loader took {seconds} s of CPU"
    if message is None:
        assert result.startswith("OK"), result
    else:
        assert result.startswith("LevelError") and re.search(message, result), result
