"""What a game sets up through the stage: the player's collision filter and user data, and unsubscribing
from the rules' events."""

from pathlib import Path

import pytest

from engine import CollisionFilter, PlatformerInput, RoundedPolygon, WorldError, load_level
from engine.play import GameEvent, Stage

DEMO = Path(__file__).resolve().parents[2] / "levels" / "demo.tmx"
HERO = RoundedPolygon.box(10, 16, radius=2)


def test_the_player_gets_the_filter_and_user_data_given_to_from_level():
    ghost = CollisionFilter(category=2, mask=0)  # touches nothing, the level's ground included
    stage = Stage.from_level(load_level(DEMO), HERO, player_filter=ghost, player_data={"name": "hero"})
    assert stage.player.filter is ghost and stage.player.user_data == {"name": "hero"}
    falls = []
    stage.rules.on("fall", falls.append)
    start_y = stage.player.position[1]
    for _ in range(20):
        stage.step(PlatformerInput(), 1 / 60)
    assert stage.player.position[1] < start_y - 50  # it falls through the ground it does not touch...
    for _ in range(40):
        stage.step(PlatformerInput(), 1 / 60)
    assert falls  # ...out of the level (and respawns, to fall again)

    solid = Stage.from_level(load_level(DEMO), HERO)
    for _ in range(60):
        solid.step(PlatformerInput(), 1 / 60)
    assert solid.player.on_floor and solid.player.user_data is None  # the default: stands on the ground


def test_rules_off_stops_one_handler_and_refuses_an_unknown_one():
    stage = Stage.from_level(load_level(DEMO), HERO)
    seen: list[str] = []
    first = stage.rules.on("ping", lambda event: seen.append("first"))
    stage.rules.on("ping", lambda event: seen.append("second"))
    stage.rules.emit(GameEvent("ping"))
    stage.rules.off("ping", first)
    stage.rules.emit(GameEvent("ping"))
    assert seen == ["first", "second", "second"]
    with pytest.raises(WorldError, match="not subscribed to 'ping'"):
        stage.rules.off("ping", first)


def test_a_handler_may_unsubscribe_itself_while_the_event_is_sent():
    stage = Stage.from_level(load_level(DEMO), HERO)
    seen: list[str] = []

    def once(event):
        seen.append("once")
        stage.rules.off("ping", once)

    stage.rules.on("ping", once)
    stage.rules.on("ping", lambda event: seen.append("always"))
    stage.rules.emit(GameEvent("ping"))
    stage.rules.emit(GameEvent("ping"))
    assert seen == ["once", "always", "always"]


def test_a_hazard_on_a_path_moves_with_the_stage_and_hurts_the_player_it_reaches():
    from engine import PlatformPath, Sensor
    from engine.play import PathFollower

    stage = Stage.from_level(load_level(DEMO), HERO)
    x, y = stage.player.position
    saw = stage.world.add_sensor(Sensor(RoundedPolygon.box(8, 8), (0.0, 0.0), tag="hazard"))
    track = PlatformPath([(x + 336, y), (x - 100, y)], speed=200, mode="pingpong")
    stage.add(PathFollower(saw, track))
    assert saw.position == (x + 336, y)  # put at the path's start at once
    hits: list[int] = []
    stage.rules.on("hazard", lambda event: hits.append(stage.steps))
    for _ in range(60):
        stage.step(PlatformerInput(), 1 / 60)
    assert saw.position[0] == pytest.approx(x + 336 - 200, abs=1e-6) and not hits  # 1 s at 200 px/s: still away
    for _ in range(60):
        stage.step(PlatformerInput(), 1 / 60)
    assert hits and 80 <= hits[0] <= 110  # it reached the player (336 px less both half widths, at 200 px/s)


def test_a_path_follower_needs_a_thing_with_a_position_and_a_path():
    from engine import PlatformPath
    from engine.play import PathFollower

    with pytest.raises(WorldError, match="thing with a position"):
        PathFollower(object(), PlatformPath([(0, 0), (10, 0)], speed=10))
    with pytest.raises(WorldError, match="needs a PlatformPath"):
        PathFollower(type("Thing", (), {"position": (0, 0)})(), [(0, 0), (10, 0)])
