"""The demo's three teaching levels, as layouts and objects for :mod:`game.mapmaker` (which writes them to
``levels/``): each shows one part of the framework, starts with the plain lesson and then combines it with
what came before, harder section by section, with a checkpoint between sections and coins off the straight
path; each leads to the next through ``next_level``. A straight run (the recorded one in
``tests/game/runs/``) takes 75 s to 110 s; a first play, a few minutes.

1. ``1_hills_and_ledges.tmx``: seamless slopes (45-degree and 2:1, up and down, a valley) and one-way
   platforms (ledges up a cliff's face to jump up through, a bridge with the way on under it: drop through
   it with down + jump, or walk off its open end); then hill country pairing the two slopes every way, gaps
   over spikes, one-way ledges up to a cave of three one-way floors stepping down (drop through each, or
   walk off its end), a summit and its stepped descent, a long one-way bridge over spikes and the last,
   highest hills. Every climb is a stack of ledges against a wall, every gap three tiles at most, and no
   drop-through is required, so holding right and jumping at each gap or wall reaches the goal
   (tests/game/test_fair_levels.py plays it so).
2. ``2_crates.tmx``: crates: a stack to climb, a crate to push under a ledge, a crate a spring throws up;
   then crates pushed into pits onto switches (opening the doors past them), a crate slid down into a
   valley and pushed to its far wall, walls climbed one crate each, a second spring, and a pyramid of ten.
3. ``3_machines.tmx``: an enemy to stomp, a moving platform, a ladder, falling platforms, a door and its
   switch; then two ferries, a tower with a beetle, falling platforms stepping down, a switch up a ladder
   for the door ahead, a faster lift to a plateau of two beetles and a last ferry.

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

    def hill(self, col: int, height: int, top: int, up: int = 1, down: int = 1) -> int:
        """A hill on the ground from ``col``: ``height`` tiles high, ``top`` tiles flat on top, its sides
        45-degree (``up``/``down`` 1) or 2:1 (2) slopes. Returns the column after it."""
        end = col + (up + down) * height + top
        for k in range(height):
            row, start, stop = GROUND - 1 - k, col + up * k, end - down * k
            self.fill(range(row, row + 1), range(start, stop))
            self.put(row, start, "/" if up == 1 else "ab")
            self.put(row, stop - down, "\\" if down == 1 else "cd")
        return end

    def valley(self, col: int, depth: int, bottom: int, down: int = 1, up: int = 1) -> int:
        """A valley dug into the ground from ``col``: ``depth`` tiles deep (two at most: the map's bottom
        row stays), ``bottom`` tiles flat at the bottom, 45-degree (1) or 2:1 (2) sides. Returns the column
        after it."""
        end = col + (up + down) * depth + bottom
        for k in range(depth):
            row, start, stop = GROUND + k, col + down * k, end - up * k
            self.fill(range(row, row + 1), range(start, stop), ".")
            self.put(row, start, "\\" if down == 1 else "cd")
            self.put(row, stop - up, "/" if up == 1 else "ab")
        return end

    def pit(self, cols: range) -> None:
        """No ground at all in ``cols`` (a hazard at the bottom is the caller's)."""
        self.fill(range(GROUND, HEIGHT), cols, ".")


def decorate(g: Grid, cols: tuple[int, ...], kinds: str) -> None:
    """Decorations (legend characters ``kinds``, taken in turn) on the topmost open ground of each column of
    ``cols``: each level its own (flowers, mushrooms, pebbles), so no two look alike."""
    for k, col in enumerate(cols):
        for row in range(1, HEIGHT):
            if g.cells[row][col] == "#" and g.cells[row - 1][col] == ".":
                g.cells[row - 1][col] = kinds[k % len(kinds)]
                break


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


def sign(col: float, top_row: int, text: str) -> dict:
    """A sign whose post stands on the ground whose top is ``top_row``, in cell ``col``; ``text`` names
    controls as ``[action]`` (written with the player's bindings, see :mod:`game.signs`)."""
    return {"cls": "Sign", "name": "sign", "x": px(col) + 4, "y": px(top_row) - 32, "w": 24, "h": 32,
            "props": {"text": text}}


def flag(cls: str, col: float, top_row: int, name: str) -> dict:
    """A goal or checkpoint flag standing on the ground whose top is ``top_row``: one tile wide, two high."""
    return {"cls": cls, "name": name, "x": px(col), "y": px(top_row - 2), "w": 32, "h": 64}


# ------------------------------------------------------------------------------------------------ level 1
def ledge_stack(g: Grid, wall: int, rows: tuple[int, ...]) -> None:
    """One-way ledges three tiles wide against the face of the wall at column ``wall``, one on each of
    ``rows``: a climb for someone who jumps at the wall (each ledge two tiles over the last, a jump's reach)."""
    for row in rows:
        g.put(row, wall - 3, "---")


def hills_layout() -> list[str]:
    """Slopes and one-way platforms, 590 x 16."""
    g = Grid(590)
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
    ledge_stack(g, 50, (11, 9))  # thin ledges up the cliff's face (jump up through them)
    g.ground(range(50, 60), 8)  # the cliff top, 5 tiles above the ground
    g.put(8, 60, "-" * 6)  # a one-way bridge: the way on is under it, down its open end or through it
    g.fill(range(3, 11), range(68, 76))  # a hill the way on tunnels under (too high to climb from the bridge)
    g.ground(range(60, 80))
    g.ground(range(83, 110))  # past a pit of spikes, rolling 2:1 hills to the goal
    g.put(11, 81, "--")
    g.put(12, 89, "ab" + "#" * 4 + "cd")
    g.put(12, 98, "ab####cd")
    g.put(11, 100, "abcd")
    g.ground(range(110, 590))
    g.fill(range(GROUND, GROUND + 2), range(110, 114), ".")  # a sharp V: two 45-degree slopes that meet
    g.put(GROUND, 110, "\\")
    g.put(GROUND + 1, 111, "\\/")
    g.put(GROUND, 113, "/")
    g.fill(range(GROUND + 1, GROUND + 2), range(110, 111))
    g.fill(range(GROUND + 1, GROUND + 2), range(113, 114))
    ledge_stack(g, 126, (11, 9, 7, 5))  # a tower of one-way ledges up the face of a mesa nine tiles high
    g.ground(range(126, 141), 4)
    for k in range(9):  # and a long 2:1 slope all the way down
        g.put(4 + k, 141 + 2 * k, "cd")
        g.ground(range(141 + 2 * k, 143 + 2 * k), 5 + k)
    # Hill country: every pairing of the two slopes, up and down, and valleys at the hills' feet.
    g.hill(166, 2, 2, up=1, down=2)
    g.hill(176, 3, 1, up=2, down=1)
    g.valley(188, 2, 2, down=2, up=1)
    g.hill(198, 4, 3)  # a 45-degree hill four tiles high ...
    g.valley(209, 2, 0, down=1, up=2)  # ... going on down into a valley: one slope six tiles long
    g.hill(217, 2, 0, up=2, down=2)  # a 2:1 peak
    for cols in PITS_1:  # gaps to jump, the last one with a one-way ledge halfway
        g.pit(cols)
    g.hill(250, 1, 2)  # (landing on a hill)
    g.put(11, 257, "---")
    ledge_stack(g, 282, (11, 9, 7, 5))  # one-way ledges up to a mesa ...
    g.ground(range(282, 290), 4)
    g.fill(range(0, 2), range(290, 318))  # ... and a cave: three one-way floors, each ending two tiles short
    g.put(4, 290, "-" * 6)  # of a wall, so the way on is down: off each floor's end, or (sooner) through it
    g.fill(range(0, 5), range(298, 300))
    g.put(7, 290, "-" * 14)
    g.fill(range(0, 8), range(306, 308))
    g.put(10, 290, "-" * 22)
    g.fill(range(0, 11), range(314, 316))
    g.valley(322, 2, 3, down=2, up=2)  # slopes and gaps together
    g.hill(334, 3, 2, up=1, down=2)
    g.hill(350, 2, 1, up=2, down=1)
    g.valley(357, 2, 1)
    ledge_stack(g, 373, (11, 9, 7, 5))  # one-way ledges ...
    g.ground(range(373, 384), 3)  # ... up to a summit, and down its far side in slopes of both kinds
    col, top = 384, 3
    for run, rows in ((1, 2), (2, 2), (1, 3), (2, 3)):
        for k in range(rows):
            g.put(top + k, col, "\\" if run == 1 else "cd")
            g.ground(range(col, col + run), top + k + 1)
            col += run
        top += rows
        g.ground(range(col, col + 2), top)
        col += 2
    g.hill(415, 2, 1, up=2, down=2)  # from slope to slope over spikes
    g.hill(427, 3, 0, up=1, down=2)
    g.hill(440, 2, 2, up=2, down=1)
    g.fill(range(11, GROUND), range(452, 455))  # a step up to a long one-way bridge over a field of spikes ...
    g.put(9, 455, "-" * 36)
    g.put(11, 468, "--")  # ... with ledges under it (drop down to them, jump back up through it)
    g.put(11, 479, "--")
    g.valley(494, 2, 0, down=2, up=2)  # two 2:1 valleys and a 45-degree ridge between them
    g.hill(503, 2, 0)
    g.valley(507, 2, 0, down=2, up=2)
    g.hill(517, 3, 2, up=2, down=2)  # the last hills, highest and with the widest gaps
    g.valley(535, 2, 2, down=1, up=2)
    g.hill(545, 4, 0)
    g.hill(560, 2, 3, up=2, down=2)
    # Grass and flowers (none in columns 4 to 30: the tile-seam test looks there, and blades have gaps).
    decorate(g, (1, 3, 54, 74, 106, 118, 130, 136, 165, 174, 196, 227, 236, 244, 263, 284, 320, 346,
                 376, 413, 449, 491, 515, 533, 558, 575, 581), '"*')
    return g.rows()


PITS_1 = (range(231, 234), range(238, 241), range(246, 249), range(255, 262), range(346, 349), range(409, 412),
          range(424, 427), range(436, 439), range(455, 489), range(531, 534), range(554, 557))
"""Level 1's gaps past the spikes at the start (each has spikes at the bottom). They are three tiles at most
(or split by a ledge): 56 % of the longest running jump (5.3 tiles), so a jump started anywhere in the last
tile before the edge clears them. (The last one was four, which a jump from 36 px before the edge cleared
only while the collision stood 2 px proud of each drawn edge.)"""


def spikes(cols: range) -> dict:
    """A row of spikes at the bottom of the pit over ``cols`` (one row: drawn repeated, a taller hazard
    showed a second row floating in the pit's air)."""
    return {"cls": "Hazard", "name": "spikes", "x": px(cols.start), "y": px(HEIGHT - 1), "w": px(len(cols)), "h": 32}


def hills_objects() -> list[dict]:
    return [
        spawn(2),
        coin(14, 9), coin(15, 9),  # over the 2:1 hill
        coin(25, 12), coin(26, 12),  # in the valley
        coin(35, 8), coin(36, 8),  # over the 45-degree hill
        coin(47, 7),  # over the top step
        flag("Checkpoint", 54, 8, "cliff top"),
        coin(63, 12), coin(64, 12),  # under the bridge: drop through it onto them, or walk back
        spikes(range(80, 83)),
        coin(81.5, 9),
        coin(101, 8),
        flag("Checkpoint", 106, GROUND, "past the spikes"),
        coin(111.5, 13),  # at the bottom of the V
        coin(124, 10), coin(124, 8), coin(124, 6), coin(124, 4),  # up the tower
        flag("Checkpoint", 128, 4, "mesa"),
        coin(134, 2), coin(135, 2), coin(136, 2),
        coin(150, 7), coin(156, 10),  # over the long slope
        coin(169, 9), coin(181, 8), coin(191, 13), coin(192, 13), coin(203, 7), coin(204, 7), coin(212, 13),
        coin(221, 9),
        flag("Checkpoint", 226, GROUND, "hill country"),
        *(spikes(cols) for cols in PITS_1),
        coin(239, 9), coin(247, 9), coin(257.5, 8),
        coin(285, 1), coin(286, 1),  # a jump up from the mesa
        coin(291, 6), coin(291, 9), coin(291, 12),  # back along each floor of the cave
        flag("Checkpoint", 319, GROUND, "out of the cave"),
        coin(327, 13), coin(328, 13), coin(338, 7), coin(347, 9), coin(353, 8),
        flag("Checkpoint", 364, GROUND, "foot of the summit"),
        coin(371, 4), coin(371, 6),
        coin(378, 1), coin(379, 1),
        coin(396, 5), coin(410, 9),
        coin(425, 9), coin(437, 8),
        flag("Checkpoint", 450, GROUND, "before the bridge"),
        coin(468.5, 10), coin(479.5, 10), coin(474, 6),
        coin(498, 13), coin(505, 9), coin(511, 13),
        flag("Checkpoint", 514, GROUND, "the last hills"),
        coin(523, 7), coin(524, 7), coin(538, 14), coin(549, 6), coin(555.5, 8), coin(565, 8),
        flag("Goal", 580, GROUND, "flag"),
        *HILLS_SIGNS,
    ]


HILLS_SIGNS = (
    sign(4, GROUND, "[right] runs; [jump] jumps, higher the longer you hold it"),
    sign(44, GROUND, "thin ledges: jump up through them from below ([jump])"),
    sign(57, 8, "the way on is under this bridge: [down] + [jump] drops through it, or walk off its end"),
    sign(77, GROUND, "spikes hurt: run up and jump over them ([jump])"),
    sign(287, 4, "the way on is down: [down] + [jump] drops through a thin floor"),
)
"""Level 1's lessons, each where it is first needed (appended after the other objects, so their ids stay)."""


# ------------------------------------------------------------------------------------------------ level 2
def crates_layout() -> list[str]:
    """Crates, 424 x 16."""
    g = Grid(424)
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
    g.ground(range(138, 424))
    g.fill(range(GROUND, GROUND + 2), range(152, 155), ".")  # a pit with the switch of the door past it
    for k in range(3):  # a ramp up to a floor whose far side slopes down into a valley ...
        g.put(GROUND - 1 - k, 161 + k, "/")
        g.ground(range(161 + k, 162 + k), GROUND - k)
        g.put(GROUND - 3 + k, 172 + k, "\\")
        g.ground(range(172 + k, 173 + k), GROUND - 2 + k)
    g.ground(range(164, 172), GROUND - 3)
    g.ground(range(183, 196), GROUND - 3)  # ... three tiles deep: a crate slid down there is the way out
    g.ground(range(196, 206), GROUND - 6)  # two more walls, three tiles each, a crate at the foot of each
    g.ground(range(206, 216), GROUND - 9)
    for k in range(9):  # a long 2:1 slope down
        g.put(GROUND - 9 + k, 216 + 2 * k, "cd")
        g.ground(range(216 + 2 * k, 218 + 2 * k), GROUND - 8 + k)
    g.ground(range(247, 263), GROUND - 3)  # where the second spring throws the crate
    g.ground(range(263, 276), GROUND - 7)  # reached from the one-way ledge with the crate's help
    for k in range(7):  # 45-degree slopes down to the last pit and door
        g.put(GROUND - 7 + k, 276 + k, "\\")
        g.ground(range(276 + k, 277 + k), GROUND - 6 + k)
    g.fill(range(GROUND, GROUND + 2), range(294, 297), ".")
    for k in range(3):  # the valley again, its far wall five tiles high now, a one-way ledge under its top
        g.put(GROUND - 1 - k, 305 + k, "/")
        g.ground(range(305 + k, 306 + k), GROUND - k)
        g.put(GROUND - 3 + k, 316 + k, "\\")
        g.ground(range(316 + k, 317 + k), GROUND - 2 + k)
    g.ground(range(308, 316), GROUND - 3)
    g.ground(range(331, 346), GROUND - 5)
    for k in range(5):  # a 2:1 slope down to a pyramid of ten crates against a wall six tiles high
        g.put(GROUND - 5 + k, 346 + 2 * k, "cd")
        g.ground(range(346 + 2 * k, 348 + 2 * k), GROUND - 4 + k)
    g.ground(range(362, 378), GROUND - 6)
    for k in range(6):
        g.put(GROUND - 6 + k, 378 + k, "\\")
        g.ground(range(378 + k, 379 + k), GROUND - 5 + k)
    g.fill(range(GROUND, GROUND + 2), range(402, 405), ".")  # a last pit, a crate a long push away
    decorate(g, (2, 5, 9, 12, 20, 25, 34, 43, 50, 58, 70, 78, 90, 100, 124, 141, 149, 157, 178, 189, 200, 210, 240,
                 250, 270, 286, 303, 322, 327, 340, 366, 372, 386, 396, 409, 419), 'm"')  # mushrooms and grass
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
        flag("Checkpoint", 140, GROUND, "down the slopes"),
        crate(147, GROUND - 1),  # push it into the pit: it lands on the switch
        *switch_pit(range(152, 155), 901),
        coin(153, GROUND - 3),
        crate(167, GROUND - 4),  # push it down the slope, then across the valley to its far wall
        coin(169, GROUND - 7), coin(178, GROUND - 1), coin(179, GROUND - 1),
        flag("Checkpoint", 187, GROUND - 3, "out of the valley"),
        crate(191, GROUND - 4),  # a crate at the foot of each wall
        crate(201, GROUND - 7),
        coin(203, GROUND - 10), coin(212, GROUND - 12), coin(213, GROUND - 12),
        coin(226, GROUND - 6),
        flag("Checkpoint", 236, GROUND, "foot of the long slope"),
        crate(239, GROUND - 1),  # the second spring: three tiles up this time
        {"cls": "Spring", "name": "boing", "x": px(246), "y": px(GROUND) - 12, "w": 32, "h": 12,
         "props": {"height": 192.0}},
        coin(246, GROUND - 7),
        {"cls": "OneWay", "name": "high ledge", "x": px(258), "y": px(GROUND - 3) - 112, "w": 160, "h": 8},
        coin(259, GROUND - 8),
        flag("Checkpoint", 268, GROUND - 7, "highest floor"),
        coin(272, GROUND - 9), coin(281, GROUND - 6),
        crate(289, GROUND - 1),
        *switch_pit(range(294, 297), 903),
        coin(295, GROUND - 3),
        flag("Checkpoint", 302, GROUND, "through the last door"),
        crate(311, GROUND - 4),
        coin(323, GROUND - 1), coin(324, GROUND - 1),
        {"cls": "OneWay", "name": "ledge", "x": px(326), "y": px(GROUND) - 112, "w": 160, "h": 8},
        coin(327, GROUND - 6),
        flag("Checkpoint", 336, GROUND - 5, "top of the five-tile wall"),
        coin(341, GROUND - 8), coin(352, GROUND - 5),
        *(crate(col, GROUND - 1 - level) for level in range(4) for col in range(358 + level, 362)),
        coin(361, GROUND - 7), coin(369, GROUND - 9), coin(370, GROUND - 9),
        crate(388, GROUND - 1),
        *switch_pit(range(402, 405), 905),
        coin(403, GROUND - 3),
        flag("Goal", 416, GROUND, "flag"),
        *CRATES_SIGNS,
    ]


CRATES_SIGNS = (
    sign(9, GROUND, "crates are steps: [jump] onto them, and on up the wall"),
    sign(33, GROUND, "walk into a crate to push it: under the ledge it is a step up"),
    sign(57, GROUND, "push the crate onto the spring: it throws what lands on it"),
    sign(145, GROUND, "a crate on the switch in the pit opens the door past it"),
)
"""Level 2's lessons (appended after the other objects, so their ids stay)."""


def switch_pit(cols: range, door_id: int) -> list[dict]:
    """Spikes and a switch at the bottom of a pit two tiles deep over ``cols`` (the switch in its first two
    cells, where a crate pushed in lands), and the door it opens, four tiles past the pit."""
    return [
        {"cls": "Hazard", "name": "spikes", "x": px(cols.start), "y": px(GROUND + 1), "w": px(len(cols)), "h": 32},
        {"cls": "Switch", "name": "button", "x": px(cols.start), "y": px(HEIGHT - 1) - 8, "w": 64, "h": 8,
         "props": {"door": door_id}},
        {"id": door_id, "cls": "Door", "name": "gate", "x": px(cols.stop + 3) + 8, "y": px(GROUND - 3), "w": 16,
         "h": 96},
    ]


# ------------------------------------------------------------------------------------------------ level 3
def machines_layout() -> list[str]:
    """Enemies, moving platforms, ladders, falling platforms, doors and their switches, lifts, 360 x 16."""
    g = Grid(360)
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
    g.ground(range(141, 360))  # ... and a ladder down its far side
    g.pit(range(172, 188))  # two ferries, the second faster, with an island between them
    g.pit(range(190, 206))
    g.ground(range(213, 228), 5)  # a tower the ladder climbs, a beetle on top ...
    g.put(4, 215, "#")  # (the bump that keeps it off the ladder's top)
    g.pit(range(228, 244))  # ... and a chasm four falling platforms cross, a tile lower each two
    g.ground(range(244, 256), 7)  # (a ladder down its far side)
    g.put(8, 266, "-" * 10)  # a shelf up a ladder, with the switch of the door ahead
    # a faster lift up to a plateau of beetles
    g.ground(range(295, 318), 4)
    g.put(3, 316, "#")
    g.pit(range(328, 340))  # the last ferry
    decorate(g, (3, 6, 10, 17, 20, 39, 43, 52, 58, 78, 84, 96, 108, 112, 118, 130, 150, 152, 165, 170, 209, 211,
                 218, 250, 260, 286, 289, 300, 323, 326, 344, 348, 356), 'o"')  # pebbles and grass
    return g.rows()


def machines_objects() -> list[dict]:
    upper = GROUND - 6
    return [
        spawn(2),
        {"cls": "Walker", "name": "beetle", "x": px(14), "y": px(GROUND) - 26, "w": 24, "h": 26,
         "props": {"speed": 40.0, "direction": -1}},
        coin(15, GROUND - 4),
        {"cls": "Hazard", "name": "pit", "x": px(22), "y": px(HEIGHT - 1), "w": px(14), "h": 32},
        # The ferry shuttles across the pit, flush with the ground at both ends.
        {"id": 901, "cls": "MovingPlatform", "name": "ferry", "x": px(22), "y": px(GROUND), "w": 96, "h": 16,
         "props": {"path": 902, "speed": 80.0, "mode": "pingpong"}},
        {"id": 902, "name": "ferry path", "kind": "polyline", "x": px(22) + 48, "y": px(GROUND) + 8,
         "points": [(0, 0), (px(14) - 96, 0)]},
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
        {"cls": "Switch", "name": "button", "x": px(81), "y": px(upper) - 8, "w": 32, "h": 8, "props": {"door": 903}},
        {"id": 903, "cls": "Door", "name": "gate", "x": px(90) + 8, "y": px(upper - 3), "w": 16, "h": 96},
        coin(95, upper - 1),
        flag("Checkpoint", 108, GROUND - 2, "meadow"),
        {"id": 904, "cls": "MovingPlatform", "name": "lift", "x": px(123), "y": px(GROUND - 2), "w": 96,
         "h": 16, "props": {"path": 905, "speed": 60.0, "mode": "pingpong", "one_way": True}},
        {"id": 905, "name": "lift path", "kind": "polyline", "x": px(123) + 48, "y": px(GROUND - 2) + 8,
         "points": [(0, 0), (0, -px(8))]},
        coin(124, 5),
        flag("Checkpoint", 128, 3, "wall top"),
        {"cls": "Walker", "name": "beetle", "x": px(134), "y": px(3) - 26, "w": 24, "h": 26, "props": {"speed": 45.0}},
        coin(136, 1),
        {"cls": "Ladder", "name": "long ladder", "x": px(141), "y": px(3), "w": 32, "h": px(GROUND - 3)},
        coin(141, 8),
        {"cls": "Switch", "name": "button", "x": px(148), "y": px(GROUND) - 8, "w": 32, "h": 8,
         "props": {"door": 906}},
        {"id": 906, "cls": "Door", "name": "gate", "x": px(157) + 8, "y": px(GROUND - 3), "w": 16, "h": 96},
        coin(162, GROUND - 1),
        flag("Checkpoint", 167, GROUND, "through the second door"),
        spikes(range(172, 188)),
        *ferry(911, "slow ferry", range(172, 188), 90.0),
        coin(180, GROUND - 4),
        spikes(range(190, 206)),
        *ferry(913, "fast ferry", range(190, 206), 120.0),
        coin(198, GROUND - 4),
        flag("Checkpoint", 208, GROUND, "across the ferries"),
        {"cls": "Ladder", "name": "tower ladder", "x": px(212), "y": px(5), "w": 32, "h": px(GROUND - 5)},
        coin(212, 3), coin(218, 2), coin(226, 2),  # (a jump up from the tower's top)
        {"cls": "Walker", "name": "beetle", "x": px(223), "y": px(5) - 26, "w": 24, "h": 26, "props": {"speed": 55.0}},
        {"cls": "Hazard", "name": "chasm", "x": px(228), "y": px(HEIGHT - 1), "w": px(16), "h": 32},
        *({"cls": "FallingPlatform", "name": "crumbly", "x": px(col), "y": px(row), "w": 64, "h": 16,
           "props": {"delay": 0.4}} for col, row in ((229, 5), (233, 5), (237, 6), (241, 6))),
        coin(235, 2), coin(239, 3),
        flag("Checkpoint", 248, 7, "past the crumbling bridge"),
        coin(251, 4),
        {"cls": "Ladder", "name": "ladder", "x": px(256), "y": px(7), "w": 32, "h": px(GROUND - 7)},
        {"cls": "Ladder", "name": "shelf ladder", "x": px(265), "y": px(8), "w": 32, "h": px(GROUND - 8)},
        {"cls": "Switch", "name": "button", "x": px(273), "y": px(8) - 8, "w": 32, "h": 8, "props": {"door": 915}},
        coin(275, 7),
        coin(268, GROUND - 1), coin(269, GROUND - 1), coin(270, GROUND - 1),  # under the shelf (its switch is up on it)
        {"id": 915, "cls": "Door", "name": "gate", "x": px(282) + 8, "y": px(GROUND - 3), "w": 16, "h": 96},
        {"id": 916, "cls": "MovingPlatform", "name": "fast lift", "x": px(292), "y": px(GROUND), "w": 96,
         "h": 16, "props": {"path": 917, "speed": 70.0, "mode": "pingpong", "one_way": True}},
        {"id": 917, "name": "fast lift path", "kind": "polyline", "x": px(292) + 48, "y": px(GROUND) + 8,
         "points": [(0, 0), (0, -px(GROUND - 4))]},
        coin(293, 8),
        flag("Checkpoint", 296, 4, "plateau"),
        {"cls": "Walker", "name": "beetle", "x": px(303), "y": px(4) - 26, "w": 24, "h": 26, "props": {"speed": 50.0}},
        {"cls": "Walker", "name": "beetle", "x": px(311), "y": px(4) - 26, "w": 24, "h": 26,
         "props": {"speed": 65.0, "direction": 1}},
        coin(300, 1), coin(307, 1), coin(308, 1), coin(313, 1),
        {"cls": "Ladder", "name": "long ladder", "x": px(318), "y": px(4), "w": 32, "h": px(GROUND - 4)},
        coin(322, GROUND - 1),
        spikes(range(328, 340)),
        *ferry(918, "last ferry", range(328, 340), 100.0),
        coin(334, GROUND - 4), coin(345, GROUND - 3), coin(346, GROUND - 3),
        flag("Goal", 352, GROUND, "flag"),
        *MACHINES_SIGNS,
    ]


MACHINES_SIGNS = (
    sign(7, GROUND, "beetles: land on one to stomp it; touching its side hurts"),
    sign(19, GROUND, "wait for the ferry to come to you, then ride it across"),
    sign(42, GROUND, "[up] climbs a ladder, [jump] lets go"),
    sign(59, GROUND - 6, "crumbly platforms fall soon after you land: keep going"),
    sign(78, GROUND - 6, "stand on the switch: it opens its door"),
)
"""Level 3's lessons (appended after the other objects, so their ids stay)."""


def ferry(first_id: int, name: str, cols: range, speed: float) -> list[dict]:
    """A moving platform shuttling across the pit over ``cols`` flush with the ground at both ends, and its
    path (ids ``first_id`` and the next)."""
    return [
        {"id": first_id, "cls": "MovingPlatform", "name": name, "x": px(cols.start), "y": px(GROUND),
         "w": 96, "h": 16, "props": {"path": first_id + 1, "speed": speed, "mode": "pingpong"}},
        {"id": first_id + 1, "name": f"{name} path", "kind": "polyline", "x": px(cols.start) + 48,
         "y": px(GROUND) + 8, "points": [(0, 0), (px(len(cols)) - 96, 0)]},
    ]


LEVELS = {
    "1_hills_and_ledges.tmx": (hills_layout, hills_objects, "2_crates.tmx", "meadow"),
    "2_crates.tmx": (crates_layout, crates_objects, "3_machines.tmx", "autumn"),
    "3_machines.tmx": (machines_layout, machines_objects, "playground.tmx", "dusk"),
}
"""File name -> (layout, objects, the level the goal leads to, its backdrop theme in game.art.THEMES)."""
