"""The demo's three teaching levels, as layouts and objects for :mod:`game.mapmaker` (which writes them to
``levels/``): each shows one part of the framework and leads to the next through ``next_level``.

1. ``1_hills_and_ledges.tmx``: seamless slopes (45-degree and 2:1, up and down, a valley) and one-way
   platforms (a staircase to jump up through, a bridge to drop through with down + jump).
2. ``2_crates.tmx``: crates: a stack to climb, a crate to push under a ledge, a crate a spring throws up.
3. ``3_machines.tmx``: an enemy to stomp, a moving platform, a ladder, falling platforms, a door and its
   switch.

Layout legend as in :mod:`game.mapmaker`; objects in Tiled pixels (y down, from the map's top-left). Every
map is 16 rows of 32 px; the ground's top row is row 13 unless said otherwise.
"""

from __future__ import annotations

from .art import TILE

HEIGHT = 16
GROUND = 13
"""The top row of the ground in every tutorial level."""
PROPERTIES = {"gravity": 1800.0, "segment_radius": 2.0}


class Grid:
    """A layout being drawn: ``width`` x HEIGHT cells of the mapmaker legend, empty to start."""

    def __init__(self, width: int) -> None:
        self.cells = [["."] * width for _ in range(HEIGHT)]

    def put(self, row: int, col: int, text: str) -> None:
        """Write ``text`` from (row, col) to the right."""
        for k, ch in enumerate(text):
            self.cells[row][col + k] = ch

    def fill(self, rows: range, cols: range, ch: str = "#") -> None:
        for row in rows:
            for col in cols:
                self.cells[row][col] = ch

    def ground(self, cols: range, top: int = GROUND) -> None:
        """Solid ground from row ``top`` down to the map's bottom."""
        self.fill(range(top, HEIGHT), cols)

    def rows(self) -> list[str]:
        return ["".join(row) for row in self.cells]


def px(col: float) -> float:
    """Tiled px of a column (or a row): its left (top) edge."""
    return col * TILE


def coin(col: float, row: float) -> dict:
    """A coin centred in cell (col, row)."""
    return {"cls": "Pickup", "kind": "point", "x": px(col) + 16, "y": px(row) + 16, "props": {"kind": "coin"}}


def crate(col: float, row: float, **props: float) -> dict:
    """A 32 px crate filling cell (col, row)."""
    return {"cls": "Crate", "x": px(col), "y": px(row), "w": 32, "h": 32, **({"props": props} if props else {})}


def spawn(col: float, row: float = GROUND - 1) -> dict:
    return {"name": "start", "cls": "Spawn", "kind": "point", "x": px(col) + 16, "y": px(row) + 8}


def flag(cls: str, col: float, top_row: int, name: str) -> dict:
    """A goal or checkpoint flag standing on the ground whose top is ``top_row``: one tile wide, two high."""
    return {"cls": cls, "name": name, "x": px(col), "y": px(top_row - 2), "w": 32, "h": 64}


# ------------------------------------------------------------------------------------------------ level 1
def hills_layout() -> list[str]:
    """Slopes and one-way platforms, 176 x 16."""
    g = Grid(176)
    g.ground(range(0, 22))
    g.put(12, 8, "ab" + "#" * 6 + "cd")  # a gentle 2:1 hill, two tiles high
    g.put(11, 10, "ab##cd")
    g.put(GROUND, 22, "\\")  # a 45-degree valley, one tile deep
    g.ground(range(22, 80), GROUND + 1)
    g.ground(range(29, 50))
    g.put(GROUND, 29, "/")
    g.put(12, 32, "/" + "#" * 6 + "\\")  # a 45-degree hill, three tiles high
    g.put(11, 33, "/" + "#" * 4 + "\\")
    g.put(10, 34, "/##\\")
    g.put(11, 42, "---")  # a staircase of one-way platforms up to the cliff (jump up through them)
    g.put(9, 46, "---")
    g.ground(range(50, 60), 8)  # the cliff top, 5 tiles above the ground
    g.put(8, 60, "-" * 8)  # a one-way bridge: the way on is under it (down + jump drops through)
    g.fill(range(3, 11), range(68, 76))  # a hill the way on tunnels under (too high to climb from the bridge)
    g.ground(range(60, 80))
    g.ground(range(85, 110))  # past a pit of spikes, rolling 2:1 hills to the goal
    g.put(11, 81, "--")
    g.put(12, 89, "ab" + "#" * 4 + "cd")
    g.put(12, 98, "ab####cd")
    g.put(11, 100, "abcd")
    g.ground(range(110, 176))
    g.fill(range(GROUND, GROUND + 2), range(110, 114), ".")  # a sharp V: two 45-degree slopes that meet
    g.put(GROUND, 110, "\\")
    g.put(GROUND + 1, 111, "\\/")
    g.put(GROUND, 113, "/")
    g.fill(range(GROUND + 1, GROUND + 2), range(110, 111))
    g.fill(range(GROUND + 1, GROUND + 2), range(113, 114))
    for row, col in ((11, 119), (9, 122), (7, 119), (5, 122)):  # a zigzag tower of one-way platforms ...
        g.put(row, col, "---")
    g.ground(range(126, 141), 4)  # ... up to a mesa nine tiles high
    for k in range(9):  # and a long 2:1 slope all the way down
        g.put(4 + k, 141 + 2 * k, "cd")
        g.ground(range(141 + 2 * k, 143 + 2 * k), 5 + k)
    for col in (3, 26, 27, 54, 74, 106, 118, 165):  # grass tufts
        if g.cells[GROUND][col] == "#" and g.cells[GROUND - 1][col] == ".":
            g.cells[GROUND - 1][col] = '"'
    return g.rows()


def hills_objects() -> list[dict]:
    return [
        spawn(2),
        coin(14, 9), coin(15, 9),  # over the 2:1 hill
        coin(25, 12), coin(26, 12),  # in the valley
        coin(35, 8), coin(36, 8),  # over the 45-degree hill
        coin(47, 7),  # over the top step
        flag("Checkpoint", 54, 8, "cliff top"),
        coin(63, 12), coin(64, 12),  # under the bridge: only reached by dropping through it
        {"cls": "Hazard", "name": "spikes", "x": px(80), "y": px(GROUND + 1), "w": 160, "h": 64},
        coin(81.5, 9),
        coin(101, 8),
        flag("Checkpoint", 106, GROUND, "past the spikes"),
        coin(111.5, 13),  # at the bottom of the V
        coin(120, 10), coin(123, 8), coin(120, 6), coin(123, 4),  # up the tower
        flag("Checkpoint", 128, 4, "mesa"),
        coin(134, 2), coin(135, 2), coin(136, 2),
        coin(150, 7), coin(156, 10),  # over the long slope
        flag("Goal", 171, GROUND, "flag"),
    ]


# ------------------------------------------------------------------------------------------------ level 2
def crates_layout() -> list[str]:
    """Crates, 150 x 16."""
    g = Grid(150)
    g.ground(range(0, 16))
    g.ground(range(16, 31), GROUND - 4)  # a wall four tiles high: too high to jump, a crate stack climbs it
    g.ground(range(31, 46))
    g.ground(range(46, 56), GROUND - 4)  # reached from the one-way ledge a crate brings within a jump
    g.ground(range(56, 66))
    g.ground(range(66, 85), GROUND - 2)  # where the spring throws the crate
    g.ground(range(85, 105), GROUND - 6)  # reached from the second ledge, with the crate's help again
    g.ground(range(105, 118))
    g.ground(range(118, 134), GROUND - 5)  # five tiles high: a pyramid of crates climbs it
    for k in range(4):  # 45-degree slopes down to the goal
        g.put(GROUND - 5 + k, 134 + k, "\\")
        g.ground(range(134 + k, 135 + k), GROUND - 4 + k)
    g.ground(range(138, 150))
    return g.rows()


def crates_objects() -> list[dict]:
    top3 = GROUND - 2
    return [
        spawn(2),
        crate(14, GROUND - 1), crate(15, GROUND - 1), crate(15, GROUND - 2),  # steps up the wall
        coin(15, GROUND - 4),
        flag("Checkpoint", 28, GROUND - 4, "wall top"),
        crate(37, GROUND - 1),  # push it under the ledge
        {"cls": "OneWay", "name": "ledge", "x": px(41), "y": px(GROUND) - 112, "w": 160, "h": 8},
        coin(43, GROUND - 5),
        flag("Checkpoint", 52, GROUND - 4, "ledge top"),
        crate(60, GROUND - 1),  # push it onto the spring: it flies up to the next floor
        {"cls": "Spring", "name": "boing", "x": px(64), "y": px(GROUND) - 12, "w": 32, "h": 12,
         "props": {"height": 160.0}},
        coin(64, GROUND - 6),
        {"cls": "OneWay", "name": "high ledge", "x": px(80), "y": px(top3) - 112, "w": 160, "h": 8},
        coin(82, top3 - 5),
        flag("Checkpoint", 95, GROUND - 6, "high top"),
        coin(100, GROUND - 8), coin(102, GROUND - 8),
        crate(115, GROUND - 1), crate(116, GROUND - 1), crate(117, GROUND - 1),  # a pyramid against the wall
        crate(116, GROUND - 2), crate(117, GROUND - 2),
        crate(117, GROUND - 3),
        coin(117, GROUND - 6),
        coin(126, GROUND - 7), coin(127, GROUND - 7),
        flag("Goal", 145, GROUND, "flag"),
    ]


# ------------------------------------------------------------------------------------------------ level 3
def machines_layout() -> list[str]:
    """Enemies, a moving platform, a ladder, falling platforms, a door and its switch, a lift, 172 x 16."""
    g = Grid(172)
    g.ground(range(0, 22))
    g.ground(range(36, 46))
    g.ground(range(46, 62), GROUND - 6)  # a wall six tiles high: the ladder climbs it
    g.put(GROUND - 7, 48, "#")  # a bump that keeps the beetle up there off the ladder's top
    g.ground(range(74, 100), GROUND - 6)  # past the falling platforms
    for k in range(4):  # 45-degree slopes down to the goal's meadow
        g.put(GROUND - 6 + k, 100 + k, "\\")
        g.ground(range(100 + k, 101 + k), GROUND - 5 + k)
    g.ground(range(104, 126), GROUND - 2)
    g.ground(range(126, 141), 3)  # a wall ten tiles high: the lift goes up it ...
    g.put(2, 139, "#")  # (a bump that keeps the beetle up there off the ladder's top)
    g.ground(range(141, 172))  # ... and a ladder down its far side
    return g.rows()


def machines_objects() -> list[dict]:
    upper = GROUND - 6
    return [
        spawn(2),
        {"cls": "Walker", "name": "beetle", "x": px(14), "y": px(GROUND) - 26, "w": 24, "h": 26,
         "props": {"speed": 40.0, "direction": -1}},
        coin(15, GROUND - 4),
        {"cls": "Hazard", "name": "pit", "x": px(22), "y": px(GROUND + 1), "w": px(14), "h": 64},
        # The ferry shuttles across the pit, flush with the ground at both ends.
        {"id": 50, "cls": "MovingPlatform", "name": "ferry", "x": px(22) + 2, "y": px(GROUND) - 2, "w": 96, "h": 16,
         "props": {"path": 51, "speed": 80.0, "mode": "pingpong"}},
        {"id": 51, "name": "ferry path", "kind": "polyline", "x": px(22) + 50, "y": px(GROUND) + 6,
         "points": [(0, 0), (px(14) - 100, 0)]},
        coin(29, GROUND - 3),
        flag("Checkpoint", 38, GROUND, "after the ferry"),
        {"cls": "Ladder", "name": "ladder", "x": px(45), "y": px(upper), "w": 32, "h": px(6)},
        coin(45, upper - 2),
        {"cls": "Walker", "name": "beetle", "x": px(55), "y": px(upper) - 26, "w": 24, "h": 26,
         "props": {"speed": 50.0}},
        {"cls": "Hazard", "name": "chasm", "x": px(62), "y": px(HEIGHT - 1), "w": px(12), "h": 32},
        {"cls": "FallingPlatform", "name": "crumbly", "x": px(63), "y": px(upper), "w": 64, "h": 16,
         "props": {"delay": 0.5}},
        {"cls": "FallingPlatform", "name": "crumbly", "x": px(67), "y": px(upper), "w": 64, "h": 16,
         "props": {"delay": 0.5}},
        {"cls": "FallingPlatform", "name": "crumbly", "x": px(71), "y": px(upper), "w": 64, "h": 16,
         "props": {"delay": 0.5}},
        coin(68, upper - 3),
        flag("Checkpoint", 76, upper, "over the chasm"),
        {"cls": "Switch", "name": "button", "x": px(81), "y": px(upper) - 8, "w": 32, "h": 8, "props": {"door": 60}},
        {"id": 60, "cls": "Door", "name": "gate", "x": px(90) + 8, "y": px(upper - 3), "w": 16, "h": 96},
        coin(95, upper - 1),
        flag("Checkpoint", 108, GROUND - 2, "meadow"),
        {"id": 70, "cls": "MovingPlatform", "name": "lift", "x": px(123), "y": px(GROUND - 2) - 2, "w": 96,
         "h": 16, "props": {"path": 71, "speed": 60.0, "mode": "pingpong", "one_way": True}},
        {"id": 71, "name": "lift path", "kind": "polyline", "x": px(123) + 48, "y": px(GROUND - 2) + 6,
         "points": [(0, 0), (0, -px(8))]},
        coin(124, 5),
        flag("Checkpoint", 128, 3, "wall top"),
        {"cls": "Walker", "name": "beetle", "x": px(134), "y": px(3) - 26, "w": 24, "h": 26, "props": {"speed": 45.0}},
        coin(136, 1),
        {"cls": "Ladder", "name": "long ladder", "x": px(141), "y": px(3), "w": 32, "h": px(GROUND - 3)},
        coin(141, 8),
        {"cls": "Switch", "name": "button", "x": px(148), "y": px(GROUND) - 8, "w": 32, "h": 8,
         "props": {"door": 72}},
        {"id": 72, "cls": "Door", "name": "gate", "x": px(157) + 8, "y": px(GROUND - 3), "w": 16, "h": 96},
        coin(162, GROUND - 1),
        flag("Goal", 166, GROUND, "flag"),
    ]


LEVELS = {
    "1_hills_and_ledges.tmx": (hills_layout, hills_objects, "2_crates.tmx"),
    "2_crates.tmx": (crates_layout, crates_objects, "3_machines.tmx"),
    "3_machines.tmx": (machines_layout, machines_objects, "playground.tmx"),
}
"""File name -> (layout, objects, the level the goal leads to)."""
