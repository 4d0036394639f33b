"""``python -m game``: the Ledgekit demo.

    python -m game [--level LEVEL] [--record FILE]
    python -m game --replay FILE [--level LEVEL]
    python -m game --headless --level LEVEL --frames N [--input FILE] [--record FILE] [--trace FILE]
                   [--screenshot FILE]

LEVEL is a map file's path or a shipped level's name (``demo``, ``1_hills_and_ledges``): the shipped levels
are package data (:mod:`game.data`), so these commands work from any folder.

Headless runs step N fixed physics steps (60 Hz) with no window (an offscreen one only for
``--screenshot``) and are deterministic: the same level and input give the same trace. ``--input`` and
``--record`` use one format, a JSON list of segments ``{"frames": 30, "hold": ["right", "jump"]}``
(actions: left, right, up, down, jump). ``--trace`` writes JSON lines, one per step. Exit status 0 on a
normal run; a bad level or input file prints a clear message and exits 2.

``--replay FILE`` plays an input file (or a recording) in the window: the level (``--level``, by default
the demo level) runs exactly the same physics steps as ``--headless --input FILE`` would.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from engine import BackgroundWarmUp, first_start
from engine.level.level import LevelError

from .data import find_level
from .runner import InputError, Recorder, frames_of, read_input
from .session import Session


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m game", description="The Ledgekit demo game.")
    parser.add_argument("--level", help="a level's path, or a shipped level's name such as demo "
                        "(default: the title screen's level select)")
    parser.add_argument("--headless", action="store_true", help="run without a window for --frames steps")
    parser.add_argument("--frames", type=int, help="fixed physics steps to run headless (60 per second)")
    parser.add_argument("--input", type=Path, help="JSON input segments to play (headless)")
    parser.add_argument("--record", type=Path, help="write the inputs played, in the --input format")
    parser.add_argument("--trace", type=Path, help="write one JSON line per step")
    parser.add_argument("--screenshot", type=Path, help="save a PNG of the last frame")
    parser.add_argument("--replay", type=Path, help="play an input file or recording in the window")
    args = parser.parse_args(argv)
    if args.headless:
        if args.level is None or args.frames is None:
            parser.error("--headless needs --level LEVEL and --frames N")
        if args.frames < 0:
            parser.error(f"--frames must be >= 0, got {args.frames}")
    elif args.frames is not None or args.input is not None or args.trace is not None:
        parser.error("--frames, --input and --trace go with --headless")
    if args.replay is not None and (args.headless or args.record is not None):
        parser.error("--replay plays in the window: use --headless --input FILE to run it without one")
    return args


def headless(args: argparse.Namespace) -> int:
    # A first start compiles the kernels in a background process while the run plays on the same kernels as
    # plain Python (the same numbers), from before the level is opened (opening it builds the world).
    warming = BackgroundWarmUp() if first_start() else None
    if warming is not None:
        print("compiling the physics kernels in the background (first start only); playing meanwhile, and"
              " waiting for it to finish before exiting",
              file=sys.stderr, flush=True)
    try:
        session = Session.open(find_level(args.level))
        segments = read_input(args.input) if args.input else []
    except (LevelError, InputError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    inputs = frames_of(segments)
    recorder = Recorder() if args.record else None
    trace = args.trace.open("w") if args.trace else None
    try:
        for _ in range(args.frames):
            held = next(inputs)
            if recorder is not None:
                recorder.add(held)
            session.step(held)
            if trace is not None:
                trace.write(json.dumps(session.trace(), separators=(",", ":")) + "\n")
    finally:
        if trace is not None:
            trace.close()
    if recorder is not None:
        recorder.save(args.record)
    if args.screenshot:
        screenshot(session, args.screenshot)
    state = "goal reached" if session.complete else "running"
    print(f"{args.frames} steps, {session.pickups} pickups, {session.deaths} deaths, {state}")
    failed = warming.wait() if warming is not None else None  # (the cache filled for the next start)
    if failed is not None:
        print(f"ledgekit: the physics kernels could not be compiled: {failed}", file=sys.stderr)
        return 1
    return 0


def screenshot(session: Session, path: Path) -> None:
    """The session's current frame, drawn in an offscreen window and saved as PNG."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    from .app import session_screenshot

    session_screenshot(session, path)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.headless:
        return headless(args)
    if args.replay is not None and args.level is None:
        args.level = "demo"
    if args.level is not None:
        try:
            args.level = find_level(args.level)
        except LevelError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    replay = None
    if args.replay is not None:
        try:
            replay = read_input(args.replay)
        except InputError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    return windowed(args, replay)


def windowed(args: argparse.Namespace, replay: list[tuple[int, frozenset[str]]] | None = None) -> int:
    """Open the game window and run until it closes; exit status 1 with a message when no window can open."""
    import arcade

    from .app import GameWindow

    try:
        GameWindow(args.level, args.record, replay=replay)
    except Exception as error:  # noqa: BLE001 - pyglet raises many types for "no display / no OpenGL"
        reason = (str(error) or type(error).__name__).splitlines()[0]
        print(f"error: cannot open the game window: {type(error).__name__}: {reason}\n"
              "  (it needs a display and OpenGL 3.3; without one, try --headless)", file=sys.stderr)
        return 1
    arcade.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
