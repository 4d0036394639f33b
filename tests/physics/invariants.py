"""Randomised physics invariants: random closed levels with ramps, ledges, one-way platforms, moving platforms,
crates and several characters, stepped with random dt (1/240 - 1/30 s) and random pushes up to 20,000 px/s,
checking after every step what must never happen. Used by the CI test (a few seconds, fixed seeds) and by
``tests/benchmarks/invariants_long.py`` (a million steps and more).

"Together" levels (issue 30) add what games do to bodies mid-run: lifts and ferries (velocity-driven, reversed
by the game at the ends of their run, or on a loop / ping-pong :class:`PlatformPath`, some one-way, 30-800 px/s)
that start carrying crate stacks and characters; crates, platforms and characters removed; crates, platforms and
characters teleported (``position`` set, or :meth:`Character.teleport`); crates reshaped and re-filtered; crates
added; and some floors with a hole that things may fall out of (a game's kill plane then removes them). Their
extra choices come from a second random stream, so a seed's base level is the same as in the plain levels.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

from engine import (
    Character, CollisionFilter, KinematicBody, PlatformerController, PlatformerInput, PlatformPath, RigidBody,
    RoundedPolygon, Sensor, World,
)
from engine.world import BodyKind

BOX = (0.0, 0.0, 1600.0, 900.0)
"""The closed container every level is built in (min_x, min_y, max_x, max_y), px."""
RADIUS = 2.0
HERO = RoundedPolygon.box(10, 16, radius=2)
HERO_HALF_HEIGHT = 16.0
ROWS = ("non_finite", "overlap", "crossed_core", "escaped", "floor_without_contact",
        "crate_in_static", "crate_in_crate", "floating_sleeper", "event_names_absent")
"""The invariants, in the order they are printed (see :data:`MEANING`)."""
MEANING = {
    "non_finite": "all values finite (characters, crates, platforms)",
    "overlap": "no character more than 0.05 px inside solid static geometry",
    "crossed_core": "no character move crossing a solid segment's core (along the move's path)",
    "escaped": "nothing leaves the level (but through a hole in its floor)",
    "floor_without_contact": "`on_floor` backed by a floor contact (static and kinematic floors)",
    "crate_in_static": "no settled crate more than 1 px inside solid static geometry for over 2 steps, 3 px ever",
    "crate_in_crate": "no settled crate more than 4 px inside another for over 2 steps, 4 px + closing ever",
    "floating_sleeper": "no crate asleep with nothing under it for more than 3 steps",
    "event_names_absent": "events name only objects in the world",
}
CRATE_IN_STATIC = 1.0
"""px a settled crate may be inside solid static geometry for more than :data:`LASTING_STEPS` steps in a row."""
CRATE_IN_STATIC_AT_ONCE = 3.0
"""px a settled crate may be inside solid static geometry in any one step: a crate flung at a wall (continuous
collision stops it there) and struck by a character in the same step is pressed in a little, for a step or two."""
CRATE_IN_CRATE = 4.0
"""px a settled crate may be inside another for more than :data:`LASTING_STEPS` steps in a row; in any one step
it may be this plus how far the two closed in that step (:meth:`Scene.closing`): crates have no continuous
collision among themselves, so a crate flung at 1500 px/s plows into another for a step, then rides over it."""
LASTING_STEPS = 2
SETTLE_STEPS = 60
"""Steps after a crate is added, teleported, reshaped or re-filtered (or a platform it may be on is teleported)
before its overlaps count: the solver may take a few steps to push it out of what it was put into."""
SLEEPER_STEPS = 3
"""Steps a sleeping crate may go with nothing under it (within :data:`SUPPORT_MARGIN`) before it must wake."""
SUPPORT_MARGIN = 1.0
OTHER_CRATES = CollisionFilter(category=2, mask=0xFFFF_FFFF & ~2)
"""The filter a re-filtered crate gets: it passes through other re-filtered crates, touches everything else."""


@dataclass
class Tally:
    """Counts of each broken invariant, and of what was checked."""

    broken: Counter = field(default_factory=Counter)
    character_steps: int = 0
    crate_steps: int = 0
    examples: list[str] = field(default_factory=list)
    gone: set[int] = field(default_factory=set)
    """Objects already counted as escaped (an escape counts once, not at every later step)."""
    deepest: Counter = field(default_factory=Counter)
    """The deepest overlap seen (px) per overlap invariant, counted or not (what the tolerances are set from)."""
    done: Counter = field(default_factory=Counter)
    """What the together levels did mid-run (removals, teleports, ...), by kind."""
    example_limit: int = 10
    seed: int = -1
    """The level being run (named in the examples)."""

    def add(self, row: str, what: str) -> None:
        self.broken[row] += 1
        if sum(e.startswith(row) for e in self.examples) < 3 and len(self.examples) < self.example_limit:
            self.examples.append(f"{row}: seed {self.seed}: {what}")

    @property
    def steps(self) -> int:
        """Character steps and crate steps together (the long run's budget)."""
        return self.character_steps + self.crate_steps


def random_world(rng: random.Random, hole: tuple[float, float] | None = None
                 ) -> tuple[World, list[tuple[tuple[float, float], tuple[float, float]]]]:
    """A closed room (its floor open between ``hole``'s x's) with random ramps, ledges and one-way platforms;
    returns the world and its solid segments (for the crossing check)."""
    world = World()
    x0, y0, x1, y1 = BOX
    floor = [((x0, y0), (x1, y0))] if hole is None else [((x0, y0), (hole[0], y0)), ((hole[1], y0), (x1, y0))]
    solid = [*floor, ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
    for _ in range(rng.randint(4, 12)):
        cx, cy = rng.uniform(100, 1500), rng.uniform(60, 800)
        length, angle = rng.uniform(40, 400), rng.choice([0.0, 0.0, rng.uniform(-1.2, 1.2)])
        a = (cx - math.cos(angle) * length / 2, cy - math.sin(angle) * length / 2)
        b = (cx + math.cos(angle) * length / 2, cy + math.sin(angle) * length / 2)
        if rng.random() < 0.3:
            world.add_segments([a], [b], RADIUS, one_way=(0.0, 1.0))
        else:
            solid.append((a, b))
    for _ in range(rng.randint(0, 3)):  # V's and steps
        vx, vy, w, h = rng.uniform(200, 1400), rng.uniform(30, 600), rng.uniform(20, 120), rng.uniform(10, 200)
        solid += [((vx - w, vy + h), (vx, vy)), ((vx, vy), (vx + w, vy + h))]
    world.add_segments([s[0] for s in solid], [s[1] for s in solid], RADIUS)
    return world, solid


def populate(world: World, rng: random.Random) -> tuple[list[tuple[Character, PlatformerController]], list]:
    characters = []
    for _ in range(rng.randint(1, 3)):
        hero = world.add_character(Character(HERO, (rng.uniform(100, 1500), rng.uniform(100, 850))))
        characters.append((hero, PlatformerController(hero)))
    crates = [world.add_body(RigidBody(RoundedPolygon.box(rng.uniform(6, 20), rng.uniform(6, 20), radius=1.0),
                                       (rng.uniform(100, 1500), rng.uniform(100, 850))))
              for _ in range(rng.randint(0, 6))]
    for _ in range(rng.randint(0, 2)):
        start = (rng.uniform(200, 1400), rng.uniform(100, 700))
        end = (start[0] + rng.uniform(-300, 300), start[1] + rng.uniform(-300, 300))
        world.add_kinematic(KinematicBody(RoundedPolygon.box(rng.uniform(20, 60), 6), start, one_way=rng.choice(
            [None, (0.0, 1.0)]), path=PlatformPath([start, end], rng.uniform(30, 600), "pingpong")))
    return characters, crates


@dataclass
class Driven:
    """A velocity-driven platform the game turns round at the ends of its run (``axis`` 0: x, 1: y)."""

    body: KinematicBody
    axis: int
    low: float
    high: float

    def steer(self) -> None:
        """Reverse at an end of the run, as a game's lift script does."""
        at, speed = self.body.position[self.axis], self.body.velocity[self.axis]
        if (at >= self.high and speed > 0) or (at <= self.low and speed < 0):
            v = list(self.body.velocity)
            v[self.axis] = -speed
            self.body.velocity = (v[0], v[1])


@dataclass
class Scene:
    """One random level and what the run keeps about it."""

    world: World
    solid: list
    characters: list
    crates: list
    hole: tuple[float, float] | None = None
    driven: list[Driven] = field(default_factory=list)
    disturbed: dict[int, int] = field(default_factory=dict)
    """Crate id -> the step it was last added, teleported, reshaped or re-filtered at."""
    unsupported: Counter = field(default_factory=Counter)
    """Crate id -> how many steps in a row it has slept with nothing under it."""
    overlapping: Counter = field(default_factory=Counter)
    """(crate id, other crate id or -1 - segment) -> steps in a row the two overlapped beyond the tolerance."""
    step: int = 0
    dt: float = 0.0
    position_before: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Crate id -> its position before the last step (px)."""

    def settled(self, body: RigidBody) -> bool:
        return self.step - self.disturbed.get(body.id, 0) >= SETTLE_STEPS

    def disturb(self, body: RigidBody) -> None:
        self.disturbed[body.id] = self.step

    def closing(self, body: RigidBody, other: RigidBody) -> float:
        """How far (px) two crates moved towards each other in the last step, at most: the length of the change
        of their offset (crates have no continuous collision among themselves, so one may plow into another
        by that much for a step, say when it follows at 3700 px/s one that a wall stopped)."""
        (ax, ay), (bx, by) = body.position, other.position
        (pax, pay), (pbx, pby) = self.position_before.get(body.id, (ax, ay)), self.position_before.get(other.id, (bx, by))
        return math.hypot((ax - bx) - (pax - pbx), (ay - by) - (pay - pby))


# ------------------------------------------------------------------------------------ together levels: building
def _crate_shape(rng: random.Random, largest: float = 14.0) -> RoundedPolygon:
    return RoundedPolygon.box(rng.uniform(6, largest), rng.uniform(6, largest), radius=1.0)


def _rig(scene: Scene, rng: random.Random) -> None:
    """A lift (up and down) or a ferry (sideways), carrying a crate stack and maybe a character."""
    _, _, x1, y1 = BOX
    vertical = rng.random() < 0.6
    half_width, half_height = rng.uniform(25, 70), rng.uniform(4, 8)
    reach, speed = rng.uniform(80, 500), rng.uniform(30, 800)
    if vertical:
        start = (rng.uniform(150, 1450), rng.uniform(40, y1 - reach - 150))
        end = (start[0], start[1] + reach)
    else:
        start = (rng.uniform(100, x1 - reach - 100), rng.uniform(40, 700))
        end = (start[0] + reach, start[1])
    one_way = (0.0, 1.0) if rng.random() < 0.3 else None
    drive = rng.choice(["velocity", "loop", "pingpong"])
    shape = RoundedPolygon.box(half_width, half_height)
    if drive == "velocity":
        axis = 1 if vertical else 0
        velocity = (0.0, speed) if vertical else (speed, 0.0)
        body = KinematicBody(shape, start, velocity=velocity, one_way=one_way, name="driven")
        scene.driven.append(Driven(body, axis, start[axis], end[axis]))
    else:
        points = [start, end]
        if drive == "loop" and rng.random() < 0.5:  # a loop round a box, not just there and back
            side = rng.uniform(60, 200)
            points = [start, end, (end[0] + side, end[1]), (start[0] + side, start[1])] if vertical else \
                [start, end, (end[0], end[1] + side), (start[0], start[1] + side)]
        body = KinematicBody(shape, start, one_way=one_way, path=PlatformPath(points, speed, drive), name=drive)
    scene.world.add_kinematic(body)
    top = start[1] + half_height
    for _ in range(rng.choice([0, 1, 1, 2, 3])):  # a stack of crates standing on it
        crate_shape = _crate_shape(rng, min(14.0, half_width))
        half = crate_shape.local_aabb[3]
        crate = scene.world.add_body(RigidBody(crate_shape, (start[0] + rng.uniform(-5, 5), top + half + 0.3)))
        scene.crates.append(crate)
        top += 2 * half + 0.3
    if rng.random() < 0.5:  # a character on top
        hero = scene.world.add_character(Character(HERO, (start[0], top + HERO_HALF_HEIGHT + 0.5)))
        scene.characters.append((hero, PlatformerController(hero)))


def together_scene(seed: int, rng: random.Random) -> Scene:
    """The plain level of ``seed`` (drawn from ``rng`` as before) with lifts and ferries added, drawn from a
    stream of its own."""
    extra = random.Random(f"together {seed}")
    hole = None
    if extra.random() < 0.25:
        left = extra.uniform(100, 1300)
        hole = (left, left + extra.uniform(50, 200))
    world, solid = random_world(rng, hole)
    characters, crates = populate(world, rng)
    scene = Scene(world, solid, characters, crates, hole)
    for _ in range(extra.randint(1, 4)):
        _rig(scene, extra)
    return scene


# ------------------------------------------------------------------------------------ together levels: mid-run
def _somewhere(rng: random.Random, scene: Scene) -> tuple[float, float]:
    """A random point in the level, or just above a platform (on its top, or a little into it)."""
    platforms = scene.world.kinematic_bodies
    if platforms and rng.random() < 0.5:
        platform = rng.choice(platforms)
        x, y = platform.position
        x, y = x + rng.uniform(-20, 20), y + rng.uniform(5, 40)
        if 60 <= x <= 1540 and 60 <= y <= 860:  # (a plain level's platform may run outside the level)
            return (x, y)
    return (rng.uniform(60, 1540), rng.uniform(60, 860))


def _meddle(scene: Scene, rng: random.Random, tally: Tally) -> None:
    """What a game may do between two steps: each with a small chance."""
    world = scene.world
    roll = rng.random()
    if roll < 0.004 and scene.crates:
        crate = scene.crates.pop(rng.randrange(len(scene.crates)))
        world.remove(crate)
        tally.done["crate removed"] += 1
    elif roll < 0.006 and world.kinematic_bodies:
        platform = rng.choice(world.kinematic_bodies)
        world.remove(platform)
        scene.driven = [d for d in scene.driven if d.body is not platform]
        tally.done["platform removed"] += 1
    elif roll < 0.0075 and len(scene.characters) > 1:
        hero, _ = scene.characters.pop(rng.randrange(len(scene.characters)))
        world.remove(hero)
        tally.done["character removed"] += 1
    elif roll < 0.0125 and scene.crates:
        crate = rng.choice(scene.crates)
        crate.position = _somewhere(rng, scene)
        scene.disturb(crate)
        tally.done["crate teleported"] += 1
    elif roll < 0.0155 and world.kinematic_bodies:
        platform = rng.choice(world.kinematic_bodies)
        platform.position = (rng.uniform(100, 1500), rng.uniform(40, 800))
        for crate in scene.crates:  # (it may land on or in any of them)
            scene.disturb(crate)
        tally.done["platform teleported"] += 1
    elif roll < 0.0185:
        _move_a_character(scene, rng, tally)
    elif roll < 0.0215 and scene.crates:
        crate = rng.choice(scene.crates)
        crate.shape = _crate_shape(rng, 20.0)
        scene.disturb(crate)
        tally.done["crate reshaped"] += 1
    elif roll < 0.0245 and scene.crates:
        crate = rng.choice(scene.crates)
        crate.filter = OTHER_CRATES if crate.filter != OTHER_CRATES else CollisionFilter()
        scene.disturb(crate)
        tally.done["crate re-filtered"] += 1
    elif roll < 0.0275:
        crate = world.add_body(RigidBody(_crate_shape(rng, 20.0), _somewhere(rng, scene)))
        scene.crates.append(crate)
        scene.disturb(crate)
        tally.done["crate added"] += 1


def _move_a_character(scene: Scene, rng: random.Random, tally: Tally) -> None:
    if not scene.characters:
        return
    hero, _ = rng.choice(scene.characters)
    where = _somewhere(rng, scene)
    if rng.random() < 0.5:
        hero.teleport(where)
        tally.done["character teleported"] += 1
    else:
        hero.position = where
        tally.done["character position set"] += 1


def _fall_out(scene: Scene, thing: object, before: tuple[float, float], now: tuple[float, float]) -> bool:
    """Whether ``thing`` left through the hole in the floor (then the game's kill plane removes it)."""
    if scene.hole is None or now[1] >= BOX[1]:
        return False
    y0 = BOX[1]
    if before[1] < y0:
        crossing_x = before[0]
    else:
        f = (before[1] - y0) / (before[1] - now[1])
        crossing_x = before[0] + f * (now[0] - before[0])
    if not (scene.hole[0] - 25.0 <= crossing_x <= scene.hole[1] + 25.0):
        return False
    scene.world.remove(thing)
    return True


# ------------------------------------------------------------------------------------ checks
def crosses(p: tuple[float, float], q: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the moves p->q and the segment a-b properly intersect."""
    def side(o, s, t):
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    d1, d2, d3, d4 = side(a, b, p), side(a, b, q), side(p, q, a), side(p, q, b)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def _inside(x: float, y: float) -> bool:
    x0, y0, x1, y1 = BOX
    return x0 < x < x1 and y0 < y < y1


def check_character(scene: Scene, hero: Character, start: tuple[float, float], tally: Tally) -> None:
    world = scene.world
    tally.character_steps += 1
    x, y = hero.position
    if not all(math.isfinite(v) for v in (*hero.position, *hero.velocity)):
        tally.add("non_finite", f"character at {hero.position} v {hero.velocity}")
        return
    if not _inside(x, y) and id(hero) not in tally.gone:
        if _fall_out(scene, hero, start, hero.position):
            scene.characters = [(h, c) for h, c in scene.characters if h is not hero]
            tally.done["character fell out"] += 1
            return
        tally.gone.add(id(hero))
        tally.add("escaped", f"character at {hero.position}")
    for contact in world.contacts(hero.shape, hero.transform, 0.0, ignore=(hero,)):
        c = contact.collider
        if c.segment >= 0 and c.one_way is None and contact.separation < -0.05:
            tally.add("overlap", f"character at {hero.position} {contact.separation:.3f} px into segment {c.segment}")
            break
    # The move's own path (its stops against surfaces, a climb's corners): a slide around a segment's end
    # is not a crossing, though the straight line from start to end may cut the segment.
    path = hero.last_move.path if hero.last_move is not None and hero.last_move.path else (hero.position,)
    legs = list(zip((start, *path), (*path, hero.position)))
    if any(crosses(p, q, a, b) for p, q in legs for a, b in scene.solid):
        tally.add("crossed_core", f"character {start} -> {hero.position} along {len(path)} points")
    # (A crate stood on moves in the rigid-body step after the characters, and a character stood on may move
    # after this one: only floors that hold still until the next step are checked.)
    if hero.on_floor and hero.floor_collider is not None and hero.floor_collider.kind in (
            BodyKind.STATIC, BodyKind.KINEMATIC):
        margin = hero.config.skin + hero.config.ground_probe + 0.01
        if not any(ct.normal[1] > 0.0 for ct in world.contacts(hero.shape, hero.transform, margin, ignore=(hero,))):
            floor = hero.floor_collider
            tally.add("floor_without_contact", f"character at {hero.position} on {floor and floor.kind}")


def check_crate(scene: Scene, body: RigidBody, start: tuple[float, float], tally: Tally) -> None:
    tally.crate_steps += 1
    if not all(math.isfinite(v) for v in (*body.position, body.angle, *body.velocity)):
        tally.add("non_finite", f"crate {body.position}")
        return
    if not _inside(*body.position) and id(body) not in tally.gone:
        if _fall_out(scene, body, start, body.position):
            scene.crates.remove(body)
            tally.done["crate fell out"] += 1
            return
        tally.gone.add(id(body))
        tally.add("escaped", f"crate at {body.position}")
    settled, supported, deep = scene.settled(body), False, set()
    for contact in scene.world.contacts(body.shape, body.transform, SUPPORT_MARGIN, ignore=(body,)):
        c = contact.collider
        if not c.filter.touches(body.filter):
            continue
        supported = supported or contact.normal[1] > 0.1
        depth = -contact.separation
        if c.segment >= 0 and c.one_way is None and settled:
            _overlap(scene, tally, "crate_in_static", (body.id, -1 - c.segment), depth, CRATE_IN_STATIC,
                     CRATE_IN_STATIC_AT_ONCE, deep, f"crate {body.id} at {body.position} {depth:.2f} px into "
                                                    f"segment {c.segment}")
        elif c.kind is BodyKind.DYNAMIC and settled and scene.settled(c.body) and body.id < c.body.id:
            closing = scene.closing(body, c.body)
            _overlap(scene, tally, "crate_in_crate", (body.id, c.body.id), depth, CRATE_IN_CRATE,
                     CRATE_IN_CRATE + closing, deep, f"crates {body.id} at {body.position} and {c.body.id} at "
                                                     f"{c.body.position}: {depth:.2f} px")
    for key in [k for k in scene.overlapping if k[0] == body.id and k not in deep]:
        del scene.overlapping[key]
    _check_sleeper(scene, body, supported, tally)


def _overlap(scene: Scene, tally: Tally, row: str, pair: tuple[int, int], depth: float, lasting: float,
             at_once: float, deep: set, what: str) -> None:
    """Count an overlap deeper than ``at_once`` px, or deeper than ``lasting`` px for more than
    :data:`LASTING_STEPS` steps in a row (once per time it happens)."""
    tally.deepest[row] = max(tally.deepest[row], depth)
    if depth <= lasting:
        return
    deep.add(pair)
    scene.overlapping[pair] += 1
    steps = scene.overlapping[pair]
    if depth > at_once and steps == 1 or steps == LASTING_STEPS + 1:
        tally.add(row, f"{what} (step {scene.step}, {steps} steps deeper than {lasting:g} px)")
    if depth > at_once:
        scene.overlapping[pair] = LASTING_STEPS + 2  # (counted: not again while it lasts)


def _check_sleeper(scene: Scene, body: RigidBody, supported: bool, tally: Tally) -> None:
    if not body.sleeping or supported:
        scene.unsupported.pop(body.id, None)
        return
    scene.unsupported[body.id] += 1
    if scene.unsupported[body.id] == SLEEPER_STEPS + 1:  # (once per time it is left floating)
        tally.add("floating_sleeper", f"crate {body.id} at {body.position} asleep with nothing under it for "
                                      f"{SLEEPER_STEPS + 1} steps (step {scene.step})")


def check_events(scene: Scene, tally: Tally) -> None:
    world = scene.world
    present = {id(x) for x in (*world.bodies, *world.kinematic_bodies, *world.characters, *world.sensors)}
    segments = len(world.static)
    for event in world.events:
        for who in (event.a, event.b):
            if isinstance(who, int):
                if not 0 <= who < segments:
                    tally.add("event_names_absent", f"{event.kind} names segment {who} (step {scene.step})")
            elif isinstance(who, (RigidBody, KinematicBody, Character, Sensor)) and id(who) not in present:
                tally.add("event_names_absent", f"{event.kind} names {type(who).__name__} not in the world "
                                                f"(step {scene.step})")


def check_platforms(scene: Scene, tally: Tally) -> None:
    for platform in scene.world.kinematic_bodies:
        if not all(math.isfinite(v) for v in (*platform.position, *platform.velocity)):
            tally.add("non_finite", f"platform {platform.name} at {platform.position}")


# ------------------------------------------------------------------------------------ the run
def _drive(scene: Scene, rng: random.Random, dt: float) -> None:
    for hero, controller in scene.characters:
        if rng.random() < 0.02:  # an explosion, a cannon, a bug in a game: a wild push
            speed, angle = rng.uniform(0, 20_000), rng.uniform(0, 2 * math.pi)
            hero.velocity = (speed * math.cos(angle), speed * math.sin(angle))
        else:
            controller.update(PlatformerInput(left=rng.random() < 0.3, right=rng.random() < 0.4,
                                              jump=rng.random() < 0.2, down=rng.random() < 0.05), dt)
    for driven in scene.driven:
        driven.steer()


def run(seed: int, steps: int, tally: Tally, together: bool = True) -> Scene:
    """Run level ``seed`` for ``steps`` steps, counting what breaks into ``tally``; ``together=False``: the
    plain levels (no lifts carrying things, nothing removed or moved mid-run) as they were before issue 30."""
    rng = random.Random(seed)
    tally.seed = seed
    if together:
        scene = together_scene(seed, rng)
    else:
        world, solid = random_world(rng)
        scene = Scene(world, solid, *populate(world, rng))
    meddling = random.Random(f"meddling {seed}")
    for _ in range(steps):
        dt = rng.uniform(1 / 240, 1 / 30)
        _drive(scene, rng, dt)
        if together:
            _meddle(scene, meddling, tally)
        heroes = [hero for hero, _ in scene.characters]
        before = [hero.position for hero in heroes]
        crates = list(scene.crates)
        crates_before = [crate.position for crate in crates]
        scene.position_before = {crate.id: start for crate, start in zip(crates, crates_before)}
        scene.world.step(dt)
        scene.step, scene.dt = scene.step + 1, dt
        check_events(scene, tally)  # (first: the checks below remove what fell out of the level)
        for hero, start in zip(heroes, before):
            check_character(scene, hero, start, tally)
        for crate, start in zip(crates, crates_before):
            check_crate(scene, crate, start, tally)
        check_platforms(scene, tally)
    return scene
