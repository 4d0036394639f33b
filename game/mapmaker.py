"""Writes the shipped Tiled files (``levels/tiles.tsx``, ``levels/demo.tmx``, ``levels/playground.tmx``)
from ASCII layouts, so the first versions of the levels are reproducible. After that they are ordinary
Tiled files: open them in Tiled, edit, save. Run ``python -m game.mapmaker`` to rewrite them (this
overwrites edits).

Layout legend (one character per 32 px tile, top row first):

``#`` block, ``/`` and ``\\`` 45-degree slopes, ``a b`` a 2:1 slope rising right (low, high), ``c d`` a
2:1 slope rising left (high, low), ``=`` half block, ``-`` one-way platform, ``"`` grass (decoration),
``.`` or space nothing.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from .art import (
    BLOCK_INNER, TILE_ANIMATIONS, TILE_CLASSES, TILE_COUNT, TILE_PROPERTIES,
    BLOCK, GRASS, HALF, ONE_WAY, SLOPE2_L_HIGH, SLOPE2_L_LOW, SLOPE2_R_HIGH,
    SLOPE2_R_LOW, SLOPE_L, SLOPE_R, TILE,
)

LEVELS = Path(__file__).resolve().parents[1] / "levels"

COLLISION = {
    BLOCK: "rect 0 0 32 32",
    BLOCK_INNER: "rect 0 0 32 32",
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
          "d": SLOPE2_L_LOW, "=": HALF, "-": ONE_WAY, '"': GRASS}


def tileset_xml() -> str:
    tiles = []
    for tid in range(TILE_COUNT):
        parts = []
        properties = dict(TILE_PROPERTIES.get(tid, {}))
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
        f'tilecount="{TILE_COUNT}" columns="{TILE_COUNT}">\n'
        f' <image source="../assets/tiles.png" width="{TILE_COUNT * TILE}" height="32"/>\n'
        + "\n".join(tiles) + "\n</tileset>\n"
    )


def _prop_xml(props: dict) -> str:
    if not props:
        return ""
    rows = []
    for name, value in props.items():
        if isinstance(value, bool):
            rows.append(f'<property name="{name}" type="bool" value="{str(value).lower()}"/>')
        elif isinstance(value, int) and name == "path":
            rows.append(f'<property name="{name}" type="object" value="{value}"/>')
        elif isinstance(value, (int, float)):
            rows.append(f'<property name="{name}" type="float" value="{value}"/>')
        elif name == "next_level":
            rows.append(f'<property name="{name}" type="file" value="{escape(value)}"/>')
        else:
            rows.append(f'<property name="{name}" value="{escape(str(value))}"/>')
    return "<properties>" + "".join(rows) + "</properties>"


def map_xml(layout: list[str], objects: list[dict], properties: dict) -> str:
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
            tid = LEGEND[ch]
            if tid == BLOCK and r > 0 and grid[r - 1][c] in "#/\\abcd=":
                tid = BLOCK_INNER  # covered blocks have no grass on top
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
            attrs.append(f'class="{obj["cls"]}"')
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
        f'backgroundcolor="#7ec8f0" nextlayerid="3" nextobjectid="{next_id}">\n'
        f' {_prop_xml(properties)}\n'
        ' <tileset firstgid="1" source="tiles.tsx"/>\n'
        f' <layer id="1" name="ground" width="{width}" height="{height}">\n'
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
        {"cls": "Hazard", "name": "pit", "x": 544, "y": 400, "w": 96, "h": 48},
        {"cls": "Solid", "name": "boulder", "kind": "polygon", "x": 800, "y": 384,
         "points": [(0, 0), (14, -20), (40, -24), (56, 0)]},
        {"cls": "Checkpoint", "name": "hilltop", "x": 1168, "y": 224, "w": 32, "h": 64},
        {"cls": "Hazard", "name": "pit", "x": 1536, "y": 400, "w": 288, "h": 48},
        # The ferry shuttles between the pit's edges, flush with the ground at both ends.
        {"id": 20, "cls": "MovingPlatform", "name": "ferry", "x": 1538, "y": 382, "w": 96, "h": 16,
         "props": {"path": 21, "speed": 70.0, "mode": "pingpong"}},
        {"id": 21, "name": "ferry path", "kind": "polyline", "x": 1586, "y": 390, "points": [(0, 0), (188, 0)]},
        {"cls": "Pickup", "kind": "point", "x": 1680, "y": 320, "props": {"kind": "coin"}},
        {"cls": "Crate", "x": 1860, "y": 352, "w": 32, "h": 32},
        {"cls": "OneWay", "name": "ledge", "x": 2176, "y": 200, "w": 96, "h": 8},
        {"cls": "Pickup", "kind": "point", "x": 2224, "y": 168, "props": {"kind": "coin"}},
        {"cls": "Goal", "name": "flag", "x": 2464, "y": 224, "w": 32, "h": 64},
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
    "....../######\\..#########...../####\\........................",
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
        {"cls": "Goal", "name": "flag", "x": 1880, "y": 256, "w": 32, "h": 64},
    ]
    return objects


def main() -> None:
    (LEVELS / "tiles.tsx").write_text(tileset_xml())
    (LEVELS / "demo.tmx").write_text(map_xml(DEMO, demo_objects(), {"gravity": 1800.0, "segment_radius": 2.0,
                                                                    "next_level": "playground.tmx"}))
    (LEVELS / "playground.tmx").write_text(map_xml(PLAYGROUND, playground_objects(), {"gravity": 1800.0,
                                                                                       "segment_radius": 2.0}))
    print("wrote levels/tiles.tsx, levels/demo.tmx, levels/playground.tmx")


if __name__ == "__main__":
    main()
