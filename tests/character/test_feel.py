"""The platformer layer: the forgiving touches a player notices."""

import math

from engine.platformer import PlatformerConfig, PlatformerInput
from engine.world import World
from tests.character.levels import (
    DT,
    JUMP,
    NOTHING,
    RIGHT,
    TILE,
    add_tile,
    hero,
    run,
    settle,
    standing_y,
    tiled_floor,
)


def flat_world():
    world = World()
    tiled_floor(world, range(-20, 40))
    return world


def apex_height(world, controller, hold_frames):
    character = controller.character
    y0 = character.position[1]
    top = y0
    for frame in range(120):
        controller.update(PlatformerInput(jump=frame < hold_frames), DT)
        world.step(DT)
        top = max(top, character.position[1])
    return top - y0


def test_run_accelerates_to_top_speed_and_stops_quickly():
    world = flat_world()
    character, controller = hero(world, (0.0, standing_y(0.0)))
    settle(world, controller)
    speeds = []
    run(world, controller, RIGHT, 30, lambda c: speeds.append(c.velocity[0]))
    cfg = controller.config
    assert speeds[0] == cfg.ground_acceleration * DT
    assert all(b >= a for a, b in zip(speeds, speeds[1:])) and speeds[-1] == cfg.run_speed
    frames_to_stop = 0
    while character.velocity[0] > 0:
        run(world, controller, NOTHING, 1)
        frames_to_stop += 1
    assert frames_to_stop == math.ceil(cfg.run_speed / (cfg.ground_deceleration * DT))


def test_holding_jump_goes_higher_than_tapping_it():
    world = flat_world()
    _, controller = hero(world, (0.0, standing_y(0.0)))
    settle(world, controller)
    full = apex_height(world, controller, hold_frames=60)
    settle(world, controller, 60)
    tap = apex_height(world, controller, hold_frames=3)
    # Full jump reaches at least the configured height (apex hang adds a little); a tap about a third.
    assert controller.config.jump_height <= full <= controller.config.jump_height * 1.35
    assert tap < 0.5 * full


def test_coyote_time_allows_a_jump_just_after_running_off_a_ledge():
    for late_frames, expect_jump in ((4, True), (12, False)):
        world = World()
        tiled_floor(world, range(-20, 1))  # the ground ends at x = 32
        character, controller = hero(world, (0.0, standing_y(0.0)))
        settle(world, controller)
        while character.on_floor:
            run(world, controller, RIGHT, 1)
        run(world, controller, RIGHT, late_frames - 1)
        vy_before = character.velocity[1]
        controller.update(PlatformerInput(right=True, jump=True), DT)
        jumped = "jump" in controller.events
        world.step(DT)
        assert jumped == expect_jump, late_frames
        if expect_jump:
            assert character.velocity[1] > 0 > vy_before


def test_a_jump_pressed_just_before_landing_happens_on_landing():
    world = flat_world()
    character, controller = hero(world, (0.0, standing_y(0.0) + 60))
    while character.position[1] > standing_y(0.0) + 8:
        run(world, controller, NOTHING, 1)
    landed_at = None
    for frame in range(20):  # press jump now, while falling, and keep holding it
        controller.update(JUMP, DT)
        if "jump" in controller.events:
            landed_at = frame
            break
        world.step(DT)
    assert landed_at is not None and landed_at <= 6


def test_falling_speed_is_capped_at_terminal_velocity():
    world = World()
    character, controller = hero(world, (0.0, 10_000.0))
    run(world, controller, NOTHING, 240)
    assert character.velocity[1] == -controller.config.terminal_velocity


def test_head_bump_on_a_ceiling_corner_slips_around_it():
    """
        [][][]          a ceiling block ends at x = 0; the hero jumps with its right edge 4 px under it.
              |hero|
    """
    world = flat_world()
    for col in range(-6, 0):
        add_tile(world, col, 3)  # bottom at y = 96
    character, controller = hero(world, (0.0 + 10 + 2 - 4 + 0.0, standing_y(0.0)))  # left edge at x = -4 + 2 r
    settle(world, controller)
    x0 = character.position[0]
    heights: list[float] = []
    run(world, controller, JUMP, 40, lambda c: heights.append(c.position[1]))
    top = max(heights)
    assert top > 96 + 16  # the head went past the ceiling's underside
    assert character.position[0] - x0 <= controller.config.corner_correction


def test_head_bump_in_the_middle_of_a_ceiling_stops_the_jump():
    world = flat_world()
    for col in range(-6, 6):
        add_tile(world, col, 3)
    character, controller = hero(world, (0.0, standing_y(0.0)))
    settle(world, controller)
    x0 = character.position[0]
    heights: list[float] = []
    run(world, controller, JUMP, 40, lambda c: heights.append(c.position[1]))
    top = max(heights)
    assert top < 96 - 16 and character.position[0] == x0


def test_wall_slide_and_wall_jump():
    world = flat_world()
    for row in range(12):
        add_tile(world, 5, row)  # a wall whose left face is at x = 160
    feel = PlatformerConfig(wall_slide=True)
    character, controller = hero(world, (100.0, 300.0), feel=feel)
    run(world, controller, RIGHT, 60)
    assert character.on_wall and controller.wall_sliding
    assert character.velocity[1] == -feel.wall_slide_speed
    controller.update(PlatformerInput(right=True, jump=True), DT)
    assert "wall_jump" in controller.events
    world.step(DT)
    assert character.velocity[0] < 0 and character.velocity[1] > 0  # away from the wall, upwards
    x_after = character.position[0]
    run(world, controller, PlatformerInput(right=True, jump=True), 5)
    assert character.position[0] < x_after  # the wall-jump lock keeps it from steering straight back


def test_without_wall_slide_the_hero_falls_at_full_speed_along_a_wall():
    world = flat_world()
    for row in range(30):
        add_tile(world, 5, row)
    character, controller = hero(world, (100.0, 900.0))
    run(world, controller, RIGHT, 60)
    assert character.on_wall and character.velocity[1] < -400


def test_step_up_onto_a_small_ledge_without_jumping():
    world = flat_world()
    world.add_segments([(100, 6)], [(400, 6)], 2.0)  # a 6 px high step (plus the floor's radius)
    character, controller = hero(world, (0.0, standing_y(0.0)))
    settle(world, controller)
    run(world, controller, RIGHT, 60)
    assert character.position[0] > 200 and abs(character.position[1] - standing_y(6.0)) < 1e-6


def test_a_ledge_taller_than_the_step_height_blocks():
    world = flat_world()
    add_tile(world, 4, 0)  # 32 px high block at x = 128
    character, controller = hero(world, (0.0, standing_y(0.0)))
    settle(world, controller)
    run(world, controller, RIGHT, 60)
    assert character.on_wall and character.position[0] < 4 * TILE
