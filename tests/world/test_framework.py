"""The world as a framework: built objects in, any of them out, filters, user data, characters meeting.

Each test plays a small scene through the public API (``from engine import ...``) and checks what a game
developer would see.
"""

from __future__ import annotations

import pytest

from engine import (
    Character, CollisionFilter, KinematicBody, MoverConfig, PlatformerController, PlatformerInput, RigidBody,
    RoundedPolygon, Sensor, Transform, World, WorldError,
)
from tests.character.levels import DT, HERO, standing_y

CRATE = RoundedPolygon.box(16, 16, radius=1)


def flat_world() -> World:
    world = World()
    world.add_chain([(-2000, 0), (2000, 0)], radius=2.0)
    return world


def gap_between(a: Character, b: Character) -> float:
    """Horizontal gap between two 20 px wide heroes (negative: overlapping)."""
    return abs(a.position[0] - b.position[0]) - 20.0


# ------------------------------------------------------------------------------------------------ characters
def test_a_running_hero_does_not_pass_through_another_character_and_pushes_it():
    world = flat_world()
    hero = world.add_character(Character(HERO, (0.0, standing_y(0.0))))
    npc = world.add_character(Character(HERO, (100.0, standing_y(100.0))))
    controller = PlatformerController(hero)
    npc_controller = PlatformerController(npc)
    closest = float("inf")
    for _ in range(120):
        controller.update(PlatformerInput(right=True), DT)
        npc_controller.update(PlatformerInput(), DT)
        world.step(DT)
        closest = min(closest, gap_between(hero, npc))
    assert closest > -0.01  # never overlapping
    assert hero.position[0] < npc.position[0]  # never through
    assert npc.position[0] > 110.0  # shoved along the floor


def test_a_heavier_character_is_pushed_less():
    moved = {}
    for mass in (640.0, 6400.0):
        world = flat_world()
        hero = world.add_character(HERO, (0.0, standing_y(0.0)))
        other = world.add_character(Character(HERO, (40.0, standing_y(40.0)), MoverConfig(mass=mass)))
        controller, idle = PlatformerController(hero), PlatformerController(other)
        for _ in range(60):
            controller.update(PlatformerInput(right=True), DT)
            idle.update(PlatformerInput(), DT)
            world.step(DT)
        moved[mass] = other.position[0] - 40.0
    assert moved[640.0] > 2.0 * moved[6400.0] > 0.0


def test_landing_on_another_character_is_a_land_event_with_an_upward_normal():
    world = flat_world()
    enemy = world.add_character(Character(HERO, (0.0, standing_y(0.0)), user_data="walker"))
    hero = world.add_character(Character(HERO, (0.0, standing_y(0.0) + 80.0)))
    controller, idle = PlatformerController(hero), PlatformerController(enemy)
    stomps = []
    for _ in range(60):
        controller.update(PlatformerInput(), DT)
        idle.update(PlatformerInput(), DT)
        world.step(DT)
        stomps += [e for e in world.events if e.kind == "land" and e.a is hero and e.b is enemy]
    assert len(stomps) == 1
    assert stomps[0].normal[1] > 0.99 and stomps[0].b.user_data == "walker"
    assert hero.on_floor and hero.platform is enemy  # standing on its head
    assert hero.position[1] == pytest.approx(enemy.position[1] + 32.0, abs=1.0)


def test_characters_whose_filters_say_no_pass_through_each_other():
    ghosts = CollisionFilter(category=0b10, mask=0b01)  # touches the level (category 1), not other ghosts
    world = flat_world()
    a = world.add_character(Character(HERO, (0.0, standing_y(0.0)), filter=ghosts))
    b = world.add_character(Character(HERO, (60.0, standing_y(60.0)), filter=ghosts))
    ca, cb = PlatformerController(a), PlatformerController(b)
    for _ in range(60):
        ca.update(PlatformerInput(right=True), DT)
        cb.update(PlatformerInput(left=True), DT)
        world.step(DT)
    assert a.position[0] > b.position[0] + 40.0  # walked through each other
    assert a.on_floor and b.on_floor  # but still stand on the level


def test_a_crate_in_a_group_that_never_collides_with_the_hero_falls_through_him():
    nothing = CollisionFilter(group=-1)
    world = flat_world()
    hero = world.add_character(Character(HERO, (0.0, standing_y(0.0)), filter=nothing))
    box = world.add_body(RigidBody(CRATE, (0.0, 200.0), filter=nothing))
    for _ in range(120):
        world.step(DT)
    assert box.position[1] == pytest.approx(18.0, abs=0.5)  # on the floor, where the hero stands
    assert hero.position[1] == pytest.approx(standing_y(0.0), abs=0.5)


def test_filter_semantics_match_box2d():
    a, b = CollisionFilter(0b01, 0b10), CollisionFilter(0b10, 0b01)
    assert a.touches(b) and b.touches(a)
    assert not CollisionFilter(0b01, 0b01).touches(b)
    assert CollisionFilter(0b01, 0, group=3).touches(CollisionFilter(0b01, 0, group=3))
    assert not CollisionFilter(group=-3).touches(CollisionFilter(group=-3))
    with pytest.raises(WorldError, match="category"):
        CollisionFilter(category=-1)
    with pytest.raises(WorldError, match="filter"):
        RigidBody(CRATE, (0, 0), filter=0b1)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ user data, events
def test_sensor_events_carry_the_objects_and_their_user_data():
    world = flat_world()
    coin = world.add_sensor(Sensor(RoundedPolygon.circle(12), (60.0, 20.0), user_data={"value": 5}))
    hero = world.add_character(HERO, (0.0, standing_y(0.0)))
    controller = PlatformerController(hero)
    begins = []
    for _ in range(60):
        controller.update(PlatformerInput(right=True), DT)
        world.step(DT)
        begins += [e for e in world.events if e.kind == "begin" and e.a is coin]
    assert len(begins) == 1 and begins[0].b is hero and begins[0].a.user_data == {"value": 5}


def test_static_segments_carry_user_data_and_filters():
    world = World()
    world.add_chain([(-100, 0), (100, 0)], radius=2.0, user_data="lava", filter=CollisionFilter(category=0b100))
    hit = world.cast(HERO, Transform((0.0, 100.0)), (0.0, -200.0))[0]
    assert hit.collider.user_data == "lava" and hit.collider.filter.category == 0b100


# ------------------------------------------------------------------------------------------------ add / remove
def test_remove_takes_out_any_kind_of_thing():
    world = flat_world()
    box = world.add_body(RigidBody(CRATE, (0.0, 18.0)))
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(20, 4), (200.0, 50.0)))
    hero = world.add_character(HERO, (400.0, standing_y(400.0)))
    zone = world.add_sensor(Sensor(RoundedPolygon.circle(10), (600.0, 10.0)))
    for _ in range(5):
        world.step(DT)
    for thing in (box, lift, hero, zone):
        world.remove(thing)
    assert not world.bodies and not world.kinematic_bodies and not world.characters and not world.sensors
    world.step(DT)  # nothing left to step: no error
    with pytest.raises(WorldError, match="not in this world"):
        world.remove(box)


def test_removing_from_inside_event_handling_happens_at_the_end_of_the_step():
    world = flat_world()
    coin = world.add_sensor(Sensor(RoundedPolygon.circle(12), (0.0, 20.0)))
    box = world.add_body(RigidBody(CRATE, (0.0, 60.0)))
    removed_during = []

    class Stepper:
        """A game that removes what a sensor touches as soon as the world reports it."""

        def step(self):
            world.step(DT)
            for event in world.events:
                if event.kind == "begin" and event.a is coin:
                    world.remove(event.b)
                    removed_during.append(event.b)

    game = Stepper()
    for _ in range(60):
        game.step()
    assert removed_during == [box] and box not in world.bodies


def test_add_takes_built_objects_and_names_a_wrong_one():
    world = World()
    with pytest.raises(WorldError, match="add_body takes a RigidBody"):
        world.add_body("crate")  # type: ignore[arg-type]
    with pytest.raises(WorldError, match="add_character takes a Character"):
        world.add_character("hero")  # type: ignore[arg-type]
    hero = Character(HERO, (0.0, 50.0))
    assert world.add_character(hero) is hero
    with pytest.raises(WorldError, match="already in the world"):
        world.add_character(hero)


def test_gravity_is_a_vector_for_crates_and_characters():
    world = World(gravity=(900.0, 0.0))  # sideways
    world.add_chain([(500, -500), (500, 500)], radius=2.0)  # a wall to fall against
    box = world.add_body(RigidBody(CRATE, (0.0, 0.0)))
    for _ in range(120):
        world.step(DT)
    assert box.position[0] == pytest.approx(500.0 - 2.0 - 16.0, abs=1.0)


def test_a_characters_cast_ignores_what_its_filter_says_it_never_touches():
    """Regression: ``Character.cast`` outside a move (the controller's head-bump correction uses it) gathered
    without the character's filter, so a ghost was blocked by another ghost it walks through."""
    ghosts = CollisionFilter(category=0b10, mask=0b01)
    world = flat_world()
    below = world.add_character(Character(HERO, (0.0, standing_y(0.0)), filter=ghosts))
    above = world.add_character(Character(HERO, (0.0, standing_y(0.0) + 40.0), filter=ghosts))
    assert above.cast((0.0, -30.0)) is None  # the ghost below is no obstacle
    assert below.cast((0.0, -5.0)) is not None  # the level still is


def test_a_removed_body_keeps_its_numbers_and_the_others_keep_theirs():
    """Bodies keep their numbers in the world's state array: taking one out must leave every other body's
    numbers in place (rows are re-packed) and the removed one must keep its own (and can come back)."""
    world = flat_world()
    boxes = [world.add_body(RigidBody(CRATE, (60.0 * k, 100.0 + 10.0 * k), velocity=(5.0 * k, 0.0)))
             for k in range(12)]  # (more than the array's first size: it grows once)
    for _ in range(10):
        world.step(DT)
    before = {id(b): (b.position, b.velocity, b.angle) for b in boxes}
    gone = boxes[3]
    world.remove(gone)
    assert {id(b): (b.position, b.velocity, b.angle) for b in boxes} == before
    gone.position = (500.0, 300.0)  # its own row now: the world's bodies do not move
    assert all(b.position == before[id(b)][0] for b in boxes if b is not gone)
    world.add_body(gone)
    world.step(DT)
    assert gone.position[1] < 300.0 and gone.position[0] == pytest.approx(500.0, abs=1.0)  # falls again


def test_a_kinematic_body_given_a_bad_position_says_which_and_what():
    """Game code moving a lift (or a map's factory making one) with a bad position gets a clear error naming
    the body and the value, never a bare TypeError; a list position becomes a tuple of floats."""
    lift = KinematicBody(RoundedPolygon.box(20, 4), [10, 20], name="lift 3")
    assert lift.position == (10.0, 20.0) and isinstance(lift.position, tuple)
    with pytest.raises(WorldError, match=r"lift 3: position must be two numbers \(px\), got \('up', 1\)"):
        lift.position = ("up", 1)
    with pytest.raises(WorldError, match="position must be two numbers"):
        KinematicBody(RoundedPolygon.box(20, 4), None)  # type: ignore[arg-type]


def test_a_kinematic_bodys_transform_is_where_it_is_after_every_move():
    """A lift's transform (kept between moves, as gathers and riders ask for it often) follows every change
    of its position and angle: set by game code, by its velocity and along its path."""
    world = World()
    lift = world.add_kinematic(KinematicBody(RoundedPolygon.box(20, 4), (0.0, 0.0), velocity=(60.0, 0.0),
                                             angular_velocity=0.5))
    for _ in range(3):
        assert lift.transform == Transform(lift.position, lift.angle)
        world.step(DT)
    assert lift.position != (0.0, 0.0) and lift.angle != 0.0
    assert lift.transform == Transform(lift.position, lift.angle)
    assert lift.previous_transform != lift.transform
    lift.position = (5.0, 7.0)
    assert lift.transform == Transform((5.0, 7.0), lift.angle)
    lift.angle = 1.25
    assert lift.transform == Transform((5.0, 7.0), 1.25)
    assert lift.aabb() == lift.shape.aabb(Transform((5.0, 7.0), 1.25))
