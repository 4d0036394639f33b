"""Rigid-body scenarios: what a player sees crates do."""

import hashlib
import math
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from engine.bodies import PhysicsConfig, RigidBody, Sensor
from engine.geometry import RoundedPolygon
from engine.platformer import PlatformerController, PlatformerInput
from engine.world import KinematicBody, World
from tests.character.levels import DT, HERO, add_tile, standing_y, tiled_floor

CRATE = RoundedPolygon.box(16, 16, radius=1)  # a 32 x 32 crate with 1 px rounded corners
REST_Y = 2.0 + 16.0  # a crate's centre resting on a floor whose segment centre line is at y = 0


def crate(x, y, **kw):
    return RigidBody(CRATE, (x, y), **kw)


def pyramid(base):
    """A world with a long floor and a pyramid of crates, ``base`` wide at the bottom, 1 px gaps."""
    world = World()
    world.add_chain([(-800, 0), (800, 0)], radius=2.0)
    crates = [world.add_body(crate((k - (base - 1 - row) / 2) * 33.0, REST_Y + 32.0 * row))
              for row in range(base) for k in range(base - row)]
    return world, crates


def state_hash(world):
    digest = hashlib.sha256()
    for b in world.bodies:
        digest.update(struct.pack("<6d", *b.position, b.angle, *b.velocity, b.angular_velocity))
    for ch in world.characters:
        digest.update(struct.pack("<4d", *ch.position, *ch.velocity))
    return digest.hexdigest()


# ------------------------------------------------------------------------------------------------ seams
def slide(speed, tiled):
    world = World()
    if tiled:
        tiled_floor(world, range(-2, 100))  # 100+ separate tiles, each its own rounded outline
    else:
        world.add_chain([(-64, 0), (100 * 32, 0)], radius=2.0)  # one seamless floor, same height
    box = world.add_body(crate(0.0, REST_Y, velocity=(speed, 0.0)))
    top, tilt = -math.inf, 0.0
    for _ in range(int(4.0 / DT)):
        world.step(DT)
        top = max(top, box.position[1])
        tilt = max(tilt, abs(box.angle))
    return box.position[0], top - REST_Y, tilt


@pytest.mark.parametrize("speed", [150.0, 300.0, 600.0, 1200.0])
def test_a_crate_slides_across_100_tiles_as_far_as_on_a_seamless_floor(speed):
    distance_tiled, hop, tilt = slide(speed, tiled=True)
    distance_flat, _, _ = slide(speed, tiled=False)
    assert distance_flat > 10.0
    assert abs(distance_tiled - distance_flat) <= 0.01 * distance_flat
    assert hop <= 0.5
    assert tilt < 0.01  # never tips: under 0.6 degrees (soft contacts lean a little under friction)


# ------------------------------------------------------------------------------------------------ stacks
def test_a_ten_crate_stack_stands_for_10_s_then_sleeps():
    world = World()
    world.add_chain([(-500, 0), (500, 0)], radius=2.0)
    crates = [world.add_body(crate(0.0, REST_Y + 32.0 * i)) for i in range(10)]
    top_start = crates[-1].position
    drift = 0.0
    for _ in range(int(10.0 / DT)):
        world.step(DT)
        drift = max(drift, abs(crates[-1].position[0] - top_start[0]))
    assert drift < 0.02 * 32
    assert abs(crates[-1].position[1] - top_start[1]) < 2.0  # no visible sag either
    assert all(c.sleeping for c in crates)


def test_a_55_crate_pyramid_stands_for_20_s():
    world, crates = pyramid(10)
    start = [c.position for c in crates]
    for _ in range(int(20.0 / DT)):
        world.step(DT)
    moved = max(math.dist(a, c.position) for a, c in zip(start, crates))
    assert moved < 2.0
    assert max(abs(c.angle) for c in crates) < 0.01


# ------------------------------------------------------------------------------------------------ friction, bounce
@pytest.mark.parametrize("degrees, slides", [(20.0, False), (24.0, False), (29.0, True), (35.0, True)])
def test_friction_holds_a_crate_on_a_slope_below_atan_mu_and_lets_it_slide_above(degrees, slides):
    """friction 0.5 for crate and slope: atan(0.5) = 26.6 degrees."""
    world = World(static_friction=0.5)
    angle = math.radians(degrees)
    length = 2000.0
    world.add_segments([(0, 0)], [(math.cos(angle) * length, math.sin(angle) * length)], 2.0)
    along, up = 1000.0, 2.0 + 16.0 + 0.05
    x = math.cos(angle) * along - math.sin(angle) * up
    y = math.sin(angle) * along + math.cos(angle) * up
    box = world.add_body(RigidBody(CRATE, (x, y), angle=angle, friction=0.5))
    for _ in range(30):
        world.step(DT)
    start = box.position
    for _ in range(int(3.0 / DT)):
        world.step(DT)
    moved = math.dist(start, box.position)
    if slides:
        assert moved > 50.0
    else:
        assert moved < 1.0


@pytest.mark.parametrize("restitution", [0.3, 0.6, 0.9])
def test_bounce_heights_follow_the_restitution_coefficient(restitution):
    """Each bounce returns e^2 of the height it fell from (the speed scales by e). Discrete steps and the
    speculative margin cost a little, more on small bounces, so bounces from under 30 px are not judged."""
    world = World(physics=PhysicsConfig(enable_sleep=False))
    world.add_chain([(-200, 0), (200, 0)], radius=2.0)
    drop = 300.0
    ball = world.add_body(RigidBody(RoundedPolygon.circle(12), (0.0, 2.0 + 12.0 + drop), restitution=restitution))
    heights, rising, top = [drop], False, 0.0
    for _ in range(int(8.0 / DT)):
        world.step(DT)
        h = ball.position[1] - 14.0
        if ball.velocity[1] > 0:
            rising, top = True, max(top, h)
        elif rising:
            heights.append(top)
            rising, top = False, 0.0
    assert heights[1] == pytest.approx(restitution**2 * drop, rel=0.08)
    judged = [(a, b) for a, b in zip(heights, heights[1:]) if a > 30.0]
    assert len(judged) >= 1
    for before, after in judged:
        assert after == pytest.approx(restitution**2 * before, rel=0.12)


def test_a_crate_dropped_fast_onto_a_2px_platform_lands_on_it():
    world = World()
    world.add_segments([(-100, 0)], [(100, 0)], radius=1.0)  # 2 px thick
    box = world.add_body(crate(0.0, 4000.0, velocity=(0.0, -4000.0)))
    for _ in range(int(3.0 / DT)):
        world.step(DT)
    assert abs(box.position[0]) < 1.0
    assert box.position[1] == pytest.approx(1.0 + 16.0, abs=0.5)


# ------------------------------------------------------------------------------------------------ determinism
def scene():
    world = World()
    tiled_floor(world, range(-10, 10))
    for i in range(12):
        world.add_body(crate(-150.0 + 25.0 * i, 100.0 + 40.0 * (i % 3), angle=0.1 * i, velocity=(20.0 * i, 0.0)))
    character = world.add_character(HERO, (0.0, standing_y(0.0) + 200))
    return world, PlatformerController(character)


def run_scene() -> str:
    world, controller = scene()
    for frame in range(240):
        controller.update(PlatformerInput(right=frame % 50 < 30, jump=frame % 70 < 10), DT)
        world.step(DT)
    return state_hash(world)


def test_the_same_scene_and_inputs_give_a_bit_identical_state():
    assert run_scene() == run_scene()


@pytest.mark.slow
def test_two_processes_give_the_bit_identical_state_of_this_one():
    """The compiled kernels (loaded from numba's cache or compiled anew) give the same bits in every process:
    replays and recorded runs stay valid from one start of the game to the next."""
    code = "from tests.bodies.test_crates import run_scene; print(run_scene())"
    root = Path(__file__).resolve().parents[2]
    children = [subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                               timeout=600).stdout.strip() for _ in range(2)]
    assert children == [run_scene()] * 2


def test_a_crate_landing_with_sideways_speed_loses_it_to_friction_on_impact():
    """Coulomb friction acts in the landing step too: the impact's normal impulse (stopping a 400 px/s fall)
    allows a friction impulse of mu times that, up to 0.6 * 400 = 240 px/s off a 300 px/s slide."""
    world = World()
    world.add_chain([(-2000, 0), (2000, 0)], radius=2.0)
    fall = 400.0
    height = fall * fall / (2 * 1800.0)  # dropped from rest this high above the floor, it lands at ~400 px/s
    box = world.add_body(crate(0.0, REST_Y + height, velocity=(300.0, 0.0), friction=0.6))
    world.step(DT)  # falling
    while box.velocity[1] < 0.0:
        before = box.velocity[0]
        world.step(DT)
    assert before == pytest.approx(300.0)
    assert 300.0 - box.velocity[0] > 0.75 * 0.6 * fall  # measured: 212 px/s in the landing step


def test_a_shove_travels_down_a_row_of_crates_standing_a_pixel_apart_without_them_overlapping():
    """The gaps are speculative contacts, solved for their normals only while they stay open; when the first
    crate is shoved into the second, the second must still stop the third from being entered."""
    world = World()
    world.add_chain([(-400, 0), (800, 0)], radius=2.0)
    row = [world.add_body(crate(33.0 * k, REST_Y)) for k in range(5)]
    for _ in range(30):
        world.step(DT)
    row[0].velocity = (600.0, 0.0)
    deepest = 0.0
    for _ in range(60):
        world.step(DT)
        deepest = max(deepest, max(32.0 - (b.position[0] - a.position[0]) for a, b in zip(row, row[1:])))
    assert deepest < 0.25  # never more than the slop (measured: 0.006 px)
    assert row[-1].position[0] > 33.0 * 4 + 2.0  # the last one was pushed along (measured: 5.2 px)


# ------------------------------------------------------------------------------------------------ with the player
def push_run(density):
    world = World()
    tiled_floor(world, range(-10, 60))
    box = world.add_body(crate(200.0, REST_Y, density=density))
    character = world.add_character(HERO, (100.0, standing_y(0.0)))
    controller = PlatformerController(character)
    for _ in range(int(2.0 / DT)):
        controller.update(PlatformerInput(right=True), DT)
        world.step(DT)
    return box.position[0] - 200.0, character


def test_the_player_pushes_a_light_crate_further_than_a_heavy_one():
    light, _ = push_run(density=0.3)
    heavy, _ = push_run(density=3.0)
    assert light > 150.0
    assert 0.0 <= heavy < 0.5 * light


def test_the_player_stands_on_a_crate():
    world = World()
    tiled_floor(world, range(-10, 10))
    box = world.add_body(crate(0.0, REST_Y))
    character = world.add_character(HERO, (0.0, REST_Y + 16 + 16 + 30))
    controller = PlatformerController(character)
    for _ in range(90):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    assert character.on_floor and character.floor_collider.body is box
    assert character.position[1] == pytest.approx(box.position[1] + 16 + 16 + 0.5, abs=0.3)


def test_a_crate_resting_on_the_players_head_does_not_push_the_player_into_the_floor():
    world = World()
    tiled_floor(world, range(-10, 10))
    character = world.add_character(HERO, (0.0, standing_y(0.0)))
    controller = PlatformerController(character)
    for _ in range(10):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    y0 = character.position[1]
    box = world.add_body(crate(0.0, y0 + 16 + 16 + 40, density=5.0))  # heavy
    for _ in range(120):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    assert character.position[1] == pytest.approx(y0, abs=1e-6)
    assert box.position[1] > y0 + 16 + 16 - 1.0  # it rests on the head


def test_crates_ride_a_moving_platform():
    world = World()
    platform = world.add_kinematic(KinematicBody(RoundedPolygon.box(150, 8), (0.0, 100.0), velocity=(60.0, 0.0)))
    box = world.add_body(crate(0.0, 100.0 + 8 + 16 + 0.5))
    for _ in range(int(3.0 / DT)):
        world.step(DT)
    assert box.position[0] - platform.position[0] == pytest.approx(0.0, abs=2.0)
    assert box.position[1] == pytest.approx(100.0 + 8 + 16, abs=0.5)


# ------------------------------------------------------------------------------------------------ sleep and wake
def settle(world, crates, seconds=3.0):
    for _ in range(int(seconds / DT)):
        world.step(DT)
    assert all(c.sleeping for c in crates)


def test_the_player_walking_into_a_sleeping_crate_wakes_it_and_pushes_it():
    world = World()
    tiled_floor(world, range(-10, 60))
    box = world.add_body(crate(200.0, REST_Y))
    character = world.add_character(HERO, (60.0, standing_y(0.0)))
    controller = PlatformerController(character)
    for _ in range(int(2.0 / DT)):  # the player stands still while the crate falls asleep
        controller.update(PlatformerInput(), DT)
        world.step(DT)
    assert box.sleeping
    for _ in range(int(2.0 / DT)):
        controller.update(PlatformerInput(right=True), DT)
        world.step(DT)
    assert box.position[0] > 300.0


def test_a_sleeping_crate_moved_by_game_code_stays_put_there_and_is_checked():
    from engine.types import WorldError

    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    box = world.add_body(crate(0.0, REST_Y, name="sleeper"))
    settle(world, [box])
    box.position = (100.0, REST_Y)  # game code puts it elsewhere on the floor: it wakes there and rests
    world.step(DT)
    assert box.position == pytest.approx((100.0, REST_Y), abs=0.01)
    assert box.previous_transform.position == (100.0, REST_Y)
    with pytest.raises(WorldError, match="rigid body 'sleeper' has a bad placement"):
        box.position = (float("nan"), REST_Y)
    assert box.position == pytest.approx((100.0, REST_Y), abs=0.01)  # the bad value never got in


def test_a_platform_that_starts_moving_carries_the_crate_that_slept_on_it():
    world = World()
    platform = world.add_kinematic(KinematicBody(RoundedPolygon.box(150, 8), (0.0, 100.0)))
    box = world.add_body(crate(0.0, 100.0 + 8 + 16 + 0.5))
    settle(world, [box])
    platform.velocity = (60.0, 0.0)
    for _ in range(int(2.0 / DT)):
        world.step(DT)
    assert box.position[0] - platform.position[0] == pytest.approx(0.0, abs=2.0)


def test_a_crate_dropped_on_a_sleeping_stack_wakes_it_and_comes_to_rest_on_top():
    world = World()
    world.add_chain([(-400, 0), (400, 0)], radius=2.0)
    stack = [world.add_body(crate(0.0, REST_Y + 32.0 * k)) for k in range(3)]
    settle(world, stack)
    dropped = world.add_body(crate(0.0, 300.0))
    woke = False
    for _ in range(int(3.0 / DT)):
        world.step(DT)
        woke |= not stack[2].sleeping
    assert woke
    assert dropped.position[1] == pytest.approx(REST_Y + 32.0 * 3, abs=1.5)
    assert abs(dropped.position[0]) < 1.0


# ------------------------------------------------------------------------------------------------ events, sensors
def test_contact_events_begin_and_end():
    world = World()
    world.add_chain([(-300, 0), (300, 0)], radius=2.0)
    box = world.add_body(crate(0.0, 100.0))
    begun = []
    for _ in range(60):
        world.step(DT)
        begun += [e for e in world.events if e.kind == "begin" and e.b is box]
    assert len(begun) == 1 and begun[0].normal == pytest.approx((0.0, 1.0))
    box.apply_impulse((0.0, 1024 * 600.0))
    ended = []
    for _ in range(10):
        world.step(DT)
        ended += [e for e in world.events if e.kind == "end" and e.b is box]
    assert len(ended) == 1


def test_a_sensor_reports_the_player_and_crates_without_pushing_them():
    world = World()
    tiled_floor(world, range(-10, 30))
    goal = world.add_sensor(Sensor(RoundedPolygon.box(20, 40), (300.0, 40.0), tag="goal"))
    character = world.add_character(HERO, (100.0, standing_y(0.0)))
    controller = PlatformerController(character)
    seen = []
    for _ in range(120):
        controller.update(PlatformerInput(right=True), DT)
        world.step(DT)
        seen += [(e.kind, e.b) for e in world.events if e.a is goal]
    assert ("begin", character) in seen and ("end", character) in seen
    assert character.position[0] > 400  # walked straight through it


def test_bad_body_values_are_rejected():
    from engine.types import WorldError

    with pytest.raises(WorldError, match="density must be > 0"):
        RigidBody(CRATE, (0, 0), density=0)
    with pytest.raises(WorldError, match="restitution must be within"):
        RigidBody(CRATE, (0, 0), restitution=1.5)
    with pytest.raises(WorldError, match="friction must be a finite number >= 0"):
        RigidBody(CRATE, (0, 0), friction=float("nan"))
    with pytest.raises(WorldError, match="substeps"):
        PhysicsConfig(substeps=0)
    _ = add_tile


def test_a_crate_given_a_bad_value_by_game_code_is_named_at_once():
    """The body's numbers live in the world's state array, so a bad value is refused where game code sets it
    (naming the body and the value) and never reaches the step."""
    from engine.types import WorldError

    world = World()
    world.add_chain([(-100, 0), (100, 0)], radius=2.0)
    good = world.add_body(RigidBody(CRATE, (0, 20)))
    bad = world.add_body(RigidBody(CRATE, (50, 20), name="lost crate"))
    world.step(DT)
    bad_placement = r"rigid body 'lost crate' has a bad placement \(not a finite x, y and angle\): position "
    with pytest.raises(WorldError, match=bad_placement + r"\(nan, 20.0\)"):
        bad.position = (float("nan"), 20.0)
    with pytest.raises(WorldError, match=bad_placement + r"\(50.0, 20.0, 0.0\)"):
        bad.position = (50.0, 20.0, 0.0)
    with pytest.raises(WorldError, match=r"rigid body 'lost crate' has a bad velocity: \(inf, 0.0\)"):
        bad.velocity = (float("inf"), 0.0)
    with pytest.raises(WorldError, match="rigid body 'lost crate' has a bad friction: 'slippery'"):
        bad.friction = "slippery"
    world.step(DT)
    assert math.isfinite(good.position[0]) and bad.position[0] == pytest.approx(50.0, abs=1.0)
    assert bad.friction == RigidBody(CRATE, (0, 0)).friction  # unchanged by the refused value


def test_a_210_crate_pyramid_settles_and_sleeps_instead_of_trembling():
    """Regression: with friction anchors as stiff as the contacts, a 20-wide pyramid trembled forever
    (crates at 10-28 px/s after 20 s). The anchors are softer now; it must settle, sleep and stand."""
    world, crates = pyramid(20)
    start = [c.position for c in crates]
    for _ in range(int(12.0 / DT)):
        world.step(DT)
        if all(c.sleeping for c in crates):
            break
    assert all(c.sleeping for c in crates)
    assert max(math.dist(a, c.position) for a, c in zip(start, crates)) < 5.0


def test_a_sensor_game_code_moves_reports_what_it_now_covers():
    """A sensor moved or reshaped by game code (a coin carried, a hazard switched to another place) between
    steps senses at its new place: a resting crate it is moved onto begins; moved away, it ends; grown over
    it, it begins again."""
    world = World()
    tiled_floor(world, range(-10, 30))
    crate = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (200.0, 20.0)))
    marker = world.add_sensor(Sensor(RoundedPolygon.box(10, 10), [0.0, 20.0]))
    seen = []
    for step in range(180):
        if step == 60:
            marker.position[0] = 200.0  # moved in place, as a list (a game may keep one)
        if step == 120:
            marker.position = (-100.0, 20.0)
        if step == 150:
            marker.shape = RoundedPolygon.box(400, 10)  # grown where it is: reaches the crate again
        world.step(DT)
        seen += [(step, e.kind) for e in world.events if e.a is marker and e.b is crate]
    assert seen == [(60, "begin"), (120, "end"), (150, "begin")]


def test_a_sensor_senses_a_resting_crate_that_game_code_reshapes_or_moves():
    """What a sensor overlaps is tested again when the body next to it changes, also while both stay put (the
    sensors keep their last tests while nothing moved): a crate grown into a coin begins, a crate moved away
    ends, moved back begins."""
    world = World()
    tiled_floor(world, range(-10, 30))
    # (Floating: it stays exactly where it is, so only its shape tells the sensor that something changed.)
    crate = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (200.0, 100.0), gravity_scale=0.0))
    coin = world.add_sensor(Sensor(RoundedPolygon.box(6, 6, radius=4), (222.0, 122.0)))  # (corners' boxes touch)
    seen = []
    for step in range(200):
        if step == 60:
            crate.shape = RoundedPolygon.box(24, 20, radius=1)  # larger, where it is: into the coin
        if step == 120:
            crate.position = (100.0, crate.position[1])
        if step == 150:
            crate.position = (200.0, crate.position[1])
        world.step(DT)
        seen += [(step, e.kind) for e in world.events if e.a is coin and e.b is crate]
    assert seen == [(60, "begin"), (120, "end"), (150, "begin")]


def test_sensors_disabled_enabled_added_and_removed_by_game_code_report_at_once():
    """Game code switches sensors between steps: disabling one ends its overlaps, enabling it begins them
    again, a sensor added over a resting crate begins at the next step, and removing one ends nothing else."""
    world = World()
    tiled_floor(world, range(-10, 30))
    crate = world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (200.0, 20.0)))
    gate = world.add_sensor(Sensor(RoundedPolygon.box(30, 30), (200.0, 20.0), tag="gate"))
    seen = []
    for step in range(100):
        if step == 20:
            gate.enabled = False
        if step == 40:
            gate.enabled = True
        if step == 60:
            late = world.add_sensor(Sensor(RoundedPolygon.box(30, 30), (210.0, 20.0), tag="late"))
        if step == 80:
            world.remove(late)
        world.step(DT)
        seen += [(step, e.kind, e.a.tag) for e in world.events if e.b is crate and isinstance(e.a, Sensor)]
    assert seen == [(0, "begin", "gate"), (20, "end", "gate"), (40, "begin", "gate"), (60, "begin", "late")]
