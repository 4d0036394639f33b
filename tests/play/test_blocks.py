"""The building blocks in play, each in a small scene built in code, asserting what a player notices.

Floors are chains at y = 0 with 2 px radius (their surface at y = 2); the hero is 20 x 32 px, standing at
``standing_y(0)`` = 20.5 (centre).
"""

from __future__ import annotations

import pytest

from engine import Character, PlatformerInput, RigidBody, RoundedPolygon, World
from engine.play import (
    Animation, Animator, Door, FallingPlatform, Ladder, Spring, Stage, Switch, Walker, character_pose, launch_speed,
)
from tests.character.levels import DT, HERO, standing_y

NOTHING, RIGHT, LEFT = PlatformerInput(), PlatformerInput(right=True), PlatformerInput(left=True)
UP, DOWN, JUMP = PlatformerInput(up=True), PlatformerInput(down=True), PlatformerInput(jump=True)
STAND = standing_y(0.0)


def stage_on_floor(x: float = 0.0, width: float = 2000.0) -> Stage:
    world = World()
    world.add_chain([(-width, 0), (width, 0)], radius=2.0)
    return Stage(world, world.add_character(Character(HERO, (x, STAND))))


def play(stage: Stage, buttons: PlatformerInput, steps: int, watch=None) -> None:
    for _ in range(steps):
        stage.step(buttons, DT)
        if watch is not None:
            watch(stage)


# ------------------------------------------------------------------------------------------------ ladder
def ladder_stage() -> tuple[Stage, Ladder]:
    """A ladder from the floor up to a ledge whose top is at y = 200 (ladder x = 100, 32 px wide)."""
    stage = stage_on_floor(100.0)
    stage.world.add_chain([(116, 198), (400, 198)], radius=2.0)  # the ledge to the right of the ladder top
    ladder = Ladder(stage.world, RoundedPolygon.box(16, 100, radius=0), (100.0, 100.0), speed=120.0)
    stage.add(ladder)
    return stage, ladder


@pytest.mark.parametrize("gap, held", [(1.0, False), (1e-3, False), (0.0, False), (-1e-3, True), (-5.0, True)])
def test_a_ladder_holds_the_player_only_when_overlapping_it(gap, held):
    """``gap`` px between the player's side and the ladder's (negative: overlapping); the test of the boxes
    that skips the exact one must not change the answer at the edge."""
    stage, ladder = ladder_stage()
    player = stage.player
    half_width = (player.aabb().max_x - player.aabb().min_x) / 2
    player.position = (84.0 - gap - half_width, 50.0)  # (the ladder's left side is at x = 84)
    assert ladder.holds(player) is held


def test_up_on_a_ladder_climbs_at_its_speed_without_gravity_and_stands_on_its_top():
    stage, ladder = ladder_stage()
    play(stage, NOTHING, 20)  # standing in front of the ladder
    assert ladder.holds(stage.player)
    y0 = stage.player.position[1]
    seen = _all_events(stage, UP, 30)  # half a second
    assert stage.controller.climbing and [e.type for e in seen] == ["climb"] and seen[0].source is ladder
    assert stage.player.position[1] - y0 == pytest.approx(120.0 * 0.5, abs=3.0)
    hold = stage.player.position[1]
    play(stage, NOTHING, 30)  # let go of up: no gravity on a ladder
    assert stage.player.position[1] == pytest.approx(hold, abs=0.01)
    play(stage, UP, 120)
    assert not stage.controller.climbing and stage.player.on_floor
    assert stage.player.position[1] == pytest.approx(200.0 + 16.0 + 0.5, abs=1.0)  # on the ladder's top


def test_down_on_a_ladder_top_climbs_down_through_it_and_jump_lets_go():
    stage, _ = ladder_stage()
    stage.player.teleport((100.0, 200.0 + 18.0))
    play(stage, NOTHING, 10)
    assert stage.player.on_floor and stage.player.position[1] > 210.0  # standing on the top
    play(stage, DOWN, 40)
    assert stage.controller.climbing and stage.player.position[1] < 190.0  # through the one-way top
    play(stage, JUMP, 1)
    assert not stage.controller.climbing and stage.player.velocity[1] > 300.0


# ------------------------------------------------------------------------------------------------ spring
@pytest.mark.parametrize("height", [64.0, 160.0, 300.0])
def test_a_spring_launches_the_player_to_its_height(height):
    stage = stage_on_floor(0.0)
    spring = stage.add(Spring(stage.world, RoundedPolygon.box(16, 6, radius=0), (80.0, 8.0), height=height))
    launches, tops = [], []

    def watch(s):
        launches.extend(e.data["y"] for e in s.rules.events if e.type == "spring")
        tops.append(s.player.position[1])

    play(stage, RIGHT, 30, watch)
    play(stage, NOTHING, 60, watch)
    assert len(launches) >= 1 and spring.sensor in stage.world.sensors
    assert max(tops) - launches[0] == pytest.approx(height, abs=2.0)


def test_a_spring_launches_a_crate_to_its_height():
    stage = stage_on_floor(-500.0)
    stage.add(Spring(stage.world, RoundedPolygon.box(20, 6, radius=0), (0.0, 8.0), height=200.0))
    box = stage.world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, 60.0)))
    launched, top = None, -1e9
    for _ in range(120):
        stage.step(NOTHING, DT)
        for event in stage.rules.events:
            if event.type == "spring" and launched is None:
                launched = event.data["y"]
        if launched is not None:
            top = max(top, box.position[1])
    assert launched is not None and top - launched == pytest.approx(200.0, abs=3.0)


def test_launch_speed_reaches_the_height_under_fixed_steps():
    for height in (10.0, 100.0, 1000.0):
        v, y, best = launch_speed(height, 1800.0, DT), 0.0, 0.0
        while v > 0:
            v -= 1800.0 * DT
            y += v * DT
            best = max(best, y)
        assert best == pytest.approx(height, abs=1e-6)


# ------------------------------------------------------------------------------------------------ walker
def test_a_walker_patrols_between_walls():
    stage = stage_on_floor(-300.0)
    stage.world.add_chain([(0, 0), (0, 100)], radius=2.0)
    stage.world.add_chain([(200, 0), (200, 100)], radius=2.0)
    walker = stage.add(Walker(stage.world, (100.0, 13.0), speed=80.0))
    xs = []
    play(stage, NOTHING, 600, lambda s: xs.append(walker.character.position[0]))
    assert min(xs) < 20.0 and max(xs) > 180.0  # walked wall to wall
    turns = sum(1 for a, b, c in zip(xs, xs[1:], xs[2:]) if (b - a) * (c - b) < 0)
    assert turns >= 4


def test_a_walker_turns_at_ledges_and_never_falls_off():
    stage = stage_on_floor(-900.0, width=1000.0)
    stage.world.add_chain([(100, 100), (300, 100)], radius=2.0)  # a floating platform
    walker = stage.add(Walker(stage.world, (200.0, 113.0), speed=80.0))
    xs = []
    play(stage, NOTHING, 600, lambda s: xs.append(walker.character.position[0]))
    assert walker.character.position[1] > 100.0  # still on the platform
    assert max(xs) > 270.0 and min(xs) < 130.0  # went near both ends


def test_walking_into_a_walker_hurts_the_player():
    stage = stage_on_floor(0.0)
    stage.add(Walker(stage.world, (150.0, 13.0), speed=0.0))
    seen = _all_events(stage, RIGHT, 60)
    assert stage.rules.deaths == 1 and [e.type for e in seen][:2] == ["enemy", "respawn"]


def _all_events(stage, buttons, steps):
    seen = []
    for _ in range(steps):
        stage.step(buttons, DT)
        seen.extend(stage.rules.events)
    return seen


def test_landing_on_a_walker_stomps_it_and_bounces_the_player():
    stage = stage_on_floor(0.0)
    walker = stage.add(Walker(stage.world, (0.0, 13.0), speed=0.0))
    stage.player.teleport((0.0, 120.0))
    seen = _all_events(stage, NOTHING, 30)
    assert [e.type for e in seen].count("stomp") == 1 and stage.rules.deaths == 0
    assert walker.character not in stage.world.characters and walker not in stage.objects
    assert next(e for e in seen if e.type == "stomp").source is walker
    assert stage.player.position[1] > 60.0  # bounced up off it


def test_a_heavy_crate_crushes_a_walker():
    stage = stage_on_floor(-500.0)
    walker = stage.add(Walker(stage.world, (0.0, 13.0), speed=0.0))
    stage.world.add_body(RigidBody(RoundedPolygon.box(16, 16, radius=1), (0.0, 200.0)))
    seen = _all_events(stage, NOTHING, 90)
    assert "enemy_crushed" in [e.type for e in seen] and not walker.alive


# ------------------------------------------------------------------------------------------------ door, switch
def test_a_switch_opens_the_door_that_blocked_the_way():
    stage = stage_on_floor(0.0)
    door = stage.add(Door(stage.world, RoundedPolygon.box(8, 40, radius=0), (300.0, 42.0), speed=200.0))
    stage.add(Switch(stage.world, RoundedPolygon.box(16, 8, radius=0), (150.0, 10.0), door))
    blocked = []
    play(stage, RIGHT, 40, lambda s: blocked.append(s.player.position[0]))
    assert door.opening or door.is_open
    play(stage, RIGHT, 120)
    assert door.is_open and stage.player.position[0] > 400.0  # walked through where the door was


def test_without_the_switch_the_door_blocks():
    stage = stage_on_floor(0.0)
    stage.add(Door(stage.world, RoundedPolygon.box(8, 40, radius=0), (150.0, 42.0)))
    play(stage, RIGHT, 120)
    assert stage.player.position[0] < 150.0 - 8.0 - 10.0 + 1.0


# ------------------------------------------------------------------------------------------------ falling platform
def test_a_falling_platform_drops_after_its_delay_and_comes_back_on_respawn():
    world = World()
    world.add_chain([(-2000, -400), (2000, -400)], radius=2.0)  # far below
    platform = FallingPlatform(world, RoundedPolygon.box(40, 6, radius=0), (0.0, 100.0), delay=0.5)
    player = world.add_character(Character(HERO, (0.0, 106.0 + 16.5)))
    stage = Stage(world, player, objects=[platform], spawn=(0.0, 106.0 + 16.5))
    play(stage, NOTHING, 20)  # a third of a second: still up
    assert platform.body.position[1] == pytest.approx(100.0) and not platform.falling
    seen = _all_events(stage, NOTHING, 40)
    assert "platform_fall" in [e.type for e in seen] and platform.body.position[1] < 60.0
    stage.rules.kill("hazard")
    assert platform.body.position == (0.0, 100.0) and not platform.falling


# ------------------------------------------------------------------------------------------------ animation
def test_an_animator_plays_frames_at_their_rate_and_restarts_on_a_new_state():
    animator = Animator({"idle": Animation((0,), fps=1), "run": Animation((10, 11, 12, 13), fps=10)})
    frames = [animator.update("run", 0.05) for _ in range(8)]
    assert frames == [10, 10, 11, 11, 12, 12, 13, 13]
    assert animator.update("idle", 0.05) == 0 and animator.update("jump", 0.05) == 0  # falls back to idle


def test_character_pose_names_what_the_player_sees():
    stage = stage_on_floor(0.0)
    play(stage, NOTHING, 5)
    assert character_pose(stage.player, stage.controller) == "idle"
    play(stage, RIGHT, 10)
    assert character_pose(stage.player, stage.controller) == "run"
    play(stage, JUMP, 3)
    assert character_pose(stage.player, stage.controller) == "jump"
    assert character_pose(stage.player, stage.controller, hurt=True) == "hurt"


def test_a_platform_crushing_the_player_kills_him_and_he_respawns():
    from engine import KinematicBody

    stage = stage_on_floor(0.0)
    stage.world.add_kinematic(KinematicBody(RoundedPolygon.box(40, 6), (0.0, 80.0), velocity=(0.0, -120.0)))
    seen = _all_events(stage, NOTHING, 40)
    assert [e.type for e in seen][:2] == ["crushed", "respawn"] and stage.rules.deaths >= 1
