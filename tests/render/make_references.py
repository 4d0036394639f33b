"""Make the drawing fixtures and Tiled's own pictures of them.

Run from the repository root:

    apt-get install -y tiled          # Tiled's tmxrasterizer (Debian 12 ships Tiled 1.8.2)
    .venv/bin/python tests/render/make_references.py

It writes, all committed:

* ``tests/render/fixtures/``: the art (drawn here, with numpy: no third-party image), one tileset per kind and
  one small map per feature the renderer must draw as Tiled does;
* ``tests/render/references/NAME.png``: ``tmxrasterizer --no-smoothing`` of each map, the picture
  ``test_as_tiled_draws.py`` compares Ledgekit's offscreen drawing with;
* ``tests/render/references/shipped/``: the same of the shipped levels' tile layers, with a digest of what
  each was made from (run this again after changing a level or its tileset).

Tiled 1.8 reads ``type=`` (not 1.9's ``class=``) for a class, so the fixtures write ``type``; the spawn point
every level needs is in a hidden layer (neither renderer draws it). tmxrasterizer makes its picture as large as
the map, or larger when an image layer reaches past the map's right or bottom edge; the test compares the map's
own rectangle.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REFERENCES = HERE / "references"
T = 16
"""Tile size (px) of every fixture."""
GUTTER = (255, 0, 255, 255)
"""The colour of a spaced sheet's margin and spacing: a tile cut from the wrong pixels shows it."""

PALETTE = [(200, 60, 50), (60, 170, 70), (50, 90, 200), (220, 190, 40), (150, 70, 180), (40, 180, 190),
           (230, 130, 40), (120, 120, 120)]


def tile_art(k: int, w: int = T, h: int = T) -> np.ndarray:
    """Tile ``k`` (h x w RGBA): its colour, a darker frame, a white mark in the top-left corner and a black
    diagonal from the top-left, so that every flip and quarter turn looks different."""
    r, g, b = PALETTE[k % len(PALETTE)]
    art = np.zeros((h, w, 4), dtype=np.uint8)
    art[...] = (r, g, b, 255)
    art[0, :], art[-1, :], art[:, 0], art[:, -1] = [(r // 2, g // 2, b // 2, 255)] * 4
    art[1:5, 1:5] = (255, 255, 255, 255)
    for i in range(min(w, h)):
        art[i, i * w // min(w, h)] = (0, 0, 0, 255)
    art[h - 4:h - 1, w - 6:w - 1, 3] = 0  # a transparent notch bottom-right: the layer below shows through
    return art


def sheet(columns: int, rows: int, margin: int = 0, spacing: int = 0) -> Image.Image:
    """A tile sheet of ``columns`` x ``rows`` tiles with Tiled's ``margin`` and ``spacing`` (px) in GUTTER."""
    width = 2 * margin + columns * T + (columns - 1) * spacing
    height = 2 * margin + rows * T + (rows - 1) * spacing
    pixels = np.zeros((height, width, 4), dtype=np.uint8)
    pixels[...] = GUTTER
    for k in range(columns * rows):
        x = margin + (k % columns) * (T + spacing)
        y = margin + (k // columns) * (T + spacing)
        pixels[y:y + T, x:x + T] = tile_art(k)
    return Image.fromarray(pixels)


def make_art() -> None:
    sheet(4, 2).save(FIXTURES / "plain.png")
    sheet(4, 2, margin=3, spacing=2).save(FIXTURES / "spaced.png")
    for name, (w, h), k in (("tall", (16, 40), 4), ("wide", (40, 16), 5), ("square", (24, 24), 6)):
        Image.fromarray(tile_art(k, w, h)).save(FIXTURES / f"{name}.png")
    backdrop = np.zeros((48, 80, 4), dtype=np.uint8)
    backdrop[..., 0] = np.arange(80)[None, :] * 3
    backdrop[..., 1] = np.arange(48)[:, None] * 5
    backdrop[..., 2] = 120
    backdrop[..., 3] = 255
    Image.fromarray(backdrop).save(FIXTURES / "backdrop.png")


def tileset(name: str, image: str, margin: int = 0, spacing: int = 0, offset: tuple[int, int] | None = None,
            extra: str = "") -> str:
    size = Image.open(FIXTURES / image).size
    tile_offset = f'\n <tileoffset x="{offset[0]}" y="{offset[1]}"/>' if offset else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="{name}" tilewidth="{T}" tileheight="{T}" spacing="{spacing}" \
margin="{margin}" tilecount="8" columns="4">{tile_offset}
 <image source="{image}" width="{size[0]}" height="{size[1]}"/>{extra}
</tileset>
"""


COLLECTION = """<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="pictures" tilewidth="40" tileheight="40" tilecount="3" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <tile id="0"><image width="16" height="40" source="tall.png"/></tile>
 <tile id="1"><image width="40" height="16" source="wide.png"/></tile>
 <tile id="2"><image width="24" height="24" source="square.png"/></tile>
</tileset>
"""

ANIMATED = """
 <tile id="0"><animation><frame tileid="0" duration="100"/><frame tileid="1" duration="150"/>\
<frame tileid="2" duration="100"/></animation></tile>
 <tile id="4"><animation><frame tileid="5" duration="70"/><frame tileid="6" duration="70"/></animation></tile>"""

FH, FV, FD = 1 << 31, 1 << 30, 1 << 29


def tmx(width: int, height: int, tilesets: list[tuple[int, str]], body: str) -> str:
    sets = "\n".join(f' <tileset firstgid="{first}" source="{source}"/>' for first, source in tilesets)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="{width}" \
height="{height}" tilewidth="{T}" tileheight="{T}" infinite="0" nextlayerid="20" nextobjectid="100">
{sets}
{body}
 <objectgroup id="19" name="spawn" visible="0"><object id="99" type="Spawn" x="8" y="8"><point/></object></objectgroup>
</map>
"""


def layer(lid: int, name: str, rows: list[list[int]], attrs: str = "") -> str:
    csv = ",\n".join(",".join(str(v) for v in row) for row in rows)
    return (f' <layer id="{lid}" name="{name}" width="{len(rows[0])}" height="{len(rows)}"{attrs}>\n'
            f'  <data encoding="csv">\n{csv}\n</data>\n </layer>')


def grid(width: int, height: int, fill) -> list[list[int]]:
    return [[fill(col, row) for col in range(width)] for row in range(height)]


def floor(width: int, height: int, gid: int = 8) -> str:
    """An opaque bottom layer (tile 8, grey), so translucent layers above have something to blend over."""
    return layer(1, "floor", grid(width, height, lambda c, r: gid))


def fixtures() -> dict[str, str]:
    """Every fixture map by name."""
    maps: dict[str, str] = {}
    flips = [0, FH, FV, FD, FH | FV, FH | FD, FV | FD, FH | FV | FD]
    maps["margin_spacing"] = tmx(8, 6, [(1, "spaced.tsx")], layer(
        1, "tiles", grid(8, 6, lambda c, r: (1 + (c + r) % 8) | flips[(c * 3 + r) % 8] if (c + r) % 5 else 0)))
    objects = "\n".join([
        '  <object id="1" gid="1" x="8" y="24" width="16" height="16"/>',  # no class
        f'  <object id="2" gid="{2 | FH}" x="32" y="24" width="16" height="16"/>',
        f'  <object id="3" gid="{3 | FV}" x="56" y="24" width="16" height="16"/>',
        f'  <object id="4" gid="{4 | FH | FV}" x="80" y="24" width="16" height="16"/>',
        '  <object id="5" type="Sign" gid="5" x="104" y="24" width="16" height="16"/>',
        '  <object id="6" gid="6" x="16" y="64" width="16" height="16" rotation="90"/>',
        '  <object id="7" gid="7" x="48" y="72" width="16" height="16" rotation="30"/>',
        f'  <object id="8" gid="{2 | FH}" x="84" y="70" width="16" height="16" rotation="-45"/>',
        '  <object id="9" gid="3" x="8" y="120" width="48" height="32"/>',  # stretched
        '  <object id="10" type="Solid" gid="4" x="56" y="124" width="32" height="48"/>',
        '  <object id="11" type="Crate" gid="1" x="100" y="120" width="24" height="24" rotation="20"/>',
        f'  <object id="12" type="Pickup" gid="{7 | FV}" x="136" y="96" width="16" height="16"/>',
        '  <object id="13" type="OneWay" gid="6" x="120" y="40" width="32" height="16"/>',
    ])
    maps["tile_objects"] = tmx(10, 8, [(1, "plain.tsx")], floor(10, 8) +
                               f'\n <objectgroup id="2" name="things">\n{objects}\n </objectgroup>')
    collection_cells = grid(8, 6, lambda c, r: 0)
    for (c, r), gid in {(0, 3): 9, (1, 3): 10, (4, 3): 11, (6, 5): 9, (2, 5): 11, (5, 1): 10 | FH}.items():
        collection_cells[r][c] = gid
    maps["image_collection"] = tmx(8, 6, [(1, "plain.tsx"), (9, "pictures.tsx")], "\n".join([
        floor(8, 6), layer(2, "pictures", collection_cells),
        ' <objectgroup id="3" name="things">',
        '  <object id="1" gid="9" x="96" y="40" width="16" height="40"/>',
        '  <object id="2" gid="10" x="60" y="90" width="48" height="32"/>',
        f'  <object id="3" gid="{11 | FV}" x="8" y="90" width="24" height="24" rotation="15"/>',
        ' </objectgroup>']))
    maps["tileoffset"] = tmx(8, 6, [(1, "plain.tsx"), (9, "shifted.tsx")], "\n".join([
        floor(8, 6), layer(2, "shifted", grid(8, 6, lambda c, r: 9 + (c % 8) if r in (2, 4) and c % 3 else 0)),
        ' <objectgroup id="3" name="things">',
        '  <object id="1" gid="10" x="16" y="30" width="16" height="16"/>',
        '  <object id="2" gid="11" x="48" y="40" width="32" height="24"/>',
        '  <object id="3" gid="12" x="96" y="90" width="16" height="16" rotation="90"/>',
        ' </objectgroup>']))
    maps["opacity"] = tmx(8, 6, [(1, "plain.tsx")], "\n".join([
        floor(8, 6),
        ' <imagelayer id="2" name="picture" opacity="0.5" offsetx="20" offsety="10">'
        '<image source="backdrop.png" width="80" height="48"/></imagelayer>',
        ' <group id="3" name="outer" opacity="0.5">',
        layer(4, "inner", grid(8, 6, lambda c, r: 1 + c % 4 if r < 2 else 0), ' opacity="0.6"'),
        '  <group id="5" name="nested" opacity="0.8" offsetx="4" offsety="2">',
        layer(6, "deep", grid(8, 6, lambda c, r: 5 + r % 3 if 2 <= r < 4 and c % 2 else 0)),
        '   <objectgroup id="7" name="faded things" opacity="0.7">',
        '    <object id="1" gid="2" x="20" y="90" width="32" height="16"/>',
        '    <object id="2" gid="3" x="80" y="92" width="16" height="16" rotation="45"/>',
        '   </objectgroup>',
        '  </group>',
        ' </group>',
        layer(8, "half", grid(8, 6, lambda c, r: 6 if r == 5 and c < 6 else 0), ' opacity="0.35"'),
    ]))
    tint_body = "\n".join([
        floor(8, 6),
        ' <imagelayer id="2" name="picture" offsetx="8" offsety="4"{TINT_IMAGE}>'
        '<image source="backdrop.png" width="80" height="48"/></imagelayer>',
        ' <group id="3" name="tinted group"{TINT_GROUP}>',
        layer(4, "tinted layer", grid(8, 6, lambda c, r: 1 + (c + r) % 8 if r % 2 else 0), "{TINT_LAYER}"),
        '  <objectgroup id="5" name="things">',
        '   <object id="1" gid="2" x="20" y="60" width="32" height="16"/>',
        '  </objectgroup>',
        ' </group>',
    ])
    maps["tint"] = tmx(8, 6, [(1, "plain.tsx")], tint_body.format(
        TINT_IMAGE=' tintcolor="#ff8040"', TINT_GROUP=' tintcolor="#c0e0ff"', TINT_LAYER=' tintcolor="#ffff6060"'))
    maps["draw_order"] = tmx(6, 4, [(1, "plain.tsx")], "\n".join([
        floor(6, 4),
        ' <objectgroup id="2" name="top down">',  # Tiled's default: by y, the lowest on the map last
        '  <object id="1" gid="1" x="4" y="56" width="32" height="32"/>',
        '  <object id="2" gid="2" x="14" y="44" width="32" height="32"/>',
        ' </objectgroup>',
        ' <objectgroup id="3" name="by index" draworder="index">',
        '  <object id="3" gid="3" x="52" y="56" width="32" height="32"/>',
        '  <object id="4" gid="4" x="62" y="44" width="32" height="32"/>',
        ' </objectgroup>']))
    maps["animation"] = tmx(8, 4, [(1, "animated.tsx")], "\n".join([
        layer(1, "animated", grid(8, 4, lambda c, r: (1 + (4 if (c + r) % 2 else 0)) | (FH if c >= 6 else 0))),
        ' <objectgroup id="2" name="things">',
        '  <object id="1" gid="1" x="40" y="40" width="32" height="16"/>',
        ' </objectgroup>']))
    return maps


ANIMATION_MS = 180
"""How far (ms) the animation fixture is advanced (``tmxrasterizer --advance-animations``)."""


def rasterize(name: str) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    args = ["tmxrasterizer", "--no-smoothing"]
    if name == "animation":
        args += ["--advance-animations", str(ANIMATION_MS)]
    subprocess.run([*args, str(FIXTURES / f"{name}.tmx"), str(REFERENCES / f"{name}.png")], check=True, env=env,
                   capture_output=True)


SHIPPED = HERE.parents[1] / "levels"
SHIPPED_REFERENCES = REFERENCES / "shipped"
"""Tiled's pictures of the shipped levels' tile layers (``NAME.png``) and what each was made from
(``sources.json``: a digest of the map, its tilesets and their images)."""


def tile_layer_names(map_path: Path) -> list[str]:
    return [node.get("name", "") for node in ET.parse(map_path).getroot().iter("layer")]


def shipped_digest(map_path: Path) -> str:
    """A digest of what a shipped level's tile layers are drawn from: the map, its tilesets, their images."""
    digest = hashlib.sha256(map_path.read_bytes())
    for tileset in ET.parse(map_path).getroot().iter("tileset"):
        tsx = map_path.parent / tileset.get("source", "")
        digest.update(tsx.read_bytes())
        for image in ET.parse(tsx).getroot().iter("image"):
            digest.update((tsx.parent / image.get("source", "")).read_bytes())
    return digest.hexdigest()


def rasterize_tile_layers(map_path: Path, out: Path) -> None:
    """Tiled's picture of a map's tile layers only (image layers and objects left out)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    shown = [arg for name in tile_layer_names(map_path) for arg in ("--show-layer", name)]
    subprocess.run(["tmxrasterizer", "--no-smoothing", *shown, str(map_path), str(out)], check=True, env=env,
                   capture_output=True)


def make_shipped() -> None:
    SHIPPED_REFERENCES.mkdir(exist_ok=True)
    sources = {}
    for map_path in sorted(SHIPPED.glob("*.tmx")):
        rasterize_tile_layers(map_path, SHIPPED_REFERENCES / f"{map_path.stem}.png")
        sources[map_path.stem] = shipped_digest(map_path)
        print(f"{map_path.stem}: {SHIPPED_REFERENCES / (map_path.stem + '.png')}")
    (SHIPPED_REFERENCES / "sources.json").write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")


def main() -> int:
    if shutil.which("tmxrasterizer") is None:
        print("tmxrasterizer not found: apt-get install -y tiled", file=sys.stderr)
        return 1
    FIXTURES.mkdir(exist_ok=True)
    REFERENCES.mkdir(exist_ok=True)
    make_art()
    (FIXTURES / "plain.tsx").write_text(tileset("plain", "plain.png"))
    (FIXTURES / "spaced.tsx").write_text(tileset("spaced", "spaced.png", margin=3, spacing=2))
    (FIXTURES / "shifted.tsx").write_text(tileset("shifted", "plain.png", offset=(5, -7)))
    (FIXTURES / "animated.tsx").write_text(tileset("animated", "plain.png", extra=ANIMATED))
    (FIXTURES / "pictures.tsx").write_text(COLLECTION)
    for name, text in fixtures().items():
        (FIXTURES / f"{name}.tmx").write_text(text)
        rasterize(name)
        print(f"{name}: {REFERENCES / (name + '.png')}")
    make_shipped()
    return 0


if __name__ == "__main__":
    sys.exit(main())
