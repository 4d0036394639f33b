"""Every building block from Tiled, in one map, played through the headless contract with a scripted input:
``python -m game --headless --level tests/play/fixtures/blocks.tmx --frames 508 --input blocks_run.json
--trace FILE``. The trace shows what a player would see happen (see make_blocks_map.py for the layout)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import load_level
from game.__main__ import main

HERE = Path(__file__).parent / "fixtures"
MAP, RUN = HERE / "blocks.tmx", HERE / "blocks_run.json"


@pytest.fixture(scope="module")
def trace(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("blocks") / "trace.jsonl"
    assert main(["--headless", "--level", str(MAP), "--frames", "508", "--input", str(RUN), "--trace", str(out)]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def first(trace: list[dict], event_type: str) -> tuple[int, dict]:
    return next((i, e) for i, line in enumerate(trace) for e in line["events"] if e["type"] == event_type)


def objects_of(cls: str):
    return [o for o in load_level(MAP).objects if o.cls == cls]


def test_the_spring_sends_the_player_to_its_height(trace):
    at, event = first(trace, "spring")
    height = objects_of("Spring")[0].properties["height"]
    apex = max(line["player"]["y"] for line in trace[at:at + 90])
    assert apex - event["y"] == pytest.approx(height, abs=2.0)


def test_the_ladder_is_climbed_to_the_ledge(trace):
    at, event = first(trace, "climb")
    ladder = objects_of("Ladder")[0]
    assert event["id"] == ladder.id
    top = ladder.position[1] + ladder.size[1] / 2
    standing = next(line for line in trace[at:] if line["player"]["on_floor"] and line["player"]["y"] > top)
    assert standing["player"]["y"] == pytest.approx(top + 16.5, abs=1.0)  # feet on the ladder's top


def test_the_falling_platform_falls_after_being_stood_on(trace):
    at, event = first(trace, "platform_fall")
    platform = objects_of("FallingPlatform")[0]
    assert event["id"] == platform.id
    later = next(p for p in trace[at + 30]["platforms"] if p["id"] == platform.id)
    assert later["y"] < platform.position[1] - 20.0 and later["vy"] < 0.0


def test_the_walker_is_stomped_and_the_player_bounces(trace):
    at, event = first(trace, "stomp")
    assert event["id"] == objects_of("Walker")[0].id
    assert trace[at + 1]["player"]["vy"] > 0.0  # bounced up off it
    assert not any(e["type"] in ("enemy", "hazard", "fall") for line in trace for e in line["events"])  # no deaths


def test_the_switch_opens_the_door_and_the_player_walks_through(trace):
    at_switch, switch = first(trace, "switch")
    at_door, door_event = first(trace, "door")
    door = objects_of("Door")[0]
    assert switch["id"] == objects_of("Switch")[0].id and door_event["id"] == door.id and at_door == at_switch
    assert objects_of("Switch")[0].properties["door"] is not None  # the reference, resolved
    passed = next(i for i, line in enumerate(trace) if line["player"]["x"] > door.position[0] + 30)
    assert passed > at_door
    opened = next(p for p in trace[passed]["platforms"] if p["id"] == door.id)
    assert opened["y"] >= door.position[1] + door.size[1] - 0.5  # slid up by its height


def test_the_run_ends_at_the_goal(trace):
    first(trace, "goal")


def test_a_staged_level_knows_where_its_goal_leads():
    from engine import RoundedPolygon
    from engine.play import Stage

    root = Path(__file__).resolve().parents[2] / "levels"
    stage = Stage.from_level(load_level(root / "demo.tmx"), RoundedPolygon.box(10, 16, radius=2))
    assert stage.next_level == root / "playground.tmx" and stage.next_level.exists()
    assert Stage.from_level(load_level(MAP), RoundedPolygon.box(10, 16, radius=2)).next_level is None
