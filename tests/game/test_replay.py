"""``python -m game --replay FILE`` shows a recorded run in the window, step for step the same as the
headless runner with the same input, whatever the display's frame rate."""

import json
import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from game.__main__ import main, parse  # noqa: E402
from game.app import GameWindow  # noqa: E402
from game.runner import read_input  # noqa: E402
from tests.game.test_window import ROOT  # noqa: E402

DEMO = ROOT / "levels" / "demo.tmx"
RUN = ROOT / "tests" / "game" / "demo_to_goal.json"


def replay_in_window(segments, frame_times):
    window = GameWindow(DEMO, replay=segments)
    try:
        k = 0
        while window.state == "play":
            window.on_update(frame_times[k % len(frame_times)])
            if k % 16 == 0:  # drawing does not touch the physics; a few draws keep that honest, cheaply
                window.on_draw()
            k += 1
            assert k < 10_000
        return window.state, window.play.session.trace()
    finally:
        window.close()


def test_a_replay_in_the_window_ends_where_the_headless_run_ends(tmp_path):
    segments = read_input(RUN)
    total = sum(n for n, _ in segments)
    trace = tmp_path / "trace.jsonl"
    assert main(["--headless", "--level", str(DEMO), "--frames", str(total), "--input", str(RUN),
                 "--trace", str(trace)]) == 0
    headless = json.loads(trace.read_text().splitlines()[-1])
    # A display at 144 Hz with a hitch now and then: several frames per step, sometimes several steps per frame.
    state, final = replay_in_window(segments, [1 / 144, 1 / 144, 1 / 20])
    assert state == "complete"  # the recorded run reaches the goal
    assert final["step"] == total
    assert final["player"] == headless["player"]
    assert final["bodies"] == headless["bodies"]


def test_a_replay_that_stops_short_of_the_goal_says_so_and_ignores_the_keyboard():
    segments = [(40, frozenset({"right"})), (20, frozenset())]
    window = GameWindow(DEMO, replay=segments)
    try:
        window.on_key_press(arcade.key.LEFT, 0)  # the player's keys do not steer a replay
        for _ in range(70):
            window.on_update(1 / 60)
            window.on_draw()
        assert window.state == "replay_end" and window.play.session.steps == 60
        assert window.play.session.hero.position[0] > window.play.session.level.spawn[0] + 100
        window.on_key_press(arcade.key.ENTER, 0)
        assert window.state == "title"
    finally:
        window.close()


def test_replay_flag_reads_the_file_and_a_bad_one_is_exit_status_2(tmp_path, capsys):
    assert parse(["--replay", str(RUN)]).replay == RUN
    bad = tmp_path / "bad.json"
    bad.write_text('[{"frames": -1, "hold": []}]')
    assert main(["--replay", str(bad)]) == 2
    assert "frames" in capsys.readouterr().err


def test_restarting_a_replay_plays_it_again_from_its_first_frame():
    segments = [(40, frozenset({"right"})), (20, frozenset())]

    def run(restart_after):
        window = GameWindow(DEMO, replay=segments)
        try:
            for k in range(200):
                if k == restart_after:
                    window.on_key_press(arcade.key.R, 0)
                window.on_update(1 / 60)
            return window.state, window.play.session.steps, window.play.session.hero.position
        finally:
            window.close()

    assert run(restart_after=25) == run(restart_after=-1)
