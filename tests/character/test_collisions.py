"""Scenarios: tunnelling, overlap recovery, one-way platforms, moving platforms."""

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.character import MoverConfig
from engine.geometry import RoundedPolygon
from engine.platformer import PlatformerConfig, PlatformerInput
from engine.types import WorldError
from engine.world import KinematicBody, PlatformPath, World
from tests.character.levels import DT, HERO, RADIUS, hero, run, settle, standing_y, tiled_floor

SKIN = MoverConfig().skin


def min_separation(world, character):
    contacts = world.contacts(character.shape, character.transform, 0.0, ignore=(character,))  # (not itself)
    return min((c.separation for c in contacts), default=math.inf)


def test_falling_at_5000_px_per_s_onto_a_2px_platform_lands_on_it():
    world = World(gravity=(0.0, 0.0))
    world.add_segments([(-100, 0)], [(100, 0)], radius=1.0)  # 2 px thick
    character = world.add_character(HERO, (0.0, 3000.0))
    for _ in range(60):
        character.velocity = (0.0, -5000.0)
        world.step(DT)
    assert character.on_floor
    assert abs(character.position[1] - (1.0 + 16 + SKIN)) < 1e-6


@pytest.mark.parametrize("speed", [1000.0, 3000.0, 20000.0])
def test_running_into_a_thin_wall_at_any_speed_stops_in_front_of_it(speed):
    world = World(gravity=(0.0, 0.0))
    world.add_segments([(0, -200)], [(0, 200)], radius=0.5)  # a 1 px wall
    character = world.add_character(HERO, (-500.0, 0.0))
    for _ in range(30):
        character.velocity = (speed, 0.0)
        world.step(DT)
    assert character.on_wall
    assert abs(character.position[0] - (-0.5 - 10 - SKIN)) < 1e-6


def test_spawned_overlapping_a_floor_recovers_upwards_in_one_step():
    world = World()
    tiled_floor(world, range(-5, 5))
    character, controller = hero(world, (0.0, 10.0))  # feet 8 px into the floor
    settle(world, controller, 1)
    assert min_separation(world, character) >= -1e-6
    assert abs(character.position[0]) < 1e-9  # pushed straight out, not sideways
    settle(world, controller, 30)
    assert character.on_floor and abs(character.position[1] - standing_y(0.0)) < 1e-6


# ------------------------------------------------------------------------------------------------ one-way
@pytest.mark.parametrize("degrees", range(0, 360, 15))
@pytest.mark.parametrize("kind", ["static", "kinematic"])
@pytest.mark.parametrize("frame", ["platform-up", "world-up"])
def test_one_way_platform_at_any_rotation_blocks_one_side_and_passes_the_other(degrees, kind, frame):
    """A one-way platform turned by `degrees`; its pass direction turns with it. Coming at it from its
    solid side stops the character a skin away (and, with the world's up, it may then slide along the
    surface but never crosses it); coming from the other side passes through."""
    angle = math.radians(degrees)
    ow = (-math.sin(angle), math.cos(angle))  # "up" turned by the angle
    tangent = (math.cos(angle), math.sin(angle))
    half = 80.0
    a = (-tangent[0] * half, -tangent[1] * half)
    b = (tangent[0] * half, tangent[1] * half)
    mover = MoverConfig(up=ow) if frame == "platform-up" else MoverConfig()
    rest = RADIUS + 12 + SKIN
    for start_side, expect_blocked in ((1.0, True), (-1.0, False)):
        world = World(gravity=(0.0, 0.0))
        if kind == "static":
            world.add_segments([a], [b], RADIUS, one_way=ow)
        else:
            world.add_kinematic(KinematicBody(RoundedPolygon.capsule(a, b, RADIUS), (0.0, 0.0), one_way=ow))
        character = world.add_character(RoundedPolygon.circle(12), (ow[0] * 60 * start_side, ow[1] * 60 * start_side), mover)
        closest = math.inf
        for _ in range(60):
            character.velocity = (-ow[0] * 150 * start_side, -ow[1] * 150 * start_side)
            world.step(DT)
            height = character.position[0] * ow[0] + character.position[1] * ow[1]
            along = character.position[0] * tangent[0] + character.position[1] * tangent[1]
            if expect_blocked:
                if abs(along) < half:  # over the platform: never through it
                    assert height >= rest - 1e-6, (degrees, height)
                closest = min(closest, abs(height - rest))
        if expect_blocked:
            assert closest < 1e-6, (degrees, closest)  # it came to rest against the surface
            if frame == "platform-up":
                assert abs(height - rest) < 1e-6 and abs(along) < 1e-6  # stays put where it landed
        else:
            assert height > 60, (degrees, height)  # came from the pass side and went through


def test_standing_on_a_rising_one_way_platform_never_falls_through():
    """Godot issue 9399: a one-way platform moving up let the character fall through it."""
    world = World()
    lift = world.add_kinematic(
        KinematicBody(RoundedPolygon.capsule((-60, 0), (60, 0), RADIUS), (0.0, 0.0), velocity=(0.0, 180.0), one_way=(0, 1))
    )
    character, controller = hero(world, (0.0, standing_y(0.0)))
    for _ in range(180):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
        assert character.position[1] - lift.position[1] > 0, "fell through the lift"
        assert character.on_floor and character.platform is lift
    assert abs(character.position[1] - lift.position[1] - standing_y(0.0)) < 1e-6


def test_jumping_up_through_a_rising_one_way_platform_lands_on_top():
    world = World()
    tiled_floor(world, range(-5, 5))
    lift = world.add_kinematic(
        KinematicBody(RoundedPolygon.capsule((-80, 40), (80, 40), RADIUS), (0.0, 0.0), velocity=(0.0, 60.0), one_way=(0, 1))
    )
    character, controller = hero(world, (0.0, standing_y(0.0)))
    settle(world, controller, 5)
    run(world, controller, PlatformerInput(jump=True), 30)
    run(world, controller, PlatformerInput(), 60)
    assert character.on_floor and character.platform is lift
    assert character.position[1] > lift.position[1] + 40


def test_down_and_jump_drops_through_a_one_way_floor():
    world = World()
    tiled_floor(world, range(-5, 5))
    world.add_segments([(-100, 120)], [(100, 120)], RADIUS, one_way=(0, 1))
    character, controller = hero(world, (0.0, standing_y(120.0) + 1))
    settle(world, controller)
    assert character.on_floor and character.floor_collider.one_way is not None
    run(world, controller, PlatformerInput(down=True, jump=True), 2)
    run(world, controller, PlatformerInput(), 60)
    assert character.on_floor and abs(character.position[1] - standing_y(0.0)) < 1e-6


# ------------------------------------------------------------------------------------------------ platforms
@pytest.mark.parametrize("direction", [(1, 0), (0, 1), (1, 1)], ids=["horizontal", "vertical", "diagonal"])
def test_riding_a_moving_platform_for_10_s_without_drift(direction):
    world = World()
    length = 160.0
    dx, dy = direction
    norm = math.hypot(dx, dy)
    path = PlatformPath([(0.0, 100.0), (length * dx / norm, 100.0 + length * dy / norm)], speed=90.0, mode="pingpong")
    platform = world.add_kinematic(KinematicBody(RoundedPolygon.box(48, 8, radius=2), (0.0, 100.0), path=path))
    character, controller = hero(world, (10.0, 100.0 + 8 + 16 + 5))
    settle(world, controller, 20)
    offset = (character.position[0] - platform.position[0], character.position[1] - platform.position[1])
    drift = 0.0
    for _ in range(600):
        controller.update(PlatformerInput(), DT)
        world.step(DT)
        now = (character.position[0] - platform.position[0], character.position[1] - platform.position[1])
        drift = max(drift, math.dist(now, offset))
        assert character.on_floor and character.platform is platform
    assert drift < 0.5


def test_jumping_off_a_moving_platform_keeps_its_velocity():
    world = World()
    platform = world.add_kinematic(KinematicBody(RoundedPolygon.box(200, 8), (0.0, 0.0), velocity=(150.0, 0.0)))
    character, controller = hero(world, (0.0, 8 + 16 + 1), feel=PlatformerConfig(air_deceleration=0.0))
    settle(world, controller, 10)
    controller.update(PlatformerInput(jump=True), DT)
    world.step(DT)
    assert not character.on_floor
    assert abs(character.velocity[0] - 150.0) < 1e-6
    x0 = character.position[0]
    run(world, controller, PlatformerInput(jump=True), 10)
    assert abs((character.position[0] - x0) - 150.0 * 10 * DT) < 1e-6  # no air drag: keeps the speed
    assert platform.velocity == (150.0, 0.0)


# ------------------------------------------------------------------------------------------------ random runs
segment = st.tuples(st.floats(-300, 300), st.floats(-300, 300), st.floats(-300, 300), st.floats(-300, 300))
velocity = st.tuples(st.floats(-4000, 4000), st.floats(-4000, 4000))


@pytest.mark.slow
@settings(max_examples=1500)
@given(st.lists(segment, min_size=0, max_size=12), st.lists(velocity, min_size=1, max_size=40),
       st.sampled_from([HERO, RoundedPolygon.circle(10), RoundedPolygon.capsule((0, -10), (0, 10), 8)]))
def test_random_runs_never_tunnel_out_of_a_closed_room_or_end_a_step_in_overlap(segments, velocities, shape):
    """A closed room (walls 2 px thick) with random thin obstacles inside; the character is thrown around
    at up to 4000 px/s. It must stay inside the room and never end a step overlapping anything by more than
    the skin."""
    world = World(gravity=(0.0, 0.0))
    world.add_chain([(-400, -400), (400, -400), (400, 400), (-400, 400)], radius=1.0, closed=True)
    for x0, y0, x1, y1 in segments:
        if math.hypot(x1 - x0, y1 - y0) > 1:
            world.add_segments([(x0, y0)], [(x1, y1)], radius=1.0)
    character = world.add_character(shape, (0.0, 0.0))
    world.step(DT)  # recover if spawned inside an obstacle
    for v in velocities:
        character.velocity = v
        world.step(DT)
        x, y = character.position
        assert -400 < x < 400 and -400 < y < 400
        assert min_separation(world, character) >= -SKIN


def test_a_moves_path_goes_from_its_start_through_its_stops_to_its_end():
    """``MoveResult.path``: a hero flung along the floor into a wall stops at it (a point on the path at the
    wall) and slides up nothing; a curb is climbed with corners above the start (the climb's path)."""
    world = World()
    world.add_chain([(-400, 400), (-400, 0), (100, 0), (100, 4), (300, 4), (300, 400)], radius=RADIUS)
    ch, controller = hero(world, (0.0, standing_y(0.0)))
    settle(world, controller)
    start = ch.position
    ch.velocity = (-30000.0, 0.0)  # one step reaches the left wall
    world.step(DT)
    path = ch.last_move.path
    assert path[0] == pytest.approx(start) and path[-1] == pytest.approx(ch.position)
    assert len(path) >= 2 and ch.position[0] == pytest.approx(-400.0 + RADIUS + 10.0, abs=0.6)  # at the wall
    paths = []
    for _ in range(180):  # walk right, up the 4 px curb at x = 100
        controller.update(PlatformerInput(right=True), DT)
        world.step(DT)
        paths.append(ch.last_move.path)
    assert ch.position[0] > 110.0
    # The step up: a move whose path rises above its start (the climb's corner), then lands higher.
    assert any(max(y for _, y in p) > p[0][1] + 6.0 and p[-1][1] > p[0][1] + 2.0 for p in paths)


def test_a_character_given_a_new_shape_stands_and_collides_with_that_shape():
    """Game code reshaping a character between steps (a crouch: half as tall; then standing up again, and a
    wider shape): it settles on the floor with its new shape's bottom on it, touching it, and walks into a
    wall with its new shape's side; a shape that is not a RoundedPolygon is refused by name."""
    world = World(gravity=(0.0, -1800.0))
    world.add_segments([(-300.0, 0.0), (120.0, 0.0)], [(300.0, 0.0), (120.0, 200.0)], radius=1.0)
    ch = world.add_character(RoundedPolygon.box(10, 16, radius=2), (0.0, 40.0))

    def settle_with(shape, steps=40):
        ch.shape = shape
        for _ in range(steps):
            ch.velocity = (0.0, ch.velocity[1] - 30.0)
            world.step(DT)
        return ch.aabb().min_y

    for shape in (RoundedPolygon.box(10, 8, radius=2), RoundedPolygon.box(10, 16, radius=2),
                  RoundedPolygon.box(20, 12, radius=2)):
        bottom = settle_with(shape)
        assert ch.on_floor and 1.0 <= bottom <= 1.0 + 2 * ch.config.skin, (shape, bottom)
    for _ in range(90):
        ch.velocity = (300.0, ch.velocity[1] - 30.0)
        world.step(DT)
    assert 119.0 - 2 * ch.config.skin <= ch.aabb().max_x <= 119.0, ch.aabb()
    with pytest.raises(WorldError, match="RoundedPolygon"):
        ch.shape = (10, 16)


def test_a_character_given_a_new_skin_keeps_that_gap_to_the_floor():
    """Game code giving a character a config with another ``skin`` between steps: it settles that far above
    the floor (its moves cast the shape grown by the new skin), and a probe (``Character.cast``) stops that far
    from the floor too."""
    world = World(gravity=(0.0, -1800.0))
    world.add_segments([(-300.0, 0.0)], [(300.0, 0.0)], radius=1.0)
    ch = world.add_character(RoundedPolygon.box(10, 16, radius=2), (0.0, 40.0))
    for skin in (3.0, 0.25):
        ch.config = dataclasses.replace(ch.config, skin=skin)
        hit = ch.cast((0.0, -100.0))
        assert hit is not None and abs(ch.position[1] - 100.0 * hit.fraction - (1.0 + 16.0 + skin)) < 1e-6
        for _ in range(40):
            ch.velocity = (0.0, ch.velocity[1] - 30.0)
            world.step(DT)
        assert ch.on_floor and abs(ch.aabb().min_y - (1.0 + skin)) < 1e-6, (skin, ch.aabb())
