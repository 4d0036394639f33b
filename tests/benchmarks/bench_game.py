"""Game frame benchmark (not a test): frame time of the demo game on each of its levels, headless, and
physics ms per frame.

Run: ``.venv/bin/python tests/benchmarks/bench_game.py [--size WIDTHxHEIGHT] [--frames N] [--json]``
(``--size 1920x1080`` shows the game at 3x)

Opens the game's own window (``game.app.GameWindow``, offscreen, settings from an empty config folder) at
its starting size (1280 x 720) and plays every level of its level select (``GameWindow.levels``: the
``.tmx`` files in ``levels/`` that the title screen lists; levels that do not load are skipped and named).
A level with a recorded run (``tests/game/runs/<level>.json``, or ``tests/game/<level>_to_goal.json`` for the
demo) plays that, to its goal; any other
level plays a scripted run: right held, jump pressed for 15 frames every 1.5 s. Each frame is one physics
step (``Session.step``) plus the visuals update and a full draw (tiles, things, hero into the 640 x 360 game
image, its 2x blit, the HUD text), then ``ctx.finish()`` so the GPU work is inside the measured time
(software rendering here: Mesa llvmpipe). Reported per level: median and 95th percentile frame time and
the median physics time per frame, over at most ``--frames`` frames. The physics time is the thread's CPU
time (``time.thread_time_ns``: the physics runs on this thread, and a busy machine's other processes do not
count); the frame time is wall-clock time, as a player sees it (the drawing also runs on the GL driver's
threads, which the thread's CPU time would miss).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

RECORDINGS = ROOT / "tests" / "game"
SCRIPTED_FRAMES = 1200
"""Frames of the scripted run of a level without a recording (20 s)."""


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def inputs_for(level: Path) -> tuple[str, list[tuple[int, frozenset[str]]]]:
    """The run to play on ``level``: ("recorded", segments) or ("scripted", segments)."""
    for recording in (RECORDINGS / "runs" / f"{level.stem}.json", RECORDINGS / f"{level.stem}_to_goal.json"):
        if recording.exists():
            return "recorded", [(s["frames"], frozenset(s["hold"])) for s in json.loads(recording.read_text())]
    segments, left = [], SCRIPTED_FRAMES
    while left > 0:
        for frames, held in ((15, frozenset({"right", "jump"})), (75, frozenset({"right"}))):
            segments.append((min(frames, left), held))
            left -= segments[-1][0]
            if left <= 0:
                break
    return "scripted", segments


def play_level(window, path: Path, frames: int) -> dict:
    """Frame and physics times of one level's run in ``window`` (a ``GameWindow``)."""
    from game.app import Play
    from game.runner import frames_of
    from game.session import Session

    kind, segments = inputs_for(path)
    total = min(frames, sum(n for n, _ in segments))
    session = Session.open(path)
    play = Play(session, window.pixels)
    inputs = frames_of(segments)
    frame_ms, physics_ms = [], []
    for _ in range(total):
        start = time.perf_counter()
        held = next(inputs)
        play.previous_position = session.hero.position
        t0 = time.thread_time_ns()
        session.step(held)
        physics_ms.append((time.thread_time_ns() - t0) * 1e-6)
        play.after_step()
        play.update_visuals(1 / 60, 1.0)
        play.draw(window.ui)
        window.ctx.finish()
        frame_ms.append((time.perf_counter() - start) * 1e3)
    return {"level": path.name, "run": kind, "frames": total, "complete": session.complete,
            "frame_median_ms": statistics.median(frame_ms), "frame_p95_ms": p95(frame_ms),
            "physics_median_ms": statistics.median(physics_ms), "physics_p95_ms": p95(physics_ms)}


def run(frames: int, size: tuple[int, int] | None = None, only: list[str] | None = None) -> dict:
    """Every level of the game's level select (or those named in ``only``), in the game's window."""
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="ledgekit-bench-config-")  # the default settings
    from game.app import GameWindow, level_entries

    window = GameWindow()
    try:
        if size:
            window.set_size(*size)
            window.on_resize(*size)
        levels = [p for p in window.levels if only is None or p.name in only]
        playable = {e.file for e in level_entries(levels) if e.coins is not None}
        results = [play_level(window, p, frames) for p in levels if p.name in playable]
        return {"window": list(window.get_size()), "scale": window.pixels.box.scale, "levels": results,
                "renderer": str(window.ctx.info.RENDERER),
                "skipped": [p.name for p in levels if p.name not in playable]}
    finally:
        window.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", help="window size WIDTHxHEIGHT (default: the game's starting size)")
    parser.add_argument("--frames", type=int, default=100_000, help="at most this many frames per level")
    parser.add_argument("--level", action="append", help="only this level (file name; may repeat)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x")) if args.size else None
    out = run(args.frames, size, args.level)  # type: ignore[arg-type]
    if args.json:
        print(json.dumps(out))
        return
    print(f"window {out['window'][0]}x{out['window'][1]} (scale {out['scale']}), {out['renderer']}")
    for r in out["levels"]:
        print(f"{r['level']}: {r['run']} run, {r['frames']} frames (goal {'reached' if r['complete'] else 'not reached'})")
        print(f"  frame (update + draw)  median {r['frame_median_ms']:6.2f} ms   p95 {r['frame_p95_ms']:6.2f} ms")
        print(f"  physics per frame      median {r['physics_median_ms']:6.3f} ms   p95 {r['physics_p95_ms']:6.3f} ms")
    for name in out["skipped"]:
        print(f"{name}: skipped (does not load)")


if __name__ == "__main__":
    main()
