"""The headless contract: python -m game --headless --level PATH --frames N [--input] [--record] [--trace]
[--screenshot]."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "levels" / "demo.tmx"


def write_input(path, segments):
    path.write_text(json.dumps(segments))
    return path


def run(tmp_path, frames, segments, name="trace.jsonl", extra=()):
    inp = write_input(tmp_path / "in.json", segments)
    trace = tmp_path / name
    code = main(["--headless", "--level", str(DEMO), "--frames", str(frames), "--input", str(inp),
                 "--trace", str(trace), *extra])
    return code, [json.loads(line) for line in trace.read_text().splitlines()]


def test_trace_has_one_line_per_step_in_the_documented_format(tmp_path):
    code, lines = run(tmp_path, 90, [{"frames": 60, "hold": ["right"]}])
    assert code == 0 and len(lines) == 90
    first = lines[0]
    assert set(first) == {"step", "t", "player", "bodies", "platforms", "events"}
    assert set(first["player"]) == {"x", "y", "vx", "vy", "on_floor", "on_wall", "on_ceiling"}
    assert first["step"] == 1 and first["t"] == pytest.approx(1 / 60, abs=1e-6)
    from engine.level.level import load_level

    crates = {e.id for e in load_level(DEMO).of_kind("crate")}
    assert len(crates) == 2 and {b["id"] for b in first["bodies"]} == crates  # by Tiled object id
    assert set(first["bodies"][0]) == {"id", "x", "y", "angle", "vx", "vy"}
    platforms = {o.id for o in load_level(DEMO).objects if o.cls in ("MovingPlatform", "Door", "FallingPlatform")}
    assert platforms and {p["id"] for p in first["platforms"]} == platforms  # kinematic platforms, by Tiled id
    assert set(first["platforms"][0]) == {"id", "x", "y", "angle", "vx", "vy"}
    assert lines[-1]["player"]["x"] > lines[0]["player"]["x"] + 100  # ran right


def test_two_runs_of_the_same_input_give_identical_traces(tmp_path):
    segments = [{"frames": 50, "hold": ["right"]}, {"frames": 15, "hold": ["right", "jump"]},
                {"frames": 60, "hold": ["left"]}]
    _, a = run(tmp_path, 200, segments, "a.jsonl")
    _, b = run(tmp_path, 200, segments, "b.jsonl")
    assert a == b


def test_record_writes_the_input_format_and_replays_exactly(tmp_path):
    segments = [{"frames": 40, "hold": ["right"]}, {"frames": 10, "hold": ["right", "jump"]},
                {"frames": 30, "hold": []}]
    record = tmp_path / "rec.json"
    _, original = run(tmp_path, 100, segments, "orig.jsonl", ["--record", str(record)])
    recorded = json.loads(record.read_text())
    # The 20 frames after the input ends hold nothing too, so they join the last segment.
    assert recorded == segments[:2] + [{"frames": 50, "hold": []}]
    trace = tmp_path / "replay.jsonl"
    args = ["--headless", "--level", str(DEMO), "--frames", "100", "--input", str(record), "--trace", str(trace)]
    assert main(args) == 0
    assert [json.loads(x) for x in trace.read_text().splitlines()] == original


@pytest.mark.parametrize("content, message", [
    ("not json", "not JSON"),
    ('{"frames": 3}', "must be a JSON list"),
    ('[{"frames": -1, "hold": []}]', "segment 0 'frames' must be a whole number >= 0"),
    ('[{"frames": 3, "hold": ["fly"]}]', "segment 0 'hold' must list actions"),
])
def test_a_bad_input_file_is_a_clear_message_and_status_2(tmp_path, capsys, content, message):
    inp = tmp_path / "bad.json"
    inp.write_text(content)
    assert main(["--headless", "--level", str(DEMO), "--frames", "5", "--input", str(inp)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and message in err


def test_a_bad_level_is_a_clear_message_and_status_2(tmp_path, capsys):
    broken = tmp_path / "broken.tmx"
    broken.write_text("<map")
    assert main(["--headless", "--level", str(broken), "--frames", "5"]) == 2
    assert "broken.tmx" in capsys.readouterr().err


def test_the_command_line_itself(tmp_path):
    """The contract as a newcomer types it."""
    trace = tmp_path / "t.jsonl"
    done = subprocess.run([sys.executable, "-m", "game", "--headless", "--level", str(DEMO), "--frames", "10",
                           "--trace", str(trace)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(trace.read_text().splitlines()) == 10


def test_a_first_start_says_so_once_and_leaves_the_kernels_prepared(tmp_path):
    """A first start (no stamp in a fresh cache folder) prints one line and ends with the kernels prepared (it
    plays on them as plain Python while a background process prepares the compiled ones): the next start is no
    first start and prints nothing; both runs write the same trace."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"), ARCADE_HEADLESS="1")
    runs = []
    for name in ("first", "second"):
        trace = tmp_path / f"{name}.jsonl"
        done = subprocess.run([sys.executable, "-m", "game", "--headless", "--level", str(DEMO), "--frames", "120",
                               "--input", str(ROOT / "tests" / "game" / "demo_to_goal.json"), "--trace", str(trace)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        runs.append((done.stderr, trace.read_text()))
    first, second = runs
    assert first[0].count("compiling the physics kernels") == 1 and "first start only" in first[0], first[0]
    assert "compiling" not in second[0], second[0]
    assert first[1] == second[1] and len(first[1].splitlines()) == 120
