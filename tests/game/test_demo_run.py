"""A recorded input file that plays the demo from the spawn to the goal, replayed through the headless
contract: the trace shows the goal reached."""

import json
from pathlib import Path

from game.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
RECORDING = Path(__file__).parent / "demo_to_goal.json"


def test_the_recorded_run_reaches_the_goal(tmp_path):
    frames = sum(seg["frames"] for seg in json.loads(RECORDING.read_text()))
    trace = tmp_path / "demo.jsonl"
    code = main(["--headless", "--level", str(ROOT / "levels" / "demo.tmx"), "--frames", str(frames + 60),
                 "--input", str(RECORDING), "--trace", str(trace)])
    assert code == 0
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    goals = [(line["step"], e) for line in lines for e in line["events"] if e["type"] == "goal"]
    assert len(goals) == 1
    step, event = goals[0]
    assert step <= frames and event["time"] < 30.0
    assert not any(e["type"] in ("hazard", "fall") for line in lines for e in line["events"])
    assert any(e["type"] == "checkpoint" for line in lines for e in line["events"])
