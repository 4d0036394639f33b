"""Writes the shipped Tiled files (``levels/tiles.tsx``, ``levels/demo.tmx``, ``levels/playground.tmx`` and
the three teaching levels of :mod:`game.tutorial`) from ASCII layouts, so the first versions of the levels
are reproducible. After that they are ordinary Tiled files: open them in Tiled, edit, save. Run
``python -m game.mapmaker`` to rewrite them (this overwrites edits).

Layout legend (one character per 32 px tile, top row first):

``#`` block, ``/`` and ``\\`` 45-degree slopes, ``a b`` a 2:1 slope rising right (low, high), ``c d`` a
2:1 slope rising left (high, low), ``=`` half block, ``-`` one-way platform, ``"`` grass, ``*`` flowers,
``m`` mushrooms, ``o`` pebbles (decorations), ``.`` or space nothing.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from .art import (
    backdrop_files, BACKGROUND_WIDTH, GROUND_VARIANTS, SKY_HEIGHT, SLOPE_FEET, TILE_ANIMATIONS, TILE_CLASSES, TILE_COLUMNS,
    TILE_COUNT, TILE_PROPERTIES, TILE_ROWS,
    BLOCK, FLOWERS, GRASS, HALF, MUSHROOMS, ONE_WAY, PEBBLES, SLOPE2_L_HIGH, SLOPE2_L_LOW, SLOPE2_R_HIGH,
    SLOPE2_R_LOW, SLOPE_L, SLOPE_R, TILE,
)
from .data import levels_folder

LEVELS = levels_folder()

COLLISION = {
    **{tid: "rect 0 0 32 32" for tid in [*GROUND_VARIANTS.values(), *SLOPE_FEET.values()]},
    SLOPE_R: "poly 0,32 32,0 32,32",
    SLOPE_L: "poly 0,0 32,32 0,32",
    SLOPE2_R_LOW: "poly 0,32 32,16 32,32",
    SLOPE2_R_HIGH: "poly 0,16 32,0 32,32 0,32",
    SLOPE2_L_HIGH: "poly 0,0 32,16 32,32 0,32",
    SLOPE2_L_LOW: "poly 0,16 32,32 0,32",
    HALF: "rect 0 16 32 16",
    ONE_WAY: "rect 0 0 32 8",
}
LEGEND = {"#": BLOCK, "/": SLOPE_R, "\\": SLOPE_L, "a": SLOPE2_R_LOW, "b": SLOPE2_R_HIGH, "c": SLOPE2_L_HIGH,
          "d": SLOPE2_L_LOW, "=": HALF, "-": ONE_WAY, '"': GRASS, "*": FLOWERS, "m": MUSHROOMS, "o": PEBBLES}


def tileset_xml() -> str:
    tiles = []
    for tid in range(TILE_COUNT):
        parts = []
        properties: dict[str, str | bool] = dict(TILE_PROPERTIES.get(tid, {}))
        if tid == ONE_WAY:
            properties["one_way"] = True
        if properties:
            rows = "\n".join(f'   <property name="{k}"' + (' type="bool"' if isinstance(v, bool) else "")
                             + f' value="{str(v).lower() if isinstance(v, bool) else v}"/>' for k, v in properties.items())
            parts.append(f"  <properties>\n{rows}\n  </properties>")
        shape = COLLISION.get(tid)
        if shape:
            kind, *rest = shape.split(" ")
            if kind == "rect":
                x, y, w, h = rest
                obj = f'   <object id="1" x="{x}" y="{y}" width="{w}" height="{h}"/>'
            else:
                obj = f'   <object id="1" x="0" y="0">\n    <polygon points="{" ".join(rest)}"/>\n   </object>'
            parts.append(f'  <objectgroup draworder="index" id="2">\n{obj}\n  </objectgroup>')
        if tid in TILE_ANIMATIONS:
            frames = "\n".join(f'   <frame tileid="{f}" duration="{ms}"/>' for f, ms in TILE_ANIMATIONS[tid])
            parts.append(f"  <animation>\n{frames}\n  </animation>")
        cls = TILE_CLASSES.get(tid, "")
        if parts or cls:
            head = f' <tile id="{tid}"' + (f' type="{cls}"' if cls else "")
            tiles.append(head + (">\n" + "\n".join(parts) + "\n </tile>" if parts else "/>"))
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<tileset version="1.10" tiledversion="1.10.2" name="ledgekit" tilewidth="32" tileheight="32" '
        f'tilecount="{TILE_COUNT}" columns="{TILE_COLUMNS}">\n'
        f' <image source="../assets/tiles.png" width="{TILE_COLUMNS * TILE}" height="{TILE_ROWS * TILE}"/>\n'
        + "\n".join(tiles) + "\n" + wangset_xml() + "</tileset>\n"
    )


def wang_id(key: tuple[bool, ...]) -> str:
    """A ground block's Tiled wang id (top, top-right, right, bottom-right, bottom, bottom-left, left,
    top-left; 1 = ground there, 0 = air) from its GROUND_VARIANTS key (what is exposed to the air)."""
    top, right, bottom, left, top_left, top_right, bottom_right, bottom_left = (not open_ for open_ in key)
    corners = (top and right and top_right, bottom and right and bottom_right, bottom and left and bottom_left,
               top and left and top_left)
    marks = (top, corners[0], right, corners[1], bottom, corners[2], left, corners[3])
    return ",".join("1" if mark else "0" for mark in marks)


def wangset_xml() -> str:
    """A Tiled terrain set ("ground", mixed edges and corners) over the 47 autotiled blocks, so Tiled's
    terrain brush paints ground with the same grass tops, rims and inner corners the map maker picks."""
    rows = "\n".join(f'   <wangtile tileid="{tid}" wangid="{wang_id(key)}"/>' for key, tid in GROUND_VARIANTS.items())
    return (' <wangsets>\n  <wangset name="ground" type="mixed" tile="0">\n'
            '   <wangcolor name="ground" color="#7a5438" tile="16" probability="1"/>\n'
            f'{rows}\n  </wangset>\n </wangsets>\n')


def _prop_xml(props: dict) -> str:
    if not props:
        return ""
    rows = []
    for name, value in props.items():
        if isinstance(value, bool):
            rows.append(f'<property name="{name}" type="bool" value="{str(value).lower()}"/>')
        elif isinstance(value, int) and name in ("path", "door"):
            rows.append(f'<property name="{name}" type="object" value="{value}"/>')
        elif isinstance(value, (int, float)):
            rows.append(f'<property name="{name}" type="float" value="{value}"/>')
        elif name == "next_level":
            rows.append(f'<property name="{name}" type="file" value="{escape(value)}"/>')
        else:
            rows.append(f'<property name="{name}" value="{escape(str(value))}"/>')
    return "<properties>" + "".join(rows) + "</properties>"


FULL_SIDES = {"#": "trbl", "/": "rb", "\\": "lb", "a": "b", "b": "rb", "c": "lb", "d": "b", "=": "b"}
"""Which sides of each ground cell are solid all along (top, right, bottom, left): a block beside such a
side is covered there; any other side leaves the block's face open to the air."""


def ground_tile(grid: list[str], row: int, col: int) -> int:
    """The autotiled block for a ``#`` cell: grass on an open top, a rim on open sides and bottom, notches in
    inner corners (see ``game.art.GROUND_VARIANTS``). Cells beyond the map count as covered."""

    def cell(r: int, c: int) -> str:
        return grid[r][c] if 0 <= r < len(grid) and 0 <= c < len(grid[r]) else "#"

    top = "b" not in FULL_SIDES.get(cell(row - 1, col), "")
    right = "l" not in FULL_SIDES.get(cell(row, col + 1), "")
    bottom = "t" not in FULL_SIDES.get(cell(row + 1, col), "")
    left = "r" not in FULL_SIDES.get(cell(row, col - 1), "")

    def open_corner(dr: int, dc: int, side_a: bool, side_b: bool) -> bool:
        # Only between two full blocks: a slope beside or above brings its own surface down to the corner.
        beside_blocks = cell(row + dr, col) == "#" and cell(row, col + dc) == "#"
        return not side_a and not side_b and beside_blocks and cell(row + dr, col + dc) not in FULL_SIDES

    key = (top, right, bottom, left, open_corner(-1, -1, top, left), open_corner(-1, 1, top, right),
           open_corner(1, 1, bottom, right), open_corner(1, -1, bottom, left))
    above = LEGEND.get(cell(row - 1, col))
    if not any(key) and above in SLOPE_FEET:
        return SLOPE_FEET[above]  # under a slope's low end: the rest of its grass band
    return GROUND_VARIANTS[key]


BACKGROUNDS = (("sky", SKY_HEIGHT, 0.0, 0), ("hills", 240, 0.25, 40), ("trees", 200, 0.5, 48))
"""The parallax image layers behind every generated map: (name, its image's height in px, horizontal
parallax factor, px its bottom sits above the map's bottom); the images are the map's theme's (see
``game.art.THEMES``). They repeat across (Tiled's ``repeatx``) and keep a vertical factor of 1, so they
stay put against the map's bottom edge."""


def background_xml(map_height_px: int, theme: str = "meadow") -> str:
    """The maps' image layers (ids 3 and up), sky first, drawn with ``theme``'s images."""
    rows = []
    images = backdrop_files(theme)
    for k, ((name, height, factor, lift), image) in enumerate(zip(BACKGROUNDS, images)):
        width = BACKGROUND_WIDTH // 10 if name == "sky" else BACKGROUND_WIDTH
        rows.append(f' <imagelayer id="{3 + k}" name="{name}" offsety="{map_height_px - height - lift}" '
                    f'parallaxx="{factor}" parallaxy="1" repeatx="1">\n'
                    f'  <image source="../assets/{image}" width="{width}" height="{height}"/>\n </imagelayer>')
    return "\n".join(rows) + "\n"


def map_xml(layout: list[str], objects: list[dict], properties: dict, backgrounds: bool = True,
            theme: str = "meadow") -> str:
    """A whole TMX map: the layout (see the module docstring) as an autotiled ``ground`` layer, the parallax
    backgrounds of ``theme`` (unless ``backgrounds`` is false) and the objects (dicts: ``cls``, ``name``, ``x``, ``y``
    (Tiled px, y down), ``w``, ``h``, ``kind`` (point / polyline / polygon), ``points``, ``gid``, ``props``)."""
    width = max(len(row) for row in layout)
    height = len(layout)
    grid = [row.ljust(width) for row in layout]
    cells = []
    for r, row in enumerate(grid):
        ids = []
        for c, ch in enumerate(row):
            if ch not in LEGEND:
                ids.append("0")
                continue
            tid = ground_tile(grid, r, c) if ch == "#" else LEGEND[ch]
            ids.append(str(tid + 1))
        cells.append(",".join(ids))
    data = ",\n".join(cells)
    objs = []
    for oid, obj in enumerate(objects, start=1):
        obj.setdefault("id", oid)
    for obj in objects:
        attrs = [f'id="{obj["id"]}"']
        if obj.get("name"):
            attrs.append(f'name="{escape(obj["name"])}"')
        if obj.get("cls"):
            # `type`, not Tiled 1.9's `class`: every Tiled version reads `type` as the object's class (1.10+
            # writes it again), while Tiled 1.8 (Debian 12, Ubuntu 22.04) drops `class` on load and save.
            attrs.append(f'type="{obj["cls"]}"')
        if "gid" in obj:
            attrs.append(f'gid="{obj["gid"] + 1}"')
        attrs.append(f'x="{obj["x"]}" y="{obj["y"]}"')
        if "w" in obj:
            attrs.append(f'width="{obj["w"]}" height="{obj["h"]}"')
        inner = _prop_xml(obj.get("props", {}))
        if obj.get("kind") == "point":
            inner += "<point/>"
        elif obj.get("kind") in ("polyline", "polygon"):
            inner += f'<{obj["kind"]} points="{" ".join(f"{x},{y}" for x, y in obj["points"])}"/>'
        objs.append(f'  <object {" ".join(attrs)}>{inner}</object>')
    next_id = max((o["id"] for o in objects), default=0) + 1
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" class="LedgekitMap" orientation="orthogonal" renderorder="right-down" '
        f'width="{width}" height="{height}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" '
        f'backgroundcolor="#7ec8f0" nextlayerid="{3 + len(BACKGROUNDS)}" nextobjectid="{next_id}">\n'
        f' {_prop_xml(properties)}\n'
        ' <tileset firstgid="1" source="tiles.tsx"/>\n'
        + (background_xml(height * TILE, theme) if backgrounds else "")
        + f' <layer id="1" name="ground" width="{width}" height="{height}">\n'
        f'  <data encoding="csv">\n{data}\n</data>\n </layer>\n'
        ' <objectgroup id="2" name="things">\n' + "\n".join(objs) + "\n </objectgroup>\n</map>\n"
    )


def tile_at(col: int, row: int) -> tuple[int, int]:
    """Tiled pixel position of a tile cell's top-left corner."""
    return col * TILE, row * TILE


def _demo_layout() -> list[str]:
    """The demo, built feature by feature on an 80 x 14 grid (row 12 is the ground's top row)."""
    w, h = 80, 14
    g = [["."] * w for _ in range(h)]

    def put(row: int, col: int, text: str) -> None:
        for k, ch in enumerate(text):
            g[row][col + k] = ch

    for col in [*range(0, 17), *range(20, 48), *range(57, 80)]:  # ground, with two pits
        g[12][col] = g[13][col] = "#"
    put(7, 10, "---")  # one-way ledges with coins over the start and the first pit
    put(7, 20, "---")
    put(11, 29, "/")  # the hill: a 45-degree slope up, a 2:1 slope up, a top, a 2:1 slope down
    put(11, 30, "#" * 12)
    put(10, 31, "ab" + "#" * 6 + "cd")
    put(9, 33, "ab##cd")
    put(11, 42, "\\")
    put(10, 52, "---")  # a one-way step before the ferry
    put(11, 60, "=")  # half-block stairs up to the last plateau
    put(11, 61, "#" * 19)
    put(10, 62, "=")
    put(10, 63, "#" * 17)
    put(9, 64, "=")
    put(9, 65, "#" * 15)
    for col in range(4, 80, 9):  # grass tufts on the ground
        if g[12][col] == "#" and g[11][col] == ".":
            g[11][col] = '"'
    return ["".join(row) for row in g]


DEMO = _demo_layout()

def demo_objects() -> list[dict]:
    return [
        {"name": "start", "cls": "Spawn", "kind": "point", "x": 64, "y": 360},
        {"cls": "Crate", "x": 200, "y": 352, "w": 32, "h": 32, "props": {"density": 0.6}},
        {"cls": "Pickup", "kind": "point", "x": 368, "y": 200, "props": {"kind": "coin"}},
        {"cls": "Pickup", "kind": "point", "x": 688, "y": 200, "props": {"kind": "coin"}},
        # (Spikes one tile high, on the pit's floor: a taller hazard draws a second row floating in the air.)
        {"cls": "Hazard", "name": "pit", "x": 544, "y": 416, "w": 96, "h": 32},
        {"cls": "Solid", "name": "boulder", "kind": "polygon", "x": 800, "y": 384,
         "points": [(0, 0), (14, -20), (40, -24), (56, 0)]},
        {"cls": "Checkpoint", "name": "hilltop", "x": 1168, "y": 224, "w": 32, "h": 64},
        {"cls": "Hazard", "name": "pit", "x": 1536, "y": 416, "w": 288, "h": 32},
        # The ferry shuttles between the pit's edges, flush with the ground at both ends.
        {"id": 20, "cls": "MovingPlatform", "name": "ferry", "x": 1536, "y": 384, "w": 96, "h": 16,
         "props": {"path": 21, "speed": 70.0, "mode": "pingpong"}},
        {"id": 21, "name": "ferry path", "kind": "polyline", "x": 1584, "y": 392, "points": [(0, 0), (192, 0)]},
        {"cls": "Pickup", "kind": "point", "x": 1680, "y": 320, "props": {"kind": "coin"}},
        {"cls": "Crate", "x": 1860, "y": 352, "w": 32, "h": 32},
        {"cls": "OneWay", "name": "ledge", "x": 2176, "y": 200, "w": 96, "h": 8},
        {"cls": "Pickup", "kind": "point", "x": 2224, "y": 168, "props": {"kind": "coin"}},
        {"cls": "Goal", "name": "flag", "x": 2464, "y": 224, "w": 32, "h": 64},
        {"id": 22, "cls": "Sign", "name": "hint", "x": 112, "y": 300, "w": 96, "h": 24,
         "props": {"text": "[right] runs, [jump] jumps"}},
        {"id": 23, "cls": "Ladder", "name": "ladder", "x": 2144, "y": 200, "w": 32, "h": 86},
        {"id": 24, "cls": "Walker", "name": "beetle", "kind": "point", "x": 2256, "y": 186, "props": {"speed": 25.0}},
        {"id": 25, "cls": "Switch", "name": "button", "x": 2336, "y": 278, "w": 32, "h": 8, "props": {"door": 26}},
        {"id": 26, "cls": "Door", "name": "gate", "x": 2180, "y": 152, "w": 12, "h": 48},
        {"id": 27, "cls": "FallingPlatform", "name": "crumbly", "x": 2056, "y": 184, "w": 64, "h": 16,
         "props": {"delay": 0.5}},
        {"id": 28, "cls": "Spring", "name": "boing", "x": 384, "y": 210, "w": 32, "h": 12, "props": {"height": 120.0}},
    ]


PLAYGROUND = [
    "............................................................",
    "............................................................",
    "............................................................",
    "............................................................",
    "..................................................----......",
    "............................................................",
    "............................................................",
    "..................ab##cd....................................",
    "................ab######cd..................................",
    "....../######\\..##########..../####\\........................",
    "############################################################",
    "############################################################",
]


def playground_objects() -> list[dict]:
    objects = [{"name": "start", "cls": "Spawn", "kind": "point", "x": 48, "y": 300}]
    # A pyramid of crates on the right, a stack in the middle.
    for row in range(5):
        for k in range(5 - row):
            objects.append({"cls": "Crate", "x": 1300 + k * 33 + row * 16, "y": 320 - 32 * (row + 1), "w": 32, "h": 32})
    for i in range(4):
        objects.append({"cls": "Crate", "x": 940, "y": 320 - 32 * (i + 1), "w": 32, "h": 32, "props": {"density": 0.5}})
    objects.append({"cls": "Crate", "x": 250, "y": 200, "w": 32, "h": 32, "props": {"restitution": 0.6}})
    objects += [
        {"id": 40, "cls": "MovingPlatform", "name": "lift", "x": 1100, "y": 300, "w": 96, "h": 16,
         "props": {"path": 41, "speed": 60.0, "mode": "pingpong", "one_way": True}},
        {"id": 41, "name": "lift path", "kind": "polyline", "x": 1148, "y": 308, "points": [(0, 0), (0, -160)]},
        {"id": 42, "cls": "MovingPlatform", "name": "shuttle", "x": 1500, "y": 140, "w": 96, "h": 16,
         "props": {"path": 43, "speed": 80.0, "mode": "pingpong"}},
        {"id": 43, "name": "shuttle path", "kind": "polyline", "x": 1548, "y": 148, "points": [(0, 0), (240, 0)]},
        {"id": 26, "cls": "Goal", "name": "flag", "x": 1880, "y": 256, "w": 32, "h": 64},
        {"id": 44, "cls": "Spring", "name": "boing", "x": 1200, "y": 308, "w": 32, "h": 12, "props": {"height": 200.0}},
        {"id": 45, "cls": "Walker", "name": "beetle", "kind": "point", "x": 1560, "y": 300, "props": {"speed": 50.0}},
        {"id": 46, "cls": "Ladder", "name": "ladder", "x": 1728, "y": 128, "w": 32, "h": 192},
        {"id": 47, "cls": "FallingPlatform", "name": "crumbly", "x": 1780, "y": 220, "w": 64, "h": 16,
         "props": {"delay": 0.6}},
        {"id": 48, "cls": "Switch", "name": "button", "x": 70, "y": 312, "w": 32, "h": 8, "props": {"door": 49}},
        {"id": 49, "cls": "Door", "name": "gate", "x": 160, "y": 224, "w": 16, "h": 96},
    ]
    return objects


def main() -> None:
    (LEVELS / "tiles.tsx").write_text(tileset_xml())
    (LEVELS / "demo.tmx").write_text(map_xml(DEMO, demo_objects(), {"gravity": 1800.0, "segment_radius": 2.0,
                                                                    "next_level": "playground.tmx"}))
    (LEVELS / "playground.tmx").write_text(map_xml(PLAYGROUND, playground_objects(), {"gravity": 1800.0,
                                                                                       "segment_radius": 2.0}))
    from .tutorial import LEVELS as TUTORIAL, PROPERTIES

    for name, (layout, objects, next_level, theme) in TUTORIAL.items():
        (LEVELS / name).write_text(map_xml(layout(), objects(), {**PROPERTIES, "next_level": next_level},
                                           theme=theme))
    print(f"wrote levels/tiles.tsx, levels/demo.tmx, levels/playground.tmx, {', '.join(f'levels/{n}' for n in TUTORIAL)}")


if __name__ == "__main__":
    main()
