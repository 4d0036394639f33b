"""Each teaching level is played from the spawn to the goal by a recorded input (made by
make_level_runs.py), replayed through the headless contract: the trace shows the goal reached, no death,
and the level's lesson used on the way."""

import json
from pathlib import Path

import pytest

from game.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
RUNS = Path(__file__).parent / "runs"
DEATHS = {"hazard", "fall", "enemy", "crushed"}
LESSONS = {
    "1_hills_and_ledges": {"checkpoint"},
    "2_crates": {"spring", "checkpoint"},
    "3_machines": {"stomp", "climb", "platform_fall", "switch", "door", "checkpoint"},
}
"""Events each run must show besides the goal (what the level teaches)."""


def replay(tmp_path, name):
    recording = RUNS / f"{name}.json"
    frames = sum(seg["frames"] for seg in json.loads(recording.read_text()))
    trace = tmp_path / f"{name}.jsonl"
    code = main(["--headless", "--level", str(ROOT / "levels" / f"{name}.tmx"), "--frames", str(frames + 60),
                 "--input", str(recording), "--trace", str(trace)])
    assert code == 0
    return frames, [json.loads(line) for line in trace.read_text().splitlines()]


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_the_recorded_run_reaches_the_goal_with_no_death(tmp_path, name):
    frames, lines = replay(tmp_path, name)
    events = [(line["step"], e) for line in lines for e in line["events"]]
    goals = [(step, e) for step, e in events if e["type"] == "goal"]
    assert len(goals) == 1 and goals[0][0] <= frames
    assert not [e for _, e in events if e["type"] in DEATHS]
    assert LESSONS[name] <= {e["type"] for _, e in events}


def test_the_crate_rides_the_spring_up_to_the_next_floor(tmp_path):
    """Level 2's spring throws the pushed crate (not only the hero) up onto the floor two tiles higher."""
    _, lines = replay(tmp_path, "2_crates")
    launched = [e["id"] for line in lines for e in line["events"] if e["type"] == "spring"]
    first = {body["id"]: body for body in lines[0]["bodies"]}
    last = {body["id"]: body for body in lines[-1]["bodies"]}
    crate_ids = set(first)
    risen = [i for i in crate_ids if last[i]["y"] > first[i]["y"] + 60]
    assert launched and len(risen) >= 1  # a crate ended on a higher floor than it started on


def test_the_hero_drops_through_the_bridge_in_level_one(tmp_path):
    """The way on in level 1 is under the one-way bridge: the hero is above it, then below it, at its x."""
    _, lines = replay(tmp_path, "1_hills_and_ledges")
    over = [line for line in lines if 1920 < line["player"]["x"] < 2176]
    assert any(line["player"]["y"] > 256 for line in over) and any(line["player"]["y"] < 140 for line in over)


def test_the_levels_lead_one_to_the_next():
    from engine.level.level import load_level

    chain = ["1_hills_and_ledges.tmx", "2_crates.tmx", "3_machines.tmx", "playground.tmx"]
    for here, there in zip(chain, chain[1:]):
        assert load_level(ROOT / "levels" / here).next_level == there


def test_the_title_screen_lists_the_three_levels_first_in_order():
    from game.app import LEVELS, level_entries, level_order

    names = [entry.name for entry in level_entries(level_order(list(LEVELS.glob("*.tmx"))))]
    assert names[:5] == ["1. Hills and ledges", "2. Crates", "3. Machines", "Demo", "Playground"]
