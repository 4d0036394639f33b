"""Game frame benchmark (not a test): median frame time of the demo, headless, and physics ms per frame.

Run: ``.venv/bin/python tests/benchmarks/bench_game.py [WIDTHxHEIGHT]`` (the window size; 1920x1080 shows
the game at 3x)

Plays the recorded demo run (tests/game/demo_to_goal.json) in an offscreen window at the game's starting
size (1280 x 720): each frame is one physics step plus the visuals update and a full draw (tiles, things,
hero into the 640 x 360 game image, its 2x blit, the HUD text), then ``finish()`` so the GPU work is inside
the measured time (software rendering here: Mesa llvmpipe). Median and 95th percentile over the run.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import arcade  # noqa: E402

from game.app import HEIGHT, WIDTH, Play  # noqa: E402
from game.menus import Ui  # noqa: E402
from game.runner import frames_of  # noqa: E402
from game.screen import PixelScreen  # noqa: E402
from game.session import Session  # noqa: E402


def main() -> None:
    width, height = (int(v) for v in sys.argv[1].split("x")) if len(sys.argv) > 1 else (WIDTH, HEIGHT)
    window = arcade.Window(width, height, "bench", visible=False, antialiasing=False)  # as the game's window
    segments = [(s["frames"], frozenset(s["hold"])) for s in json.loads((ROOT / "tests/game/demo_to_goal.json").read_text())]
    total = sum(n for n, _ in segments)
    session = Session.open(ROOT / "levels" / "demo.tmx")
    screen = PixelScreen(window)
    ui = Ui()
    ui.box = screen.box
    play = Play(session, screen)
    inputs = frames_of(segments)
    frame_ms, physics_ms = [], []
    for _ in range(total):
        start = time.perf_counter()
        held = next(inputs)
        play.previous_position = session.hero.position
        t0 = time.perf_counter()
        session.step(held)
        physics_ms.append((time.perf_counter() - t0) * 1e3)
        play.after_step()
        play.update_visuals(1 / 60, 1.0)
        play.draw(ui)
        window.ctx.finish()
        frame_ms.append((time.perf_counter() - start) * 1e3)
    window.close()
    reached = "goal reached" if session.complete else "goal NOT reached"
    print(f"demo at {width}x{height} (scale {screen.box.scale}), {total} frames ({reached})")
    print(f"  frame (update + draw)  median {statistics.median(frame_ms):6.2f} ms   p95 "
          f"{sorted(frame_ms)[int(0.95 * len(frame_ms))]:6.2f} ms")
    print(f"  physics per frame      median {statistics.median(physics_ms):6.3f} ms")


if __name__ == "__main__":
    main()
