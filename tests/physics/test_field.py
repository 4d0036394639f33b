"""Physics in the field: the cases an adversarial trial found (issue 12), each as a player would see it.

Default sizes: the hero is 20 x 32 px with 2 px rounded corners; ``step_height`` is 8 px.
"""

from __future__ import annotations

import pytest

from engine import (
    MoverConfig, PhysicsConfig, PlatformerConfig, PlatformerController, PlatformerInput, RoundedPolygon, World,
)

HERO = RoundedPolygon.box(10, 16, radius=2)
DT = 1.0 / 60.0
RIGHT = PlatformerInput(right=True)


def curb_world(height: float, radius: float) -> World:
    """Flat floor (centre line y = 0) with a curb ``height`` px high at x = 100, segments of ``radius``."""
    world = World()
    world.add_chain([(-400, 0), (100, 0), (100, height), (700, height)], radius=radius)
    return world


def walk(world: World, speed: float, start_x: float = 0.0, seconds: float = 0.0, radius: float = 2.0):
    hero = world.add_character(HERO, (start_x, radius + 16.5 + 2.0))
    controller = PlatformerController(hero, PlatformerConfig(run_speed=speed))
    for _ in range(int((seconds or 300.0 / speed + 1.0) / DT)):
        controller.update(RIGHT, DT)
        world.step(DT)
    return hero


@pytest.mark.parametrize("radius", [0.5, 2.0, 6.0])
@pytest.mark.parametrize("speed", [30.0, 90.0, 250.0])
@pytest.mark.parametrize("height", [1.0, 2.0, 4.0, 6.0, 8.0])
def test_a_walking_hero_steps_up_every_curb_up_to_step_height(height, speed, radius):
    hero = walk(curb_world(height, radius), speed, radius=radius)
    assert hero.position[0] > 150.0, f"stuck at x = {hero.position[0]:.1f}"
    assert hero.on_floor and hero.position[1] == pytest.approx(height + radius + 16.5, abs=0.6)


@pytest.mark.parametrize("speed", [30.0, 250.0])
def test_a_hero_standing_against_a_curb_steps_up_when_walking(speed):
    world = curb_world(6.0, 2.0)
    hero = walk(world, speed, start_x=100.0 - 2.0 - 10.0 - 0.5, seconds=1.5)
    assert hero.position[0] > 110.0 and hero.position[1] > 20.0


@pytest.mark.parametrize("radius", [0.5, 2.0])
@pytest.mark.parametrize("speed", [30.0, 120.0, 250.0])
@pytest.mark.parametrize("height", [9.5, 12.0])
def test_a_curb_taller_than_step_height_is_a_wall(height, speed, radius):
    """(A much rounder edge, say 6 px of radius on a 9.5 px curb, is a ramp where its slope is within
    ``max_floor_angle``, and is walked up as one.)"""
    hero = walk(curb_world(height, radius), speed, radius=radius)
    assert hero.position[0] < 100.0 - radius - 10.0 + 0.01
    assert hero.position[1] == pytest.approx(radius + 16.5, abs=0.01)


def test_step_height_is_the_mover_config_value():
    assert MoverConfig().step_height == 8.0


# ------------------------------------------------------------------------------------------------ tunnelling
@pytest.mark.parametrize("degrees", [30.0, 45.0, 49.0])
@pytest.mark.parametrize("speed", [2_000.0, 8_000.0, 20_000.0])
@pytest.mark.parametrize("dt", [1 / 240, 1 / 60, 1 / 30])
def test_running_up_a_steep_ramp_at_any_speed_never_crosses_the_ceiling(degrees, speed, dt):
    """A ramp under a flat ceiling: however far one step slides up the ramp, the ceiling stops it (the search
    for what to hit covers the whole path the slide can take, which constant speed on slopes stretches)."""
    import math

    slope = math.radians(degrees)
    for ceiling in (300.0, 420.0, 520.0, 700.0):
        world = World()
        world.add_segments([(0, 0)], [(4000 * math.cos(slope), 4000 * math.sin(slope))], radius=2.0)
        world.add_segments([(-200, ceiling)], [(4000, ceiling)], radius=2.0)
        hero = world.add_character(HERO, (100.0, 100.0 * math.tan(slope) + 60.0))
        controller = PlatformerController(hero)
        for _ in range(60):
            controller.update(PlatformerInput(), DT)
            world.step(DT)
        assert hero.on_floor
        hero.velocity = (speed, 0.0)
        hero.move(dt)
        assert hero.position[1] <= ceiling - 2.0 - 16.0 + 1e-6, (ceiling, hero.position)


# ------------------------------------------------------------------------------------------------ steep V
@pytest.mark.parametrize("degrees", [55.0, 65.0, 75.0])
def test_resting_in_a_v_of_steep_walls_is_standing(degrees):
    """Two walls too steep to stand on, meeting in a V: their combined push is straight up, so the hero
    stands there (on_floor, no fall speed) and can jump out."""
    import math

    world = World()
    rise = math.tan(math.radians(degrees)) * 120.0
    world.add_chain([(-120, rise), (0, 0), (120, rise)], radius=2.0)
    hero = world.add_character(HERO, (0.0, 80.0))
    controller = PlatformerController(hero)
    for _ in range(90):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    rest = hero.position[1]
    assert hero.on_floor and hero.velocity == (0.0, 0.0)
    controller.update(PlatformerInput(), DT)
    world.step(DT)
    assert hero.position[1] == pytest.approx(rest, abs=1e-6)  # not sinking, not jittering
    top = rest
    for frame in range(40):
        controller.update(PlatformerInput(jump=frame < 20), DT)
        world.step(DT)
        top = max(top, hero.position[1])
    assert top > rest + 40.0


# ------------------------------------------------------------------------------------------------ crushing
@pytest.mark.parametrize("speed", [30.0, 100.0, 300.0, 600.0])
def test_a_descending_platform_crushes_the_hero_against_the_floor_but_never_pushes_him_through(speed):
    from engine import KinematicBody

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    hero = world.add_character(HERO, (0.0, 18.5))
    controller = PlatformerController(hero)
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, 80.0), velocity=(0.0, -speed)))
    crushed, lowest = [], hero.position[1]
    for _ in range(int(2.0 * 80.0 / speed / DT) + 10):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
        lowest = min(lowest, hero.position[1])
        crushed += [e for e in world.events if e.kind == "crushed"]
    assert lowest > 18.5 - 0.6  # still standing on the floor
    assert crushed and crushed[0].a is hero and crushed[0].b is lift
    assert lift.velocity == (0.0, -speed)  # the platform keeps its path


@pytest.mark.parametrize("speed", [30.0, 100.0, 300.0, 600.0])
@pytest.mark.parametrize("rising", [False, True])
def test_a_platform_squeezing_a_crate_against_the_level_reports_it_crushed(speed, rising):
    """A lift coming down on a crate on the floor (or carrying one up into a ceiling): the crate is never
    pushed through the level, a ``crushed`` event names it and the lift, and the lift keeps its path."""
    from engine import KinematicBody, RigidBody

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    world.add_chain([(400, 120), (-400, 120)], radius=2.0)  # a ceiling (solid from below)
    if rising:
        lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, 20.0), velocity=(0.0, speed)))
        crate = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, 42.5)))
    else:
        lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, 80.0), velocity=(0.0, -speed)))
        crate = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, 18.0)))
    crushed, low, high = [], crate.position[1], crate.position[1]
    for _ in range(int(2.0 * 80.0 / speed / DT) + 10):
        world.step(DT)
        low, high = min(low, crate.position[1]), max(high, crate.position[1])
        crushed += [e for e in world.events if e.kind == "crushed"]
    half, slack = 16.0, PhysicsConfig().max_static_overlap + 0.1  # the crate's half size; overlap allowed
    if rising:  # never pressed into the ceiling (it falls to the floor once the lift has passed through it)
        assert high < 118.0 - half + slack
    else:  # never pressed into the floor
        assert low > 2.0 + half - slack
    assert crushed and crushed[0].a is crate and crushed[0].b is lift
    assert lift.velocity == (0.0, speed if rising else -speed)  # the platform keeps its path


# ------------------------------------------------------------------------------------------------ fast platforms
@pytest.mark.parametrize("one_way", [None, (0.0, 1.0)])
@pytest.mark.parametrize("speed", [600.0, 1300.0, 3000.0, 6000.0])
def test_a_hero_falling_onto_a_fast_rising_platform_lands_on_it(speed, one_way):
    from engine import KinematicBody

    for phase in range(0, 120, 15):  # where, within a step's travel, the two meet
        world = World()
        lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 4, radius=0), (0.0, -speed - phase),
                                                 velocity=(0.0, speed), one_way=one_way))
        hero = world.add_character(HERO, (0.0, 0.0))
        controller = PlatformerController(hero)
        for _ in range(90):
            controller.update(PlatformerInput(), DT)
            world.step(DT)
            assert hero.position[1] > lift.position[1], f"fell through the platform (phase {phase})"
        assert hero.on_floor and hero.platform is lift
        assert hero.position[1] == pytest.approx(lift.position[1] + 4.0 + 16.5, abs=1.0)


@pytest.mark.parametrize("one_way", [None, (0.0, 1.0)])
@pytest.mark.parametrize("speed", [1300.0, 3000.0, 6000.0])
def test_a_hero_standing_on_a_platform_that_starts_rising_fast_rides_it(speed, one_way):
    from engine import KinematicBody

    world = World()
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 4, radius=0), (0.0, 0.0), one_way=one_way))
    hero = world.add_character(HERO, (0.0, 4.0 + 16.5))
    controller = PlatformerController(hero)
    for _ in range(10):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    lift.velocity = (0.0, speed)
    for _ in range(30):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
        assert hero.position[1] == pytest.approx(lift.position[1] + 4.0 + 16.5, abs=1.0)


# ------------------------------------------------------------------------------------------------ crate on the head
def _jump_with_crate_on_head(density: float) -> tuple[float, float]:
    """Rise of the hero's jump and of the crate on his head (px), for a 32 x 32 crate of ``density``."""
    from engine import RigidBody

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    hero = world.add_character(HERO, (0.0, 18.5))
    controller = PlatformerController(hero)
    crate = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, 18.5 + 16 + 16 + 1), density=density))
    for _ in range(90):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    hero_y, crate_y = hero.position[1], crate.position[1]
    hero_top, crate_top = hero_y, crate_y
    for frame in range(60):
        controller.update(PlatformerInput(jump=frame < 30), DT)
        world.step(DT)
        hero_top, crate_top = max(hero_top, hero.position[1]), max(crate_top, crate.position[1])
    return hero_top - hero_y, crate_top - crate_y


@pytest.mark.parametrize("ratio, least", [(0.5, 30.0), (1.0, 18.0), (2.0, 5.0)])
def test_a_jump_lifts_a_crate_up_to_twice_the_heros_mass(ratio, least):
    density = ratio * MoverConfig().mass / (32.0 * 32.0)
    hero_rise, crate_rise = _jump_with_crate_on_head(density)
    assert hero_rise > least and crate_rise > least


def test_a_much_heavier_crate_pins_the_hero():
    hero_rise, _ = _jump_with_crate_on_head(20.0 * MoverConfig().mass / (32.0 * 32.0))
    assert hero_rise < 3.0


# ------------------------------------------------------------------------------------------------ mass ratios
@pytest.mark.parametrize("ratio", [10.0, 100.0, 1000.0, 10000.0])
def test_a_light_crate_under_a_heavy_one_never_leaves_through_the_floor(ratio):
    """A 16 px crate under a 64 px one of ``ratio`` times its mass, on a zero-thickness floor."""
    from engine import RigidBody

    world = World()
    world.add_segments([(-2000, 0)], [(2000, 0)], radius=0.0)
    small = world.add_body(RigidBody(RoundedPolygon.box(8, 8, radius=0.5), (0.0, 8.0)))
    density = ratio * small.mass / (64.0 * 64.0)
    big = world.add_body(RigidBody(RoundedPolygon.box(32, 32, radius=0.5), (0.0, 48.0), density=density))
    lowest = small.position[1]
    for _ in range(180):
        world.step(DT)
        lowest = min(lowest, small.position[1], big.position[1] - 24.0)
    assert lowest > 8.0 - PhysicsConfig().max_static_overlap - 1e-6
    assert small.position[1] > 0.0 and big.position[1] > small.position[1]


@pytest.mark.parametrize("ratio", [10.0, 50.0, 100.0, 1000.0])
def test_a_heavy_crate_on_a_light_one_sinks_into_it_at_most_a_pixel(ratio):
    """Regression: the soft contact between the two sagged in proportion to the mass ratio (2 px at 100:1) and
    at 1000:1 the heavy crate went through the light one to the floor."""
    from engine import RigidBody

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    light = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=0.5), (0.0, 18.0)))
    heavy = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=0.5), (0.0, 52.0), density=ratio))
    deepest = 0.0
    for step in range(240):
        world.step(DT)
        if step >= 60:  # at rest (after the first second)
            deepest = max(deepest, 32.0 - (heavy.position[1] - light.position[1]))
    assert deepest <= PhysicsConfig().max_static_overlap + 0.05
    assert light.position[1] > 16.0 and heavy.position[1] > light.position[1]


@pytest.mark.parametrize("ratio", [10.0, 50.0, 100.0])
@pytest.mark.parametrize("height", [2, 3])
def test_stacks_of_uneven_mass_fall_asleep_within_two_seconds(ratio, height):
    """Regression: heavy-on-light stacks trembled about 1 px at 10-70 px/s forever and never slept."""
    from engine import RigidBody

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    crates = [world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=0.5), (0.0, 18.0 + 34.0 * k),
                                       density=ratio ** (k % 2))) for k in range(height)]
    for _ in range(int(2.0 / DT)):
        world.step(DT)
    assert all(c.sleeping for c in crates)
    for lower, upper in zip(crates, crates[1:]):
        assert 32.0 - (upper.position[1] - lower.position[1]) <= PhysicsConfig().max_static_overlap + 0.05


def test_a_heavy_crate_dropped_on_a_light_one_does_not_push_it_through_the_floor():
    from engine import RigidBody

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    light = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=0.5), (0.0, 18.0)))
    heavy = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=0.5), (0.0, 300.0), density=5.0))
    for _ in range(180):
        world.step(DT)
        assert light.position[1] > 18.0 - 1.0 - 1e-6
    assert heavy.position[1] > light.position[1]


# ------------------------------------------------------------------------------------------------ fast crates
@pytest.mark.parametrize("speed", [1000.0, 2000.0, 4000.0])
@pytest.mark.parametrize("dt", [1 / 60, 1 / 30])
def test_a_fast_crate_sliding_on_the_floor_stops_at_the_wall(speed, dt):
    """Regression (the randomised invariants' escaped crates): the sweep against the level took the first
    hit, the floor the crate rests on (already touching), and never looked at the wall ahead."""
    from engine import RigidBody

    world = World()
    world.add_chain([(-100, 400), (-100, 0), (400, 0), (400, 400)], radius=2.0)
    crate = world.add_body(RigidBody(RoundedPolygon.box(8, 8, radius=1), (300.0, 11.0), velocity=(speed, 0.0)))
    for _ in range(int(0.5 / dt)):
        world.step(dt)
        assert crate.position[0] < 400.0 - 2.0 - 8.0 + PhysicsConfig().max_static_overlap + 0.5  # (half width 8)
    assert crate.position[1] > 0.0


@pytest.mark.parametrize("speed", [2000.0, 7000.0, 14000.0])
@pytest.mark.parametrize("angle", [0.0, 1.571, 1.69])
def test_a_hero_slamming_a_crate_into_a_corner_never_sends_it_through_the_level(speed, angle):
    """Regression (the randomised invariants' escaped crates): struck at a corner, a crate spun so far in one
    step that its corner went through the floor (the contact estimate is linear in the turn)."""
    from engine import Character, RigidBody

    world = World()
    world.add_chain([(0, 400), (0, 0), (400, 0)], radius=2.0)
    crate = world.add_body(RigidBody(RoundedPolygon.box(16.5, 8.8, radius=1), (30.0, 30.0), angle=angle))
    for _ in range(60):
        world.step(DT)
    hero = world.add_character(Character(HERO, (120.0, 18.5)))
    for _ in range(20):
        hero.velocity = (-speed, 0.0)
        world.step(0.014)
        assert crate.position[0] > 2.0 + 8.8 - 2.0 and crate.position[1] > 2.0 + 8.8 - 2.0  # inside the room


# ------------------------------------------------------------------------------------------------ recovery
def _crosses(p, q, a, b) -> bool:
    """Whether the move p -> q properly crosses the core line a-b of a segment."""
    def side(o, s, t):
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    d1, d2, d3, d4 = side(a, b, p), side(a, b, q), side(p, q, a), side(p, q, b)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def _distance_to_core(p, a, b) -> float:
    abx, aby = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / (abx * abx + aby * aby)))
    return ((p[0] - a[0] - t * abx) ** 2 + (p[1] - a[1] - t * aby) ** 2) ** 0.5


def _v_arms(degrees: float) -> list:
    """A V opening upward, vertex at the origin, ``degrees`` between its 120 px arms (as a chain's points)."""
    import math

    half = math.radians(degrees) / 2.0
    return [(-120 * math.sin(half), 120 * math.cos(half)), (0.0, 0.0), (120 * math.sin(half), 120 * math.cos(half))]


@pytest.mark.parametrize("degrees", [70.0, 85.0, 100.0])
def test_a_hero_spawned_overlapping_a_v_is_pushed_out_inside_it_never_through_the_vertex(degrees):
    """Issue 12 item 5: a hero spawned with his feet through the bottom of an 85-degree V was pushed sideways
    out of one arm, through the other arm at the vertex, and fell out of the level. Every spawn whose centre is
    inside the V (even within an arm's 2 px radius of its core) must come out inside it and rest there."""
    points = _v_arms(degrees)
    arms = [(points[0], points[1]), (points[1], points[2])]
    def inside(p):
        return all((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) > 0 for a, b in arms)

    tried = 0
    for x in range(-8, 9, 4):
        for y in range(2, 31, 4):
            spawn = (float(x), float(y))
            if not inside(spawn):
                continue
            tried += 1
            world = World()
            world.add_chain(points, radius=2.0)
            hero = world.add_character(HERO, spawn)
            controller = PlatformerController(hero)
            controller.update(PlatformerInput(), DT)
            world.step(DT)
            assert not any(_crosses(spawn, hero.position, a, b) for a, b in arms), (spawn, hero.position)
            for _ in range(30):
                controller.update(PlatformerInput(), DT)
                world.step(DT)
            assert hero.on_floor and inside(hero.position) and hero.position[1] > 16.0, (spawn, hero.position)
    assert tried >= 10


THIN_SHAPES = {
    "wall on a floor": [((-100, 0), (100, 0)), ((0, 0), (0, 100))],
    "corner": [((-100, 0), (0, 0)), ((0, 0), (0, 100))],
    "shelf on a wall": [((0, -100), (0, 100)), ((0, 0), (100, 0))],
    "peak": [((-80, -80), (0, 0)), ((0, 0), (80, -80))],
}


@pytest.mark.parametrize("radius", [0.0, 0.5, 2.0])
@pytest.mark.parametrize("shape", sorted(THIN_SHAPES))
def test_a_hero_overlapping_thin_walls_and_platforms_comes_out_on_his_centres_side(shape, radius):
    """Overlap recovery moves the hero to the nearest free spot on the side of every thin wall or platform
    that his centre is on: it never carries his centre through a wall, a platform or the vertex where they
    meet. (Inside a segment's thickness the side he came from comes first: see the next test.)"""
    segments = THIN_SHAPES[shape]
    for x in range(-14, 15, 2):
        for y in range(-18, 19, 2):
            spawn = (float(x), float(y))
            if min(_distance_to_core(spawn, a, b) for a, b in segments) < 1e-9:
                continue  # on a core: on neither side
            world = World(gravity=(0.0, 0.0))
            world.add_segments([a for a, _ in segments], [b for _, b in segments], radius=radius)
            hero = world.add_character(HERO, spawn)
            world.step(DT)
            assert not any(_crosses(spawn, hero.position, a, b) for a, b in segments), (spawn, hero.position)
            contacts = world.contacts(hero.shape, hero.transform, 0.0, ignore=(hero,))
            assert min((c.separation for c in contacts), default=1.0) >= -1e-6, (spawn, hero.position)


@pytest.mark.parametrize("radius", [0.5, 2.0])
@pytest.mark.parametrize("side", [-1.0, 1.0])
@pytest.mark.parametrize("what", ["wall", "platform"])
def test_a_hero_teleported_onto_a_thin_walls_core_comes_out_on_the_side_he_came_from(what, side, radius):
    """A centre inside a wall's (or a thin platform's) thickness is on neither side of it, so the side he came
    from decides: never the far side."""
    import math

    world = World(gravity=(0.0, 0.0))
    if what == "wall":  # a wall on a floor; he comes from the left or the right
        world.add_segments([(-100, 0), (0, 0)], [(100, 0), (0, 200)], radius=radius)
        axis, centre, half = 0, (0.0, 100.0), 10.0
    else:  # a platform out of a wall; he comes from above or below
        world.add_segments([(-200, -200), (-200, 0)], [(-200, 200), (100, 0)], radius=radius)
        axis, centre, half = 1, (0.0, 0.0), 16.0
    away = [0.0, 0.0]
    away[axis] = side * 40.0
    before = (centre[0] + away[0], centre[1] + away[1])
    hero = world.add_character(HERO, before)
    world.step(DT)
    for offset in (0.0, 0.2 * radius, -0.2 * radius):
        hero.teleport(before)
        world.step(DT)
        onto = list(centre)
        onto[axis] += offset
        hero.teleport(tuple(onto))
        world.step(DT)
        assert (hero.position[axis] - centre[axis]) * side >= radius + half + 1e-6, (offset, hero.position)
        # The nearest free spot, to within the ring search's 1.25 px step: straight out, not round an end.
        assert math.dist(hero.position, onto) <= radius + half + 0.5 + 1.25 + 1e-6, (offset, hero.position)


@pytest.mark.parametrize("radius", [0.0, 0.5, 2.0])
def test_a_hero_spawned_speared_by_a_thin_wall_comes_out_free_on_either_side(radius):
    """The wall's core through his centre, and no move before: neither side is his, so recovery may take
    either (a rule that kept him off both left him wedged), and he is free after one step."""
    world = World(gravity=(0.0, 0.0))
    world.add_segments([(-100, 0), (0, 0)], [(100, 0), (0, 200)], radius=radius)  # a wall on a floor
    hero = world.add_character(HERO, (0.0, 100.0))
    world.step(DT)
    contacts = world.contacts(hero.shape, hero.transform, 0.0, ignore=(hero,))
    assert min((c.separation for c in contacts), default=1.0) >= -1e-6
    assert abs(hero.position[0]) >= radius + 10.0 and abs(hero.position[1] - 100.0) < 3.0
