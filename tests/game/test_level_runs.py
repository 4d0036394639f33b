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
    "2_crates": {"spring", "switch", "door", "checkpoint"},
    "3_machines": {"stomp", "climb", "platform_fall", "switch", "door", "checkpoint"},
}
"""Events each run must show besides the goal (what the level teaches)."""
RECORDINGS = {**{name: RUNS / f"{name}.json" for name in LESSONS}, "demo": Path(__file__).parent / "demo_to_goal.json"}
"""Every recorded run to a goal: the teaching levels' and the demo level's."""
VIEW_MARGIN = 48.0
"""Least distance (px) between the hero's box and the view's top or bottom (issue 34: never out of view)."""


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    """``replay(name)``: the frames of the level's recording and its trace, each level played once for all
    the tests here (a run takes over a minute of play)."""
    played = {}

    def get(name):
        if name not in played:
            played[name] = play(tmp_path_factory.mktemp(name), name)
        return played[name]
    return get


def play(tmp_path, name):
    recording = RECORDINGS[name]
    frames = sum(seg["frames"] for seg in json.loads(recording.read_text()))
    trace = tmp_path / f"{name}.jsonl"
    code = main(["--headless", "--level", str(ROOT / "levels" / f"{name}.tmx"), "--frames", str(frames + 60),
                 "--input", str(recording), "--trace", str(trace)])
    assert code == 0
    return frames, [json.loads(line) for line in trace.read_text().splitlines()]


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_the_recorded_run_reaches_the_goal_with_no_death(replay, name):
    frames, lines = replay(name)
    events = [(line["step"], e) for line in lines for e in line["events"]]
    goals = [(step, e) for step, e in events if e["type"] == "goal"]
    assert len(goals) == 1 and goals[0][0] <= frames
    assert not [e for _, e in events if e["type"] in DEATHS]
    assert LESSONS[name] <= {e["type"] for _, e in events}


def test_the_crate_rides_the_spring_up_to_the_next_floor(replay):
    """Level 2's spring throws the pushed crate (not only the hero) up onto the floor two tiles higher."""
    _, lines = replay("2_crates")
    launched = [e["id"] for line in lines for e in line["events"] if e["type"] == "spring"]
    first = {body["id"]: body for body in lines[0]["bodies"]}
    last = {body["id"]: body for body in lines[-1]["bodies"]}
    crate_ids = set(first)
    risen = [i for i in crate_ids if last[i]["y"] > first[i]["y"] + 60]
    assert launched and len(risen) >= 1  # a crate ended on a higher floor than it started on


def test_crates_pushed_into_the_pits_press_the_switches_in_level_two(replay):
    """Each switch of level 2 lies at the bottom of a spiked pit: a crate pressed it, with the hero up on the
    ground beside the pit (a hero down there would have died on the spikes)."""
    _, lines = replay("2_crates")
    pressed = [line for line in lines if any(e["type"] == "switch" for e in line["events"])]
    ground_top = 3 * 32  # engine frame, y up: the ground's top row is the map's fourth from the bottom
    assert len(pressed) == 3
    for line in pressed:
        assert line["player"]["y"] > ground_top
        assert any(body["y"] < ground_top and abs(body["x"] - line["player"]["x"]) < 120 for body in line["bodies"])


def test_the_hero_drops_through_the_bridge_in_level_one(replay):
    """The way on in level 1 is under the one-way bridge: the hero is above it, then below it, at its x."""
    _, lines = replay("1_hills_and_ledges")
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


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_the_camera_keeps_the_hero_in_view_with_margins(replay, name):
    """The game's follow camera, fed each step of the recorded run, never lets the hero's box come closer than
    48 px to the view's top or bottom (a high jump takes the view above the map's top) nor leave it sideways."""
    from engine import load_level
    from game.app import HERO_HALF_SIZE, hero_camera
    from game.screen import LOGICAL_HEIGHT, LOGICAL_WIDTH

    _, lines = replay(name)
    level = load_level(ROOT / "levels" / f"{name}.tmx")
    camera = hero_camera((LOGICAL_WIDTH, LOGICAL_HEIGHT), level)
    half_w, half_h = HERO_HALF_SIZE
    camera.snap(lines[0]["player"]["x"], lines[0]["player"]["y"], HERO_HALF_SIZE)
    closest, above_map = float("inf"), 0
    for line in lines:
        hero = line["player"]
        camera.follow(hero["x"], hero["y"], 1 / 60, velocity_x=hero["vx"], half_size=HERO_HALF_SIZE)
        left, bottom, right, top = camera.view
        closest = min(closest, top - (hero["y"] + half_h), (hero["y"] - half_h) - bottom)
        above_map += top > level.height
        assert left <= hero["x"] - half_w and hero["x"] + half_w <= right, f"step {line['step']}: hero out of view"
    assert closest >= VIEW_MARGIN, f"{name}: the hero came within {closest:.1f} px of the view's top or bottom"
    print(f"{name}: closest {closest:.1f} px, view above the map's top on {above_map} of {len(lines)} steps")
