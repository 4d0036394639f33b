"""Writes tests/play/fixtures/blocks.tmx: one small level with every building block of engine.play, in the
order a player meets them running right (spring, ladder to a ledge, falling platform, a walker in a pit,
a switch and its door, the goal). Run it to regenerate the map; the map is committed."""

from pathlib import Path

HEIGHT = 384  # 12 rows of 32 px

OBJECTS = [
    # (class, x, y, width, height, properties, name); Tiled frame (y down)
    ("Spawn", 48, 340, 0, 0, {}, "start"),
    ("Solid", 0, 352, 1600, 32, {}, "floor"),
    ("Solid", 0, 0, 16, 352, {}, "left wall"),
    ("Solid", 1584, 0, 16, 352, {}, "right wall"),
    ("Spring", 200, 340, 32, 12, {"height": ("float", 96.0)}, "spring"),
    ("Ladder", 400, 160, 32, 192, {"speed": ("float", 120.0)}, "ladder"),
    ("Solid", 432, 160, 288, 16, {}, "ledge a"),
    ("FallingPlatform", 736, 160, 64, 16, {"delay": ("float", 0.5)}, "crumbly"),
    ("Solid", 816, 160, 184, 16, {}, "ledge b"),
    ("Solid", 1000, 336, 16, 16, {}, "pit left"),
    ("Solid", 1136, 336, 16, 16, {}, "pit right"),
    ("Walker", 1076, 340, 0, 0, {"speed": ("float", 20.0)}, "beetle"),
    ("Switch", 1250, 344, 32, 8, {"door": ("object", 14)}, "switch"),
    ("Door", 1350, 256, 16, 96, {"speed": ("float", 200.0)}, "door"),
    ("Goal", 1500, 288, 32, 64, {}, "flag"),
]


def main() -> None:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="50" '
        f'height="12" tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="{len(OBJECTS) + 1}">',
        ' <objectgroup id="1" name="things">',
    ]
    for index, (cls, x, y, w, h, props, name) in enumerate(OBJECTS, start=1):
        size = f' width="{w}" height="{h}"' if w else ""
        body = "<point/>" if not w else ""
        if props:
            items = "".join(f'<property name="{k}" type="{t}" value="{v}"/>' for k, (t, v) in props.items())
            body += f"<properties>{items}</properties>"
        lines.append(f'  <object id="{index}" name="{name}" class="{cls}" x="{x}" y="{y}"{size}>{body}</object>')
    lines += [" </objectgroup>", "</map>", ""]
    (Path(__file__).parent / "fixtures" / "blocks.tmx").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
