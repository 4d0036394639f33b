"""Not a test: plays the demo with a simple scripted policy and records the inputs that reach the goal.

Run: ``.venv/bin/python tests/game/make_demo_run.py`` -> writes tests/game/demo_to_goal.json. The test
suite replays that recording (test_demo_run.py); this script only made it.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.runner import Recorder  # noqa: E402
from game.session import Session  # noqa: E402


def policy(session, state):
    hero = session.hero
    world = session.world
    x, y = hero.position
    ferry = next(k for k in world.kinematic_bodies if k.name == "20")
    left_edge = ferry.position[0] - 48
    right_edge = ferry.position[0] + 48
    held = {"right"}
    if state.get("jump", 0) > 0:
        state["jump"] -= 1
        held.add("jump")
        return held
    on_ferry = hero.platform is ferry
    if on_ferry:
        if right_edge < 1800 or ferry.velocity[0] < 0:
            return set()  # ride it to the far edge
        state["jump"] = 8
        return {"right", "jump"}  # hop off onto the far side
    if 1470 < x < 1580 and hero.on_floor:
        if left_edge < 1550:
            return {"right"}  # the ferry is at this edge: walk on
        return set() if x > 1500 else {"right"}  # wait at the edge for the ferry to come back
    if hero.on_floor:
        ahead = world.static.ray_cast((x + 24, y), (0, -1), 120)
        wall = world.static.ray_cast((x, y - 8), (1, 0), 30)
        if ahead is None or wall is not None or hero.on_wall:
            state["jump"] = 14
            held.add("jump")
    return held


def main():
    session = Session.open(ROOT / "levels" / "demo.tmx")
    recorder = Recorder()
    state = {}
    for _ in range(60 * 60):
        held = frozenset(policy(session, state))
        recorder.add(held)
        session.step(held)
        if session.complete:
            break
    print(f"steps {session.steps}, complete {session.complete}, deaths {session.deaths}, "
          f"pickups {session.pickups}, hero at {session.hero.position}")
    if session.complete:
        recorder.save(Path(__file__).parent / "demo_to_goal.json")


if __name__ == "__main__":
    main()
