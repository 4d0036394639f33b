"""Not a test: plays each teaching level with a scripted pilot and records the inputs that reach the goal.

Run: ``.venv/bin/python tests/game/make_level_runs.py [LEVEL ...]`` -> writes tests/game/runs/<level>.json.
The test suite replays those recordings through the headless contract (test_level_runs.py); this script
only made them. A plan is a list of moves; each move is held until it says it is done.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.runner import Recorder  # noqa: E402
from game.session import Session  # noqa: E402

RUNS = Path(__file__).parent / "runs"
VERBOSE = bool(os.environ.get("VERBOSE"))


class Pilot:
    """Feeds a session one move at a time. A move is a generator function ``move(session)`` that yields the
    actions to hold each step and returns when it is done."""

    def __init__(self, session):
        self.session = session


def run(x, hop=True):
    """Run right to ``x`` (px), jumping over gaps and walls on the way when ``hop``."""
    def move(s):
        jumping = 0
        while s.hero.position[0] < x:
            held = {"right"}
            hx, hy = s.hero.position
            if jumping > 0:
                jumping -= 1
                held.add("jump")
            elif s.hero.on_floor and enemy_ahead(s):
                jumping = 10
                held.add("jump")
            elif hop and s.hero.on_floor:
                ahead = s.world.static.ray_cast((hx + 22, hy), (0, -1), 140)
                wall = s.world.static.ray_cast((hx, hy - 8), (1, 0), 24)
                if ahead is None or wall is not None:
                    jumping = 14
                    held.add("jump")
            yield held
    return move


def enemy_ahead(s):
    """An enemy (another character) a short run ahead, at the hero's height: time to jump on it."""
    hx, hy = s.hero.position
    return any(0 < c.position[0] - hx < 130 and abs(c.position[1] - hy) < 40
               for c in s.world.characters if c is not s.hero)


def ride(name, board_x, leave_x):
    """Wait at ``board_x`` for the moving platform ``name`` to come flush, ride it to ``leave_x``, walk off."""
    def move(s):
        ferry = kinematic(s, name)
        while not (ferry.position[0] - 48 < board_x + 8 and ferry.velocity[0] >= 0):
            yield set()
        while s.hero.platform is not ferry:
            yield {"right"}
        while ferry.position[0] < leave_x:
            x = s.hero.position[0]
            yield {"right"} if x < ferry.position[0] + 20 else set()
        while s.hero.platform is ferry:
            yield {"right"}
    return move


def lift(name, board_x, leave_x):
    """Wait beside the lift ``name`` until it is down, step on, ride it to the top, walk off right."""
    def move(s):
        platform = kinematic(s, name)
        bottom = platform.user_data.position[1]  # (where the map puts it, its lowest point)
        while s.hero.position[0] < board_x - 40:
            yield {"right"}
        while not (platform.velocity[1] < 0 and platform.position[1] < bottom + 24):
            yield set()  # wait until it is nearly back down there
        while s.hero.platform is not platform:
            yield {"right"} if s.hero.position[0] < platform.position[0] else set()
        while s.hero.position[0] < leave_x:  # against the wall, sliding up it, stepping off at the top
            yield {"right"}
    return move


def stomp():
    """Wait for the nearest enemy ahead to come walking close, jump straight up, and steer down onto it."""
    def move(s):
        hx = s.hero.position[0]
        enemy = min((c for c in s.world.characters if c is not s.hero and c.position[0] > hx),
                    key=lambda c: c.position[0] - hx)
        while not (enemy.velocity[0] < 0 and enemy.position[0] - s.hero.position[0] < 75):
            far = enemy.position[0] - s.hero.position[0] > 140
            yield {"right"} if far else set()
        for k in range(120):
            held = {"jump"} if k < 14 else set()
            dx = enemy.position[0] - s.hero.position[0]
            if s.hero.velocity[1] < 0 and abs(dx) > 2:
                held.add("right" if dx > 0 else "left")
            yield held
            if k > 5 and s.hero.on_floor:
                return
    return move


def drop_to(x):
    """Creep left off what the hero stands on towards ``x`` (px) and steer in the air to land over ``x``."""
    def move(s):
        while s.hero.on_floor and s.hero.position[0] > x:
            slow = abs(s.hero.velocity[0]) < 40  # a run off the edge would overshoot
            yield {"left"} if slow else set()
        while not s.hero.on_floor:
            hx = s.hero.position[0]
            yield {"left"} if hx > x + 2 else {"right"} if hx < x - 2 else set()
    return move


def walk_left(x):
    def move(s):
        while s.hero.position[0] > x:
            yield {"left"}
    return move


def hold(actions, frames):
    def move(s):
        for _ in range(frames):
            yield set(actions)
    return move


def jump(direction=("right",), frames=14):
    """Jump (holding ``direction``) and keep holding it until landed."""
    def move(s):
        for _ in range(frames):
            yield {"jump", *direction}
        for _ in range(5):
            yield set(direction)
        while not s.hero.on_floor:
            yield set(direction)
    return move


def jump_to(x, frames=14):
    """Jump, steering to stop over ``x`` (px), and wait until landed."""
    def move(s):
        for k in range(frames + 200):
            hx = s.hero.position[0]
            held = {"jump"} if k < frames else set()
            if hx < x - 6:
                held.add("right")
            elif hx > x + 6:
                held.add("left")
            yield held
            if k > 5 and s.hero.on_floor:
                return
    return move


def until(condition, actions=()):
    """Hold ``actions`` until ``condition(session)``."""
    def move(s):
        while not condition(s):
            yield set(actions)
    return move


def push_until_stuck():
    """Hold right until the hero has stopped moving (a crate pushed against a wall, or a stack that will not
    move): the x has changed by under a pixel over the last ten steps."""
    def move(s):
        xs = []
        while len(xs) < 10 or abs(xs[-1] - xs[-10]) >= 1.0:
            yield {"right"}
            xs.append(s.hero.position[0])
    return move


def climb():
    """Up a ladder to its top."""
    def move(s):
        yield {"up"}
        yield {"up"}
        while s.hero.velocity[1] > 1.0 or not s.hero.on_floor:
            yield {"up"}
    return move


def fly(s, plan, limit=60 * 240):
    recorder = Recorder()
    for index, move in enumerate(plan):
        if VERBOSE:
            print(f"  move {index}: step {s.steps} at {tuple(round(v) for v in s.hero.position)} deaths {s.deaths}")
        for held in move(s):
            held = frozenset(held)
            recorder.add(held)
            s.step(held)
            if s.complete or s.steps > limit:
                return recorder
    for _ in range(120):  # coast to the flag
        if s.complete:
            break
        recorder.add(frozenset({"right"}))
        s.step({"right"})
    return recorder


def kinematic(s, name):
    return next(k for k in s.world.kinematic_bodies if getattr(k.user_data, "name", None) == name)


def crate_near(s, x):
    return min(s.world.bodies, key=lambda b: abs(b.position[0] - x))


PLANS = {
    "1_hills_and_ledges": lambda s: [
        run(1300),
        run(1568, hop=False),
        jump_to(1568), jump_to(1568),  # up through the ledges on the cliff's face
        jump_to(1640),  # the cliff top
        run(1990, hop=False),
        hold({"down", "jump"}, 4),  # drop through the bridge
        until(lambda s: s.hero.on_floor),
        run(2540, hop=False),
        jump(),  # over the spikes (onto the middle ledge or past it)
        run(3740),  # over the hills and through the V
        run(3990, hop=False),
        jump_to(3990), jump_to(3990), jump_to(3990), jump_to(3990),  # up the one-way tower
        jump_to(4100),  # onto the mesa
        run(8100),  # down the long slope, over the hill country, over three gaps
        jump_to(8256),  # over the widest gap by its one-way ledge: onto it, along it, off it
        until(lambda s: s.hero.position[0] > 8250, ("right",)), jump_to(8430),
        run(8980, hop=False),
        jump_to(8980), jump_to(8980), jump_to(8980), jump_to(8980),  # up the ledges
        jump_to(9064),
        run(9500, hop=False),
        hold({"down", "jump"}, 4),  # down through the cave's three floors
        until(lambda s: s.hero.on_floor),
        run(9760, hop=False),
        hold({"down", "jump"}, 4),
        until(lambda s: s.hero.on_floor),
        run(10016, hop=False),
        hold({"down", "jump"}, 4),
        until(lambda s: s.hero.on_floor),
        run(11650),  # the valleys and gaps
        run(11890, hop=False),
        jump_to(11890), jump_to(11890), jump_to(11890), jump_to(11890), jump_to(12000),  # up to the summit
        run(14380),  # down it, over the spikes between the hills
        run(14440, hop=False), jump_to(14500), jump_to(14640),  # onto the step, up onto the bridge
        run(18700),  # across it, the valleys and the last hills to the flag
    ],
    "2_crates": lambda s: [
        run(400, hop=False),
        jump_to(464), jump_to(496), jump_to(560),  # crate, stack, wall top
        run(1060, hop=True),
        run(1400, hop=False),  # the crate goes ahead, under the ledge, against the wall
        push_until_stuck(),
        jump_to(1456), jump_to(1440), jump_to(1520),  # onto the crate, up through the ledge, to the top
        run(1760, hop=True),
        run(2180, hop=False),  # off the top, push the crate onto the spring: both fly up to the next floor
        until(lambda s: s.hero.on_floor, ("right",)),
        jump_to(2090),  # back over the crate, to push it
        drop_to(2110),  # (off its top, if the jump landed there: onto the ledge's last pixels, not the spring)
        run(2660, hop=False),  # push it to the wall, under the high ledge
        push_until_stuck(),
        jump_to(2704), jump_to(2690), jump_to(2790),  # onto the crate, up through the ledge, to the top
        run(3000),
        run(3640, hop=False),  # off the top, up to the pyramid
        push_until_stuck(),
        jump_to(3696), jump_to(3728), jump_to(3760), jump_to(3830),  # up the pyramid, onto the wall
        run(4600),
        run(4846, hop=False),  # the crate into the pit, onto the switch: the door opens
        hold((), 40),
        jump_to(5008),
        run(5100),
        run(5520, hop=False),  # up the ramp, the crate down the slope into the valley
        run(5760, hop=False),  # and across it to the far wall
        push_until_stuck(),
        jump_to(5840), jump_to(5900),  # onto the crate, onto the wall
        run(6200, hop=False),  # a crate to the next wall
        push_until_stuck(),
        jump_to(6256), jump_to(6320),
        run(6520, hop=False),  # and the next
        push_until_stuck(),
        jump_to(6576), jump_to(6640),
        run(7500),  # down the long slope
        run(7972, hop=False),  # the crate onto the second spring: both fly up
        until(lambda s: s.hero.on_floor, ("right",)),
        hold((), 60),  # (the crate lands ahead)
        drop_to(7990),  # (off its top, if the hero landed there: behind it, to push)
        run(8340, hop=False),  # push it under the ledge, against the wall
        push_until_stuck(),
        jump_to(8400), jump_to(8386), jump_to(8486),  # onto the crate, up through the ledge, to the top
        run(9150),  # down the slopes
        run(9390, hop=False),  # the last crate into the last pit: the last door opens
        hold((), 40),
        jump_to(9552),
        run(9700),
        run(10130, hop=False),  # up the ramp, the crate down into the valley
        run(10500, hop=False),  # across it
        push_until_stuck(),
        jump_to(10576), jump_to(10560), jump_to(10660),  # onto the crate, up through the ledge, to the top
        run(11300),  # down the slope
        run(11420, hop=False),
        push_until_stuck(),
        jump_to(11472), jump_to(11504), jump_to(11536), jump_to(11568), jump_to(11650),  # up the pyramid
        run(12300),  # down the slope
        run(12846, hop=False),  # the crate all the way to the last pit
        hold((), 40),
        jump_to(13072),
        run(13400),
    ],
    "3_machines": lambda s: [
        run(680),  # stomping the beetle on the way
        ride("ferry", 706, 1100),
        run(1456, hop=False),
        climb(),
        run(1960),  # over the bump, and the second beetle
        jump_to(2048), jump_to(2176), jump_to(2304), jump_to(2420),  # falling platforms
        run(3850),  # the switch opens the door ahead; down to the meadow
        lift("lift", 3936, 4060),
        stomp(),
        run(4440),  # over the bump
        run(4528, hop=False),  # onto the ladder's top
        hold({"down"}, 3),
        until(lambda s: s.hero.on_floor and s.hero.position[1] < 120, ("down",)),  # down the ladder
        run(5480),  # the switch, the door
        ride("slow ferry", 5506, 5964),
        run(6056, hop=False),
        ride("fast ferry", 6082, 6540),
        run(6800, hop=False),
        climb(),  # up the tower
        run(6930),  # over the bump
        until(lambda s: s.hero.on_floor),
        stomp(),  # the beetle
        run(7270, hop=False),
        jump_to(7360), jump_to(7488), jump_to(7616), jump_to(7744), jump_to(7850),  # falling platforms
        run(8208, hop=False),  # onto the ladder's top
        hold({"down"}, 3),
        until(lambda s: s.hero.on_floor and s.hero.position[1] < 120, ("down",)),
        run(8496, hop=False),
        climb(),  # up to the shelf
        run(9000, hop=False),  # over the switch, off the shelf, through the door it opened
        lift("fast lift", 9344, 9470),
        stomp(), stomp(),  # the plateau's beetles
        run(10150),  # over the bump
        run(10192, hop=False),  # onto the long ladder's top
        hold({"down"}, 3),
        until(lambda s: s.hero.on_floor and s.hero.position[1] < 120, ("down",)),
        run(10470),
        ride("last ferry", 10498, 10828),
        run(11400),  # to the flag
    ],
}


def main(names):
    RUNS.mkdir(exist_ok=True)
    for name in names or PLANS:
        s = Session.open(ROOT / "levels" / f"{name}.tmx")
        recorder = fly(s, PLANS[name](s))
        print(f"{name}: steps {s.steps}, complete {s.complete}, deaths {s.deaths}, pickups {s.pickups}/"
              f"{s.pickup_total}, hero at {tuple(round(v) for v in s.hero.position)}")
        if s.complete:
            recorder.save(RUNS / f"{name}.json")


if __name__ == "__main__":
    main(sys.argv[1:])
