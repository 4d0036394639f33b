"""Game physics side by side (not a test): one level's recorded run played without drawing by two checkouts
at once, frame by frame in turn, to compare the physics time per frame of a change against its base on a busy
machine, and to check that the change keeps the physics as it was.

Run: ``.venv/bin/python tests/benchmarks/bench_game_side.py BASE_CHECKOUT OTHER_CHECKOUT [--level 3_machines]
[--rounds 3] [--frames N]`` (each checkout with its own ``.venv``, or this one's Python when it has none)

Each checkout runs in a process of its own (``--worker``) that plays ``tests/game/runs/<level>.json`` on
``levels/<level>.tmx`` with a :class:`game.session.Session` and answers each "step" with the thread's CPU time
of that ``Session.step`` (``time.thread_time_ns``: other processes on the machine do not count) and a hash of
the state after it (the hero, every body and platform, the traced events). The two step the same frame one
after the other, in alternating order, so a busy moment hits both; per round (the whole run, or ``--frames``)
it prints both medians and their ratio, and at the end whether the states were identical every frame.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TextIO


def state_hash(session: Any) -> str:
    """The bits of what a player sees move after a step: the hero's place, speed and contacts, every rigid and
    kinematic body's place, angle and speed, and the traced events."""
    digest = hashlib.sha256()
    hero = session.hero
    digest.update(struct.pack("<4d", *hero.position, *hero.velocity))
    digest.update(bytes([hero.on_floor, hero.on_wall, hero.on_ceiling]))
    for body in [*session.world.bodies, *session.world.kinematic_bodies]:
        digest.update(struct.pack("<5d", *body.position, body.angle, *body.velocity))
    digest.update(repr(session.events).encode())
    return digest.hexdigest()[:16]


def worker(root: Path, level: str) -> None:
    """Play ``level``'s recorded run in checkout ``root``, a frame per "step" line on stdin ("reset": from the
    start again); writes "<thread CPU ns> <state hash> <goal reached 0/1>" per frame."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    sys.path.insert(0, str(root))
    os.chdir(root)
    from game.runner import frames_of
    from game.session import Session

    runs = json.loads(Path(f"tests/game/runs/{level}.json").read_text())
    segments = [(run["frames"], frozenset(run["hold"])) for run in runs]
    Session.open(f"levels/{level}.tmx").step(frozenset())  # (the kernels ready before the first timed frame)
    session, inputs = Session.open(f"levels/{level}.tmx"), frames_of(segments)
    print(json.dumps({"frames": sum(n for n, _ in segments)}), flush=True)
    for line in sys.stdin:
        if line.strip() == "reset":
            session, inputs = Session.open(f"levels/{level}.tmx"), frames_of(segments)
            print("ok", flush=True)
            continue
        held = next(inputs)
        start = time.thread_time_ns()
        session.step(held)
        spent = time.thread_time_ns() - start
        print(f"{spent} {state_hash(session)} {int(session.complete)}", flush=True)


def _start(root: Path, level: str) -> tuple[subprocess.Popen[str], int]:
    python = root / ".venv" / "bin" / "python"
    command = [str(python if python.exists() else sys.executable), __file__, "--worker", str(root), "--level", level]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert process.stdout is not None
    return process, int(json.loads(process.stdout.readline())["frames"])


def _ask(process: subprocess.Popen[str], line: str) -> str:
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    stdin.write(line + "\n")
    return stdout.readline()


def side_by_side(base: Path, other: Path, level: str, rounds: int, frames: int | None, out: TextIO) -> bool:
    """Play both, frame by frame in turn, ``rounds`` times; print each round's medians (ms); returns whether
    the two states were identical after every frame."""
    (first, total), (second, _) = _start(base, level), _start(other, level)
    total = min(total, frames or total)
    identical = True
    for round_ in range(rounds):
        times: dict[int, list[float]] = {id(first): [], id(second): []}
        for frame in range(total):
            order = (first, second) if (frame + round_) % 2 == 0 else (second, first)
            answers = {}
            for process in order:
                spent, state, complete = _ask(process, "step").split()
                times[id(process)].append(int(spent) * 1e-6)
                answers[id(process)] = (state, complete)
            if answers[id(first)] != answers[id(second)] and identical:
                identical = False
                print(f"round {round_}, frame {frame}: the states differ", file=out)
        a, b = statistics.median(times[id(first)]), statistics.median(times[id(second)])
        print(f"round {round_}: {total} frames, physics median base {a:.3f} ms, other {b:.3f} ms, "
              f"ratio {b / a:.3f}; goal reached {answers[id(first)][1]}/{answers[id(second)][1]}", file=out, flush=True)
        for process in (first, second):
            _ask(process, "reset")
    print("states identical every frame" if identical else "states differ", file=out)
    for process in (first, second):
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    return identical


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?", help="the checkout to compare against")
    parser.add_argument("other", nargs="?", help="the checkout with the change")
    parser.add_argument("--level", default="3_machines", help="a level with a recorded run (tests/game/runs)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--frames", type=int, help="at most this many frames a round (default: the whole run)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(Path(args.worker), args.level)
        return
    if not (args.base and args.other):
        parser.error("give two checkouts: BASE OTHER")
    same = side_by_side(Path(args.base).resolve(), Path(args.other).resolve(), args.level, args.rounds, args.frames,
                        sys.stdout)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
