"""Body kinds together (issue 30): what a game that removes, moves and combines bodies sees them do."""

from __future__ import annotations

import math

import pytest

from engine.bodies import RigidBody
from engine.geometry import RoundedPolygon
from engine.platformer import PlatformerController, PlatformerInput
from engine.types import WorldError
from engine.world import KinematicBody, PlatformPath, World
from tests.character.levels import DT, HERO, standing_y, tiled_floor

CRATE = RoundedPolygon.box(16, 16, radius=1)
REST_Y = 2.0 + 16.0


def _start_lift(lift: KinematicBody, motion: str, speed: float) -> None:
    """Set a riding test's lift going: ``"up"``, ``"down"`` or ``"pingpong"`` between y 40 and 400, at ``speed``
    px/s."""
    if motion == "pingpong":
        lift.path = PlatformPath([(0.0, 40.0), (0.0, 400.0)], speed, "pingpong")
    else:
        lift.velocity = (0.0, speed if motion == "up" else -speed)


def _stop_lift_at_its_end(lift: KinematicBody, motion: str) -> None:
    """Stop an up or down lift at the end of its ride (above y 600, below y 60), as a game would."""
    if (motion == "up" and lift.position[1] > 600.0) or (motion == "down" and lift.position[1] < 60.0):
        lift.velocity = (0.0, 0.0)


def _stack(world: World, x: float = 0.0, height: int = 3, base_y: float = REST_Y) -> list[RigidBody]:
    return [world.add_body(RigidBody(CRATE, (x, base_y + 32.0 * i + 0.5 * i))) for i in range(height)]


def _asleep(world: World, bodies: list[RigidBody], seconds: float = 4.0) -> None:
    for _ in range(int(seconds / DT)):
        world.step(DT)
    assert all(b.sleeping for b in bodies)


def _run(world: World, seconds: float) -> None:
    for _ in range(int(seconds / DT)):
        world.step(DT)


# ------------------------------------------------------------------------------------------- D1 waking
def test_removing_the_bottom_crate_of_a_sleeping_stack_lets_the_others_fall():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    stack = _stack(world)
    _asleep(world, stack)
    world.remove(stack[0])
    _run(world, 2.0)
    assert stack[1].position[1] == pytest.approx(REST_Y, abs=1.0)
    assert stack[2].position[1] == pytest.approx(REST_Y + 32.0, abs=1.5)


def test_removing_or_moving_the_platform_under_sleeping_crates_lets_them_fall():
    for how in ("remove", "teleport"):
        world = World()
        world.add_chain([(-400, 0), (400, 0)], radius=2.0)
        platform = world.add_kinematic(KinematicBody(RoundedPolygon.box(60, 6), (0.0, 100.0)))
        crates = _stack(world, base_y=100.0 + 6.0 + 16.0 + 0.5, height=2)
        _asleep(world, crates)
        if how == "remove":
            world.remove(platform)
        else:
            platform.position = (1000.0, 100.0)
        _run(world, 2.0)
        assert crates[0].position[1] == pytest.approx(REST_Y, abs=1.0), how
        assert crates[1].position[1] == pytest.approx(REST_Y + 32.0, abs=1.5), how


def test_moving_the_bottom_crate_of_a_sleeping_stack_away_lets_the_others_fall():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    stack = _stack(world)
    _asleep(world, stack)
    stack[0].position = (200.0, REST_Y)
    _run(world, 2.0)
    assert stack[1].position[1] == pytest.approx(REST_Y, abs=1.0)


def test_a_crate_moved_into_mid_air_by_game_code_falls():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    (box,) = _stack(world, height=1)
    _asleep(world, [box])
    box.position = (0.0, 200.0)
    _run(world, 2.0)
    assert box.position[1] == pytest.approx(REST_Y, abs=1.0)


def test_a_segment_added_through_a_sleeping_stack_wakes_it():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    stack = _stack(world)
    _asleep(world, stack)
    world.add_segments([(-100.0, 40.0)], [(100.0, 40.0)])  # through the middle crate
    world.step(DT)
    assert not any(b.sleeping for b in stack[1:])


def test_shrinking_the_bottom_crate_of_a_sleeping_stack_lets_the_others_settle_on_it():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    stack = _stack(world)
    _asleep(world, stack)
    stack[0].shape = RoundedPolygon.box(16, 8, radius=1)  # half as tall: the others hang 16 px in the air
    _run(world, 2.0)
    assert stack[1].position[1] < REST_Y + 32.0 - 10.0


# ------------------------------------------------------------------------------------------- D10 spin
def test_a_resting_crate_given_a_huge_spin_is_not_launched():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    (box,) = _stack(world, height=1)
    _run(world, 0.5)
    box.angular_velocity = 1e4
    highest = box.position[1]
    for _ in range(int(1.0 / DT)):
        world.step(DT)
        highest = max(highest, box.position[1])
        assert abs(box.angular_velocity) <= 100.0
    assert highest < REST_Y + 32.0  # a hop, not a launch hundreds of px up
    assert abs(box.position[0]) < 100.0


# ------------------------------------------------------------------------------------------- D11 overlaps
def _heavy_circle_on_a_light_box(ratio: float, drop: float) -> tuple[float, float]:
    """A circle (radius 12) of ``ratio`` times the mass of a 16 x 16 box is dropped from ``drop`` px onto it
    on the floor; returns the deepest the circle is in the box and the box in the floor (px) from 0.5 s on."""
    from engine.geometry import collide

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    box = world.add_body(RigidBody(RoundedPolygon.box(8, 8), (0.0, 2.0 + 8.0)))
    circle = world.add_body(RigidBody(RoundedPolygon.circle(12), (0.0, 2.0 + 16.0 + 12.0 + drop),
                                      density=ratio * box.mass / (math.pi * 144.0)))
    in_box = in_floor = 0.0
    for step in range(int(2.0 / DT)):
        world.step(DT)
        if step >= int(0.5 / DT):
            manifold = collide(box.shape, box.transform, circle.shape, circle.transform)
            in_box = max(in_box, -manifold.separation if manifold else 0.0)
            floor = world.contacts(box.shape, box.transform, 0.0, ignore=(box, circle))
            in_floor = max([in_floor, *(-c.separation for c in floor)])
    return in_box, in_floor


@pytest.mark.parametrize("drop", [0.5, 20.0])
@pytest.mark.parametrize("ratio", [50.0, 450.0, 2000.0])
def test_a_heavy_circle_on_a_light_box_neither_sinks_into_it_nor_presses_it_into_the_floor(ratio, drop):
    in_box, in_floor = _heavy_circle_on_a_light_box(ratio, drop)
    assert in_box < 0.5 and in_floor < 0.5


# ------------------------------------------------------------------------------------------- D12 bad values
def test_a_rigid_body_cannot_be_in_two_worlds():
    first, second = World(), World()
    box = first.add_body(RigidBody(CRATE, (0.0, 50.0), name="crate 7"))
    with pytest.raises(WorldError, match="crate 7"):
        second.add_body(box)
    first.remove(box)
    second.add_body(box)  # once out of the first, it may join another
    assert box in second.bodies


def test_a_negative_or_bad_dt_is_refused_by_the_controller():
    world = World()
    tiled_floor(world, range(-5, 5))
    hero = world.add_character(HERO, (0.0, standing_y(0.0)))
    controller = PlatformerController(hero)
    for dt in (-1.0, 0.0, math.nan, math.inf):
        with pytest.raises(WorldError, match="dt"):
            controller.update(PlatformerInput(right=True), dt)


def test_a_kinematic_body_refuses_a_bad_velocity_naming_itself():
    lift = KinematicBody(RoundedPolygon.box(30, 6), (0.0, 0.0), name="lift 3")
    for attribute, value in (("velocity", (math.nan, 0.0)), ("velocity", (1.0,)), ("angular_velocity", math.inf),
                             ("angle", math.nan), ("position", (math.inf, 0.0))):
        with pytest.raises(WorldError, match="lift 3"):
            setattr(lift, attribute, value)
    assert lift.velocity == (0.0, 0.0)


# ------------------------------------------------------------------------------------------- D7 one-way
def _one_way_world() -> World:
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    world.add_segments([(-60.0, 100.0)], [(60.0, 100.0)], one_way=(0.0, 1.0))  # solid from above
    return world


def test_a_crate_thrown_up_through_a_one_way_ledge_lands_on_it():
    world = _one_way_world()
    box = world.add_body(RigidBody(CRATE, (0.0, REST_Y), velocity=(0.0, 700.0)))
    _run(world, 2.0)
    assert box.position[1] == pytest.approx(100.0 + 2.0 + 16.0, abs=1.0)  # on top of the ledge


def test_a_crate_dropped_on_a_one_way_ledge_rests_on_it_even_fast():
    for speed in (0.0, -600.0, -1500.0):
        world = _one_way_world()
        box = world.add_body(RigidBody(CRATE, (0.0, 200.0), velocity=(0.0, speed)))
        _run(world, 2.0)
        assert box.position[1] == pytest.approx(100.0 + 2.0 + 16.0, abs=1.0), speed


def test_a_crate_slides_under_a_one_way_ledge_and_a_stack_stands_on_one():
    world = _one_way_world()
    under = world.add_body(RigidBody(CRATE, (-250.0, REST_Y), velocity=(700.0, 0.0)))  # slides ~230 px
    world.add_segments([(-300.0, 33.0)], [(-150.0, 33.0)], one_way=(0.0, 1.0))  # low: 3 px into the crate's top
    stack = _stack(world, base_y=100.0 + 2.0 + 16.0 + 0.5, height=3)
    _run(world, 3.0)
    assert under.position[0] > -100.0 and under.position[1] == pytest.approx(REST_Y, abs=1.0)
    assert stack[0].position[1] == pytest.approx(100.0 + 2.0 + 16.0, abs=1.0)


# ------------------------------------------------------------------------------------------- character events
def test_two_characters_walking_into_each_other_begin_and_end_touching():
    from engine.types import CollisionFilter

    for group, expected in ((0, ["begin", "end"]), (-1, [])):
        world = World()
        tiled_floor(world, range(-10, 10))
        keep_apart = CollisionFilter(group=group)
        first = world.add_character(HERO, (-60.0, standing_y(0.0)))
        second = world.add_character(HERO, (60.0, standing_y(0.0)))
        first.filter = second.filter = keep_apart
        kinds, begin = [], None
        for frame in range(int(2.0 / DT)):
            toward = frame < 60
            first.velocity = (120.0 if toward else -120.0, first.velocity[1])
            second.velocity = (-120.0 if toward else 120.0, second.velocity[1])
            world.step(DT)
            for event in world.events:
                if {event.a, event.b} == {first, second}:
                    kinds.append(event.kind)
                    begin = event if event.kind == "begin" else begin
        assert kinds == expected, group
        if expected:
            assert (begin.a, begin.b) == (first, second) and begin.normal[0] == pytest.approx(1.0, abs=0.01)


def test_a_crate_passes_up_through_a_one_way_platform_and_lands_on_it():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    world.add_kinematic(KinematicBody(RoundedPolygon.box(60, 4), (0.0, 100.0), one_way=(0.0, 1.0)))
    box = world.add_body(RigidBody(CRATE, (0.0, REST_Y), velocity=(0.0, 700.0)))
    _run(world, 2.0)
    assert box.position[1] == pytest.approx(100.0 + 4.0 + 16.0, abs=1.0)  # on top of the platform


# ------------------------------------------------------------------------------------------- D6 pushes
def _shove(first_mass: float, second_mass: float, second_first: bool) -> tuple[float, float]:
    """Two heroes run at each other at 120 px/s for 2 s; returns where each ends (x)."""
    from engine.character import MoverConfig

    world = World()
    tiled_floor(world, range(-20, 20))
    made = {}
    for name, x, mass in (("second", 30.0, second_mass), ("first", -30.0, first_mass))[::1 if second_first else -1]:
        made[name] = world.add_character(HERO, (x, standing_y(0.0)), MoverConfig(mass=mass))
    for _ in range(int(2.0 / DT)):
        made["first"].velocity = (120.0, made["first"].velocity[1])
        made["second"].velocity = (-120.0, made["second"].velocity[1])
        world.step(DT)
    return made["first"].position[0], made["second"].position[0]


def test_equal_characters_pushing_each_other_stand_off_whatever_the_order():
    for second_first in (False, True):
        first, second = _shove(640.0, 640.0, second_first)
        assert first == pytest.approx(-10.0, abs=2.0) and second == pytest.approx(10.0, abs=2.0), second_first


def test_a_heavier_character_pushes_a_lighter_one_at_the_speed_the_masses_give():
    first, second = _shove(1280.0, 640.0, False)  # 2:1: both move at (2 * 120 - 120) / 3 = 40 px/s
    meeting = 0.25  # s, to close the 40 px between them at 240 px/s
    assert second - 10.0 == pytest.approx(40.0 * (2.0 - meeting), rel=0.15)
    assert second - first == pytest.approx(20.5, abs=1.0)  # side by side, the skin apart: pushed, not rammed


@pytest.mark.parametrize("second_first", [False, True])
@pytest.mark.parametrize("ratio", [0.5, 1.0, 2.0])
def test_a_sliding_crate_shoves_a_resting_one_at_the_speed_the_masses_give(ratio, second_first):
    """Momentum is shared whatever the order the crates were added in: 300 px/s into a crate of ``ratio`` times
    its mass leaves both at 300 / (1 + ratio) px/s (no gravity, no friction to the level)."""
    world = World(gravity=(0.0, 0.0))
    specs = [(-60.0, 1.0, 300.0), (0.0, ratio, 0.0)]
    made = [world.add_body(RigidBody(CRATE, (x, 0.0), velocity=(v, 0.0), density=d))
            for x, d, v in (specs[::-1] if second_first else specs)]
    moving, resting = made[::-1] if second_first else made
    _run(world, 1.0)
    expected = 300.0 / (1.0 + ratio)
    assert moving.velocity[0] == pytest.approx(expected, rel=0.01)
    assert resting.velocity[0] == pytest.approx(expected, rel=0.01)


@pytest.mark.parametrize("crate_first", [False, True])
def test_a_character_and_a_crate_of_its_mass_driven_at_each_other_stand_off(crate_first):
    """A crate driven by game code (its velocity set every step, as an enemy made of a rigid body) and a hero of
    the same mass running at it at the same speed stop each other, whatever the order they were added in."""
    from engine.character import MoverConfig

    world = World(gravity=(0.0, 0.0))
    adds = [lambda: world.add_character(HERO, (-40.0, 0.0), MoverConfig(mass=640.0)),
            lambda: world.add_body(RigidBody(CRATE, (0.0, 0.0), density=0.625))]  # (639.5: the hero's mass)
    made = [add() for add in (adds[::-1] if crate_first else adds)]
    hero, crate = made[::-1] if crate_first else made
    for _ in range(int(2.0 / DT)):
        hero.velocity, crate.velocity = (120.0, 0.0), (-120.0, 0.0)
        world.step(DT)
    assert (hero.position[0] + crate.position[0]) / 2.0 == pytest.approx(-20.0, abs=2.0)  # (met half way)
    assert crate.position[0] - hero.position[0] == pytest.approx(10.0 + 16.0, abs=1.5)  # (side by side)


def _hero_against_a_driven_crate(hero_mass: float, crate_density: float) -> tuple[float, float]:
    """A hero of ``hero_mass`` runs at 120 px/s into a crate that game code drives at -120 px/s (no gravity) for
    2 s; returns how fast the hero moves over the second one (px/s) and the speed the masses give."""
    from engine.character import MoverConfig

    world = World(gravity=(0.0, 0.0))
    hero = world.add_character(HERO, (-40.0, 0.0), MoverConfig(mass=hero_mass))
    crate = world.add_body(RigidBody(CRATE, (0.0, 0.0), density=crate_density))
    start = 0.0
    for step in range(int(2.0 / DT)):
        hero.velocity, crate.velocity = (120.0, 0.0), (-120.0, 0.0)
        world.step(DT)
        if step == int(1.0 / DT) - 1:
            start = hero.position[0]
    return hero.position[0] - start, 120.0 * (hero_mass - crate.mass) / (hero_mass + crate.mass)


@pytest.mark.parametrize("hero_mass", [1280.0, 1920.0])
def test_a_heavier_character_pushes_a_driven_crate_at_the_speed_the_masses_give(hero_mass):
    speed, expected = _hero_against_a_driven_crate(hero_mass, 0.625)  # (a crate of 639.5: 2:1 and 3:1)
    assert speed == pytest.approx(expected, abs=2.0)  # (40 and 60 px/s)


def test_a_driven_crate_pushes_a_lighter_character_back_at_the_speed_the_masses_give():
    speed, expected = _hero_against_a_driven_crate(640.0, 1.25)
    assert speed == pytest.approx(expected, abs=2.0)  # (-40 px/s)


def _crate_slides_into_a_standing_hero(density: float, crate_first: bool, wall: bool = False):
    """A frictionless crate slides at 300 px/s along the floor into a hero (640) standing still (a wall right
    behind him with ``wall``); returns the hero, the crate and the deepest the crate got into him (px)."""
    world = World()
    tiled_floor(world, range(-20, 20))
    if wall:
        world.add_segments([(13.0, 0.0)], [(13.0, 200.0)], radius=2.0)
    adds = [lambda: world.add_character(HERO, (0.0, standing_y(0.0))),
            lambda: world.add_body(RigidBody(CRATE, (-102.0, REST_Y), velocity=(300.0, 0.0), density=density,
                                             friction=0.0))]
    made = [add() for add in (adds[::-1] if crate_first else adds)]
    hero, crate = made[::-1] if crate_first else made
    deepest = 0.0
    for _ in range(int(0.5 / DT)):
        world.step(DT)
        deepest = max(deepest, (crate.position[0] + 16.0) - (hero.position[0] - 10.0))
    return hero, crate, deepest


@pytest.mark.parametrize("crate_first", [False, True])
@pytest.mark.parametrize("density", [0.625, 1.25, 2.5])  # (a crate of 1x, 2x and 4x the hero's 640)
def test_a_crate_sliding_into_a_standing_character_shoves_it_at_the_speed_the_masses_give(density, crate_first):
    hero, crate, _ = _crate_slides_into_a_standing_hero(density, crate_first)
    shared = 300.0 * crate.mass / (crate.mass + 640.0)  # (150, 200 and 240 px/s)
    assert hero.velocity[0] == pytest.approx(shared, rel=0.02)
    assert crate.velocity[0] == pytest.approx(shared, rel=0.02)
    assert hero.position[0] - crate.position[0] == pytest.approx(10.0 + 16.0, abs=1.5)  # (together, not rammed)


def test_the_crate_shoves_the_character_it_hits_with_far_platforms_and_other_characters_about():
    """The shove finds the character the crate hit among the step's movers, where far platforms are no rows (issue
    32) and other characters are: the hit one goes on at the shared speed, a bystander far off stays still."""
    world = World()
    tiled_floor(world, range(-20, 20))
    world.add_kinematic(KinematicBody(RoundedPolygon.box(30, 6), (5000.0, 3000.0), velocity=(20.0, 0.0)))
    hero = world.add_character(HERO, (0.0, standing_y(0.0)))
    bystander = world.add_character(HERO, (500.0, standing_y(500.0)))
    crate = world.add_body(RigidBody(CRATE, (-102.0, REST_Y), velocity=(300.0, 0.0), density=1.25, friction=0.0))
    for _ in range(int(0.5 / DT)):
        world.step(DT)
    shared = 300.0 * crate.mass / (crate.mass + 640.0)
    assert hero.velocity[0] == pytest.approx(shared, rel=0.02)
    assert bystander.velocity[0] == 0.0 and bystander.position[0] == 500.0


def test_a_crate_sliding_into_a_character_against_a_wall_stops_at_him():
    hero, crate, deepest = _crate_slides_into_a_standing_hero(2.5, False, wall=True)
    assert hero.position[0] == pytest.approx(0.0, abs=1.0)  # (not shoved into the wall)
    assert crate.velocity[0] == pytest.approx(0.0, abs=5.0)
    assert deepest <= 1.0


# ------------------------------------------------------------------ D8 continuous collision with kinematic bodies
@pytest.mark.parametrize("speed", [3000.0, 4000.0, 8000.0])
def test_a_fast_crate_lands_on_a_thin_platform_instead_of_passing_through(speed):
    world = World()
    platform = world.add_kinematic(KinematicBody(RoundedPolygon.box(60, 6), (0.0, 0.0)))
    crate = world.add_body(RigidBody(CRATE, (0.0, 300.0), velocity=(0.0, -speed)))
    lowest = math.inf
    for _ in range(60):
        world.step(DT)
        lowest = min(lowest, crate.position[1])
    assert lowest > platform.position[1]
    assert crate.position[1] == pytest.approx(6.0 + 16.0, abs=1.0)


@pytest.mark.parametrize("speed", [2000.0, 3000.0, 5000.0])
def test_a_fast_lift_carries_the_crate_it_meets_instead_of_passing_up_through_it(speed):
    world = World()
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(60, 6), (0.0, -300.0), velocity=(0.0, speed)))
    crate = world.add_body(RigidBody(CRATE, (0.0, 0.0)))
    gaps = []
    for _ in range(20):
        world.step(DT)
        gaps.append(crate.position[1] - lift.position[1])
    assert min(gaps) > 6.0 + 16.0 - 1.0  # never inside, never below it
    assert gaps[-1] == pytest.approx(6.0 + 16.0, abs=1.0)


def test_a_fast_crate_passes_up_through_a_one_way_platform_and_lands_on_it_coming_down():
    world = World()
    world.add_kinematic(KinematicBody(RoundedPolygon.box(60, 6), (0.0, 200.0), one_way=(0.0, 1.0)))
    crate = world.add_body(RigidBody(CRATE, (0.0, 20.0), velocity=(0.0, 2400.0)))
    highest = -math.inf
    for _ in range(240):  # (up some 1600 px and down again: about 2.7 s)
        world.step(DT)
        highest = max(highest, crate.position[1])
    assert highest > 400.0  # (through from below)
    assert crate.position[1] == pytest.approx(200.0 + 6.0 + 16.0, abs=1.0)  # (held coming down at ~2000 px/s)


def test_a_crate_thrown_at_a_thin_moving_wall_stops_at_it():
    world = World()
    world.gravity = (0.0, 0.0)
    wall = world.add_kinematic(KinematicBody(RoundedPolygon.box(3, 80), (0.0, 0.0), velocity=(-300.0, 0.0)))
    crate = world.add_body(RigidBody(CRATE, (-400.0, 0.0), velocity=(5000.0, 0.0)))
    for _ in range(30):
        world.step(DT)
        assert crate.position[0] < wall.position[0]


# ------------------------------------------------------------------ D3 / D4 who holds whom
def _stack_under_a_lift(speed: float) -> tuple[float, list[int], list[float]]:
    """A lift comes down at ``speed`` px/s onto 3 stacked crates on the floor and on through them (the game
    does nothing about it); returns the deepest crate-in-crate overlap seen (px), which crate each crushed
    event named (0 = bottom) in order, without repeats, and where the crates end (y)."""
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    crates = _stack(world)
    _run(world, 2.0)
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, crates[-1].position[1] + 62.0),
                                             velocity=(0.0, -speed)))
    deepest, named = 0.0, []
    for _ in range(int(2.0 / DT)):
        world.step(DT)
        if lift.position[1] < 0.0:
            lift.velocity = (0.0, 0.0)
        heights = [c.position[1] for c in crates]
        deepest = max([deepest] + [32.0 - (upper - lower) for lower, upper in zip(heights, heights[1:])])
        for event in world.events:
            if event.kind == "crushed" and (not named or named[-1] != crates.index(event.a)):
                assert event.b is lift
                named.append(crates.index(event.a))
    return deepest, named, [c.position[1] for c in crates]


@pytest.mark.parametrize("speed", [30.0, 60.0, 300.0, 600.0, 1200.0])
def test_a_lift_coming_down_on_a_crate_stack_crushes_the_crate_it_presses_and_squeezes_none(speed):
    deepest, named, heights = _stack_under_a_lift(speed)
    assert deepest <= 1.0
    assert named[0] == 2  # (the top crate: the one the lift presses, not the bottom one)
    assert heights == pytest.approx([REST_Y, REST_Y + 32.0, REST_Y + 64.0], abs=1.0)  # (order kept, none flung)


@pytest.mark.parametrize("speed", [30.0, 200.0, 500.0, 800.0])
def test_a_hero_riding_a_crate_on_a_rising_lift_with_nothing_above_is_not_crushed(speed):
    from tests.character.levels import tiled_floor

    world = World()
    tiled_floor(world, range(-10, 10))
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, 40.0)))
    crate = world.add_body(RigidBody(CRATE, (0.0, 40.0 + 6.0 + 16.0 + 0.5)))
    hero = world.add_character(HERO, (0.0, 40.0 + 6.0 + 32.0 + 16.0 + 2.5))
    _run(world, 0.5)
    lift.velocity = (0.0, speed)
    crushed = []
    for _ in range(int(3.0 / DT)):
        if lift.position[1] > 600.0:
            lift.velocity = (0.0, 0.0)
        world.step(DT)
        crushed += [event for event in world.events if event.kind == "crushed"]
    assert crushed == []
    assert crate.position[1] == pytest.approx(lift.position[1] + 6.0 + 16.0, abs=1.0)
    assert hero.position[1] > crate.position[1]  # (still on top)


def _hero_in_crate(world: World, hero, crate: RigidBody) -> float:
    """How deep (px) the hero's shape is inside the crate's (0 when apart)."""
    inside = [-c.separation for c in world.contacts(hero.shape, hero.transform, 0.0, ignore=(hero,))
              if c.collider.body is crate]
    return max([0.0, *inside])


@pytest.mark.parametrize("motion", ["up", "down", "pingpong"])
@pytest.mark.parametrize("speed", [30.0, 200.0, 500.0, 800.0])
def test_a_hero_standing_on_a_crate_on_a_lift_rides_it_without_sinking_in(motion, speed):
    """Measured before (the hero carried by what the crate did the step before): up to 12.9 px inside the crate
    rising at 800 px/s, 5.5 px going down, 25 px on a ping-pong lift, 3 ``crushed`` events at 200 px/s ping-pong
    and the crate left 142 px under the lift."""
    world = World()
    tiled_floor(world, range(-10, 10))  # (the level: x -320..320, its top at y 0)
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, 40.0 if motion != "down" else 500.0)))
    crate = world.add_body(RigidBody(CRATE, (0.0, lift.position[1] + 6.0 + 17.0 + 0.5)))
    hero = world.add_character(HERO, (0.0, crate.position[1] + 17.0 + 18.0 + 1.0))
    controller = PlatformerController(hero)
    idle = PlatformerInput()
    for _ in range(30):
        controller.update(idle, DT)
        world.step(DT)
    _start_lift(lift, motion, speed)
    deepest, crushed = 0.0, []
    for _ in range(int(3.0 / DT)):
        _stop_lift_at_its_end(lift, motion)
        controller.update(idle, DT)
        world.step(DT)
        deepest = max(deepest, _hero_in_crate(world, hero, crate))
        crushed += [e for e in world.events if e.kind == "crushed"]
    assert deepest <= 1.0
    assert crushed == []
    for thing in (hero, crate):  # (in the level, over its floor: not thrown out at a reversal)
        assert abs(thing.position[0]) < 320.0 and thing.position[1] > 0.0
    if motion != "pingpong":  # (a reversal at 500 px/s and more throws them up, and they may come down apart)
        assert hero.position[1] > crate.position[1]


@pytest.mark.parametrize("speed", [60.0, 300.0, 600.0, 1200.0])
def test_a_lift_pressing_a_stack_into_a_ceiling_crushes_the_crate_it_carries(speed):
    """Measured before: 3.7 px (600 px/s) and 15 px (1200 px/s) of crate in crate, the ceiling farther above the
    top crate than contacts were gathered (4 px) when the lift's push began."""
    world = World()
    world.add_chain([(-400, 200), (400, 200)], radius=2.0)  # (the ceiling, its underside at y 198)
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, 100.0)))
    crates = _stack(world, height=2, base_y=100.0 + 6.0 + 16.0 + 0.5)  # (the top one 27 px under the ceiling)
    _run(world, 1.0)
    lift.velocity = (0.0, speed)
    deepest, named = 0.0, []
    for _ in range(int(1.5 / DT)):
        world.step(DT)
        if lift.position[1] > 190.0:
            lift.velocity = (0.0, 0.0)
        deepest = max(deepest, 32.0 - (crates[1].position[1] - crates[0].position[1]),
                      crates[1].position[1] + 16.0 - 198.0)
        named += [crates.index(e.a) for e in world.events if e.kind == "crushed"]
    assert deepest <= 1.0  # (neither crate pressed into the other or into the ceiling)
    assert named and named[0] == 0  # (the crate the lift carries)


# ------------------------------------------------------------------ D2 a character squeezed against a held crate
@pytest.mark.parametrize("speed", [30.0, 60.0, 300.0, 600.0, 1200.0])  # (item 2's lift speeds)
def test_a_lift_coming_down_on_a_hero_standing_on_a_crate_crushes_the_hero(speed):
    from tests.character.levels import tiled_floor

    world = World()
    tiled_floor(world, range(-10, 10))
    crate = world.add_body(RigidBody(CRATE, (0.0, REST_Y + 0.5)))
    hero = world.add_character(HERO, (0.0, REST_Y + 16.0 + 16.0 + 2.5))
    _run(world, 0.5)
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, hero.position[1] + 16.0 + 6.0 + 30.0),
                                             velocity=(0.0, -speed)))
    deepest, crushed = 0.0, []
    for _ in range(int(2.0 / DT)):
        world.step(DT)
        deepest = max(deepest, (crate.position[1] + 16.0) - (hero.position[1] - 16.0))
        crushed += [(e.a, e.b) for e in world.events if e.kind == "crushed"]
    assert crushed and crushed[0] == (hero, lift)  # (the rules kill the player)
    assert deepest <= 1.0  # (not pressed into the crate the floor holds)
    assert crate.position == pytest.approx((0.0, REST_Y), abs=1.0)


# ------------------------------------------------------------------ D5 a hero between crates pushed together
def _squeezed_between_crates(speed: float) -> tuple[object, list[RigidBody], list, float]:
    """Two ping-pong walls push a crate each at ``speed`` towards the hero standing between them, until there is
    no room for him; returns the hero, the crates, the ``crushed`` events and how deep (px) he was inside a
    crate at most."""
    world = World()
    tiled_floor(world, range(-10, 10))
    hero = world.add_character(HERO, (0.0, standing_y(0.0)))
    crates = [world.add_body(RigidBody(CRATE, (x, REST_Y))) for x in (-40.0, 40.0)]
    walls = [world.add_kinematic(KinematicBody(RoundedPolygon.box(6, 30), (x, 34.0))) for x in (-150.0, 150.0)]
    controller = PlatformerController(hero)
    _run_with(controller, world, 20)
    for wall, x in zip(walls, (-150.0, 150.0)):
        wall.path = PlatformPath([(x, 34.0), (x * 40.0 / 150.0, 34.0)], speed, "pingpong")  # (inner faces 34 px out)
    crushed, deepest = [], 0.0
    for _ in range(int(3.0 / DT)):
        _run_with(controller, world, 1)
        crushed += [e for e in world.events if e.kind == "crushed"]
        deepest = max(deepest, *(_hero_in_crate(world, hero, crate) for crate in crates))
    return hero, crates, crushed, deepest


@pytest.mark.parametrize("speed", [60.0, 300.0, 800.0])
def test_a_hero_between_two_crates_that_platforms_push_together_is_the_one_crushed(speed):
    """Measured before: only ``crushed(crate, wall)`` events (the rules never killed the player)."""
    hero, crates, crushed, _ = _squeezed_between_crates(speed)
    assert crushed and crushed[0].a is hero and crushed[0].b in crates
    for thing in (hero, *crates):
        assert abs(thing.position[0]) < 320.0 and thing.position[1] > 0.0


@pytest.mark.parametrize("speed", [60.0, 300.0, 800.0])
def test_a_hero_between_two_crates_that_platforms_push_together_is_not_pressed_into_them(speed):
    """D5 / item 2 (nothing is pushed into anything): he ended 26 px inside a crate; before the chain of who
    holds whom passed through characters, the walls still pressed the crates 8.8, 11.1 and 23.0 px into him at
    60, 300 and 800 px/s. The crates, held by the hero whom the other crate and wall hold, stay, the walls
    passing through them (as a lift passes through a crate stack the floor holds)."""
    assert _squeezed_between_crates(speed)[3] <= 1.0


def _run_with(controller: PlatformerController, world: World, steps: int) -> None:
    for _ in range(steps):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
