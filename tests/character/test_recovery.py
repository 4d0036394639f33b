"""Overlap recovery (issue 30, D9 and item 7): a character that starts a step inside something comes out on
the free side it came from, or at the nearest free spot it can reach without its centre crossing a segment's
core; a character walled in on every side (spawned inside the ground) comes out above. And (D11) a fast
platform pushing a character into a wall never leaves him inside the wall.

Frame: y up; the hero is 20 x 32 px; segments are 2 px thick-radius capsules unless said otherwise.
"""

from __future__ import annotations

import math

import pytest

from engine.character import MoverConfig
from engine.geometry import RoundedPolygon
from engine.platformer import PlatformerController, PlatformerInput
from engine.world import KinematicBody, World
from tests.character.levels import DT, HERO, RADIUS, TILE, add_tile, tiled_floor

CAPSULE = RoundedPolygon.capsule((0, -8), (0, 8), 8)  # 16 px wide, 32 px tall
SHAPES = {"box": HERO, "capsule": CAPSULE}
ARM = 120.0
SLOP = MoverConfig().penetration_slop


def _side(o, s, t) -> float:
    return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])


def _crosses(p, q, a, b) -> bool:
    """Whether the straight move p -> q properly crosses the core line a-b of a segment."""
    d1, d2, d3, d4 = _side(a, b, p), _side(a, b, q), _side(p, q, a), _side(p, q, b)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def _deepest(world: World, character) -> float:
    """Pixels the character overlaps anything solid (0 when free)."""
    contacts = world.contacts(character.shape, character.transform, 0.0, ignore=(character,))
    return max([-c.separation for c in contacts] + [0.0])


def _v(degrees: float, opening_up: bool) -> list[tuple[float, float]]:
    """A V with its vertex at the origin, ``degrees`` between its 120 px arms, opening up (or down: a peak)."""
    half, sign = math.radians(degrees) / 2.0, 1.0 if opening_up else -1.0
    return [(-ARM * math.sin(half), sign * ARM * math.cos(half)), (0.0, 0.0),
            (ARM * math.sin(half), sign * ARM * math.cos(half))]


def _spawns_inside(points, opening_up: bool) -> list[tuple[float, float]]:
    """Centres between the V's arms (some within an arm's thickness), at heights along it."""
    arms = [(points[0], points[1]), (points[1], points[2])]
    sign = 1.0 if opening_up else -1.0
    found = []
    for y in (6.0, 20.0, 45.0, 80.0):
        for x in (-1.5, 0.0, 0.7, 2.5):
            p = (x, sign * y)
            if all(_side(a, b, p) * sign > 0 for a, b in arms):  # on the inner side of both arms
                found.append(p)
    return found


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("opening_up", [True, False], ids=["V", "peak"])
@pytest.mark.parametrize("degrees", [5.0, 10.0, 15.0])
def test_a_hero_spawned_inside_a_narrow_v_comes_out_of_its_opening_never_through_an_arm(degrees, opening_up, shape):
    """D9: a hero spawned overlapping a V of 5-15 degrees was pushed out through an arm and fell out of the
    level. Too narrow to hold him, the V lets him out only by its opening: up out of a V (to stand on its
    tips or wedged near its top), down out of a peak (to fall straight onto the floor below it)."""
    points = _v(degrees, opening_up)
    arms = [(points[0], points[1]), (points[1], points[2])]
    spawns = _spawns_inside(points, opening_up)
    assert len(spawns) >= 6
    for spawn in spawns:
        world = World()
        world.add_chain(points, radius=RADIUS)
        world.add_chain([(-400.0, -300.0), (400.0, -300.0)], radius=RADIUS)  # far below: "out of the level"
        hero = world.add_character(SHAPES[shape], spawn)
        controller = PlatformerController(hero)
        trail = [spawn]
        for _ in range(90):
            controller.update(PlatformerInput(), DT)
            world.step(DT)
            trail.append(hero.position)
            assert _deepest(world, hero) <= 1.0, (spawn, hero.position)
        legs = list(zip(trail, trail[1:]))
        assert not any(_crosses(p, q, a, b) for p, q in legs for a, b in arms), (spawn, trail[1])
        x, y = hero.position
        if opening_up:  # resting in or on the V, inside its wedge
            assert hero.on_floor and y > 60.0 and all(_side(a, b, (x, y)) > 0 for a, b in arms), (spawn, x, y)
        else:  # out between the peak's tips, and down onto the floor under it
            tip_x, tip_y = points[2]
            (sx, sy), (ox, oy) = next((p, q) for p, q in legs if p[1] >= tip_y > q[1])
            assert abs(sx + (ox - sx) * (tip_y - sy) / (oy - sy)) < tip_x, (spawn, (sx, sy), (ox, oy))
            assert hero.on_floor and y < -250.0 and abs(x) < tip_x + 10.0, (spawn, x, y)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("depth", [8.0, 20.0, 40.0, 70.0, 100.0])
def test_a_hero_spawned_inside_thick_ground_comes_out_on_top_of_it(depth, shape):
    """Four rows of tiles (tops at y = 0): a centre ``depth`` px down, inside any row, comes out above the
    ground in one step, standing on it straight above the spawn, never below or inside the ground."""
    for x in (0.0, 9.0, 16.0, 30.0):
        world = World()
        for row in (-1, -2, -3, -4):
            tiled_floor(world, range(-6, 6), row)
        hero = world.add_character(SHAPES[shape], (x, -depth))
        controller = PlatformerController(hero)
        controller.update(PlatformerInput(), DT)
        world.step(DT)
        assert _deepest(world, hero) <= SLOP and hero.position[1] > 0.0, (x, depth, hero.position)
        for _ in range(30):
            controller.update(PlatformerInput(), DT)
            world.step(DT)
        half = -SHAPES[shape].local_aabb.min_y
        assert hero.on_floor and hero.position[1] == pytest.approx(RADIUS + half + MoverConfig().skin, abs=0.01)
        assert hero.position[0] == pytest.approx(x, abs=2.0), (x, depth, hero.position)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("height", [2.0, 8.0, 16.0, 24.0, 30.0])
def test_a_hero_spawned_inside_a_row_of_tiles_in_the_air_comes_out_on_top_of_it(height, shape):
    """A floating row of separate 32 px tiles (bottom y = 96, top y = 128) with the ground far below: a centre
    ``height`` px above the row's bottom, even near the bottom, comes out on top of the row (the nearest free
    spot above), not below it."""
    for x in (0.0, 14.0, 30.0):
        world = World()
        tiled_floor(world, range(-10, 10))
        for col in range(-4, 4):
            add_tile(world, col, 3)
        hero = world.add_character(SHAPES[shape], (x, 3 * TILE + height))
        controller = PlatformerController(hero)
        for _ in range(30):
            controller.update(PlatformerInput(), DT)
            world.step(DT)
        half = -SHAPES[shape].local_aabb.min_y
        assert hero.on_floor and hero.position[1] == pytest.approx(4 * TILE + RADIUS + half + 0.5, abs=0.01), \
            (x, height, hero.position)


@pytest.mark.parametrize("came_from", [-1.0, 1.0], ids=["left", "right"])
def test_a_hero_teleported_into_a_tunnel_too_low_for_him_leaves_by_the_end_he_came_from(came_from):
    """A tunnel 24 px high and 160 px long (the hero is 32 px tall): put into its middle from outside one
    end, he goes back out of that end, straight along it, not out of the other end nor through its walls."""
    world = World(gravity=(0.0, 0.0))
    world.add_segments([(-80.0, -12.0), (-80.0, 12.0)], [(80.0, -12.0), (80.0, 12.0)], radius=RADIUS)
    before = (came_from * 140.0, 0.0)
    hero = world.add_character(HERO, before)
    world.step(DT)
    hero.teleport((came_from * 10.0, 0.0))
    world.step(DT)
    assert _deepest(world, hero) <= SLOP
    assert hero.position[0] * came_from > 80.0 + RADIUS + 10.0 - 2.0 and abs(hero.position[1]) < 1e-6, hero.position
    assert hero.position[0] * came_from < 80.0 + RADIUS + 10.0 + 2.0  # at the mouth: no farther than needed


def test_a_hero_spawned_in_a_tunnel_too_low_for_him_leaves_by_the_nearer_end():
    world = World(gravity=(0.0, 0.0))
    world.add_segments([(-80.0, -12.0), (-80.0, 12.0)], [(80.0, -12.0), (80.0, 12.0)], radius=RADIUS)
    for x in (-30.0, 25.0):
        hero = world.add_character(HERO, (x, 0.0))
        world.step(DT)
        assert _deepest(world, hero) <= SLOP and abs(hero.position[1]) < 1e-6, hero.position
        assert hero.position[0] * math.copysign(1.0, x) == pytest.approx(80.0 + RADIUS + 10.0, abs=2.0)
        world.remove(hero)


# ------------------------------------------------------------------------------------------- D11
@pytest.mark.parametrize("dt", [1 / 60, 1 / 30], ids=["60 Hz", "30 Hz"])
@pytest.mark.parametrize("degrees", [-60.0, -30.0, -15.0, 15.0, 30.0, 60.0])
@pytest.mark.parametrize("platform", ["box", "circle"])
def test_a_fast_platform_pushing_a_hero_diagonally_into_a_wall_never_leaves_him_inside_it(platform, degrees, dt):
    """D11: a 1000 px/s platform pushing a hero diagonally into a wall left him 4 px inside it (a push longer
    than the reach the move looked around in). He ends every step at most 1 px inside the wall or the floor,
    and at most 1 px inside the platform until it has squeezed him against them, which is reported as
    ``crushed`` (the character first, the platform second)."""
    shape = RoundedPolygon.box(15, 15) if platform == "box" else RoundedPolygon.circle(18)
    angle = math.radians(degrees)
    direction = (math.cos(angle), math.sin(angle))
    for gap in (10.0, 22.0, 26.0, 30.0):  # px between the hero and the wall
        world = World()
        world.add_chain([(-400.0, -200.0), (100.0, -200.0), (100.0, 400.0)], radius=RADIUS)  # floor and a wall
        start = (100.0 - RADIUS - 10.0 - gap, 40.0)
        hero = world.add_character(HERO, start)
        world.step(dt)
        x, y = hero.position
        mover = world.add_kinematic(KinematicBody(shape, (x - 60.0 * direction[0], y - 60.0 * direction[1])))
        mover.velocity = (1000.0 * direction[0], 1000.0 * direction[1])
        crushed = 0
        for _ in range(int(0.3 / dt)):
            world.step(dt)
            crushed += sum(1 for e in world.events if e.kind == "crushed" and (e.a, e.b) == (hero, mover))
            static = [c.separation for c in world.contacts(hero.shape, hero.transform, 0.0, ignore=(hero,))
                      if c.collider.body is None]
            assert min(static + [0.0]) >= -1.0, (gap, hero.position, min(static))
            into_mover = world.contact_with(hero.shape, hero.transform, mover.collider, 0.0)
            if into_mover is not None and into_mover.separation < -1.0:
                assert crushed, (gap, hero.position)  # (once squeezed, the platform passes through him)
            assert hero.position[0] < 100.0 and hero.position[1] > -200.0  # never through the wall or the floor


def test_a_hero_spawned_inside_a_parked_platform_against_a_wall_comes_out_free_and_is_not_crushed():
    """A platform that did not move cannot squeeze anyone: a hero spawned overlapping one that stands 13 px
    from a wall (too narrow a gap for him) comes out free, with no ``crushed`` event (before: reported crushed
    and left 7.5 px inside the platform; now on top of it or under it)."""
    for spawn in ((80.0, 0.0), (78.0, 10.0), (84.0, -6.0)):
        world = World(gravity=(0.0, 0.0))
        world.add_segments([(100.0, -200.0)], [(100.0, 200.0)], radius=RADIUS)
        world.add_kinematic(KinematicBody(RoundedPolygon.box(15, 15), (70.0, 0.0)))
        hero = world.add_character(HERO, spawn)
        world.step(DT)
        assert not [e for e in world.events if e.kind == "crushed"], spawn
        assert _deepest(world, hero) <= SLOP and hero.position[0] < 100.0, (spawn, hero.position)


CLUTTER = [((0.0, 209.32), (0.0, -85.44)), ((-285.75, 0.0), (19.03, 0.0)), ((-167.67, 0.0), (0.0, 41.71)),
           ((143.51, 3.02), (-199.49, 90.0)), ((-71.97, -34.52), (226.75, 52.0))]
"""Five thin walls around the origin, two of them crossing there (found by the Hypothesis run of
``test_collisions.py``'s random rooms, seed 6): the nearest spot free for a 16 x 36 px capsule that a centre at the
origin reaches without crossing a wall's core is 82 px away, down and to the left."""


def test_a_character_spawned_where_walls_cross_in_clutter_comes_out_free():
    """Measured: he stayed at the origin 19 px inside the walls, step after step (each step's search tested its
    4,000 spots, 1 px apart, before giving up, some 35 px out)."""
    world = World(gravity=(0.0, 0.0))
    world.add_chain([(-400, -400), (400, -400), (400, 400), (-400, 400)], radius=1.0, closed=True)
    world.add_segments([a for a, _ in CLUTTER], [b for _, b in CLUTTER], radius=1.0)
    hero = world.add_character(RoundedPolygon.capsule((0, -10), (0, 10), 8), (0.0, 0.0))
    world.step(DT)
    assert _deepest(world, hero) <= SLOP, hero.position
    start, end = (0.0, 0.0), hero.position
    assert not any(_crosses(start, end, a, b) for a, b in CLUTTER), end  # (out on his own side of every wall)
