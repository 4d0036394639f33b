"""No stall in the first seconds of a level (issue 34): with the physics kernels already compiled (the suite's
session fixture loads them, as any start after the first does), every frame of the first 2 s of every shipped
level costs the game under 50 ms, and the frame after the load runs one physics step, not a catch-up burst
for the load's time.

Each frame is measured as the real window's loop runs it: ``on_update`` (physics steps, animation, camera)
then ``on_draw`` (the level, sprites, signs, HUD), with the hero running right and jumping now and then.
What is measured is the main thread's CPU time (:func:`time.thread_time`), not the wall clock: the tests
share a machine with other work, and time spent waiting for a core is the machine's, not the game's. CPU
time is what a frame costs the game itself (Python, numpy, the kernels, building GL commands in software);
the wall time is reported beside it when a frame is over.

The first frame also runs a full garbage collection, inside its measured time. Python starts one by itself
whenever enough objects have outlived the younger collections, so in some frame of the first seconds (a load
makes hundreds of thousands of objects) it will; before the game settled its memory at each load, that frame
cost 85-120 ms on the project's machines. Running it in a known frame makes the worst case the test sees
not depend on how many objects the process made before.
"""

import gc
import os
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
import pytest  # noqa: E402

from game.app import GameWindow, level_order  # noqa: E402
from game.data import shipped_levels  # noqa: E402

FRAME = 1 / 60
"""Game time per frame (s): a 60 Hz display."""
FIRST_SECONDS = 2.0
BUDGET_MS = 50.0


@pytest.fixture(scope="module")
def window():
    window = GameWindow()
    yield window
    window.close()


def play_first_seconds(window, path):
    """Load ``path`` as the title does, then play its first :data:`FIRST_SECONDS`: a list of (frame, CPU ms,
    wall ms, physics steps so far) per frame."""
    started = time.perf_counter()
    window.start(path)
    load_seconds = time.perf_counter() - started
    assert window.state == "play", window.title.message
    window.on_key_press(arcade.key.RIGHT, 0)
    frames = []
    for k in range(round(FIRST_SECONDS / FRAME)):
        jump = k % 30 == 10
        if jump:
            window.on_key_press(arcade.key.SPACE, 0)
        cpu, wall = time.thread_time(), time.perf_counter()
        if k == 0:
            gc.collect()
        # The first frame's time is what the window's clock saw: the whole load.
        window.on_update(load_seconds if k == 0 else FRAME)
        window.on_draw()
        frames.append((k, 1000 * (time.thread_time() - cpu), 1000 * (time.perf_counter() - wall),
                       window.play.session.steps))
        if jump:
            window.on_key_release(arcade.key.SPACE, 0)
    window.on_key_release(arcade.key.RIGHT, 0)
    return frames


@pytest.mark.parametrize("path", level_order(shipped_levels()), ids=lambda p: p.stem)
def test_no_frame_of_a_levels_first_two_seconds_costs_over_50_ms(window, path):
    frames = play_first_seconds(window, path)
    assert frames[0][3] == 1, f"the frame after the load ran {frames[0][3]} physics steps: a catch-up burst"
    worst = max(frames, key=lambda f: f[1])
    over = [f"frame {k}: {cpu:.1f} ms CPU ({wall:.1f} ms wall)" for k, cpu, wall, _ in frames if cpu > BUDGET_MS]
    assert not over, f"{path.name}: {over}"
    assert worst[1] > 0.0  # (the clock ran: a frame that draws a level costs something)
    slowest = max(frames, key=lambda f: f[2])
    print(f"{path.name}: worst frame {worst[1]:.1f} ms CPU (frame {worst[0]}, {worst[2]:.1f} ms wall); "
          f"slowest by the wall clock {slowest[2]:.1f} ms (frame {slowest[0]}, {slowest[1]:.1f} ms CPU)")
