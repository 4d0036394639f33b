"""Compiling the physics kernels ahead: ``engine.warm_up``, its background form and ``ledgekit warmup``."""

import io
import math
import subprocess
import sys
import time

from engine import warm_up, warmup
from engine.level.cli import main
from engine.warmup import WARM_UP_STAGES, BackgroundWarmUp


def test_warm_up_reports_every_stage_in_order_up_to_done():
    seen: list[tuple[float, str]] = []
    seconds = warm_up(lambda fraction, stage: seen.append((fraction, stage)))
    assert len(seen) == WARM_UP_STAGES
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert all(stage for _, stage in seen) and seconds >= 0.0


def test_background_warm_up_finishes_without_error():
    job = BackgroundWarmUp()
    deadline = time.monotonic() + 600
    while not job.done and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.done and job.error is None
    assert job.fraction == 1.0 and job.seconds is not None


BACKGROUND = """
import sys, time
from engine import BackgroundWarmUp, RigidBody, RoundedPolygon, World
from engine.world import jit
job = BackgroundWarmUp()
world = World()
world.add_segments([(-50, 0)], [(50, 0)])
world.add_body(RigidBody(RoundedPolygon.box(8, 8), (0, 30)))
steps_meanwhile, plain_at_first = 0, jit.running_plain()
assert job.playable
while not job.done:
    world.step(1 / 60)
    steps_meanwhile += 1
    time.sleep(0.005)
assert job.error is None, job.error
for _ in range(30):
    world.step(1 / 60)
print(plain_at_first, steps_meanwhile > 0, jit.running_plain(), job.fraction, round(world.bodies[0].position[1], 1))
"""


def test_a_game_plays_at_once_on_the_plain_kernels_then_switches_to_the_compiled_ones():
    done = subprocess.run([sys.executable, "-c", BACKGROUND], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False", "1.0", "10.0"]


LOADED = """
from engine import warm_up
from engine.world import jit
warm_up()
kernels = jit.kernels()
for name in ("narrow_phase.gather", "narrow_phase.warm_start", "contact_solver.solve", "island.rest_and_sleep",
             "broad_phase.awake_pairs", "rigid_step.step", "narrow_phase.body_boxes", "manifold.collide"):
    module, function = name.split(".")
    print(name, bool(getattr(getattr(kernels, module), function).signatures))
"""


def test_a_warm_start_loads_only_the_kernels_python_calls():
    """From a full disk cache (the session's warm-up filled it), the kernels only the compiled step calls are
    not loaded on their own: the step's cache entry holds their code, and loading them as well kept a second
    copy of it in every game's memory (8 MiB of 168, engine/README.md). Those Python calls are loaded."""
    done = subprocess.run([sys.executable, "-c", LOADED], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    loaded = dict(line.split() for line in done.stdout.splitlines())
    assert loaded == {"narrow_phase.gather": "False", "narrow_phase.warm_start": "False",
                      "contact_solver.solve": "False", "island.rest_and_sleep": "False",
                      "broad_phase.awake_pairs": "False", "rigid_step.step": "True",
                      "narrow_phase.body_boxes": "True", "manifold.collide": "True"}


def test_ledgekit_warmup_command_prints_progress_and_succeeds(capsys):
    assert main(["warmup"]) == 0
    out = capsys.readouterr().out
    assert "100%" in out and "ready in" in out


def test_ledgekit_warmup_on_a_machine_where_it_ran_says_it_loads(capsys):
    warm_up()  # (this version's kernels prepared on this machine: its stamp written)
    assert main(["warmup"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "loading" in first and "first time" not in first, first


def test_ledgekit_warmup_runs_as_an_installed_command():
    done = subprocess.run([sys.executable, "-m", "engine.level.cli", "warmup"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "ready in" in done.stdout


class _SlowCompile:
    """A stand-in for ``python -m engine.warmup``: reports the first stage after 0.2 s, the second after 1.4 s more
    (at their usual shares of the work)."""

    def __init__(self, *args, **kwargs):
        self.stderr = io.StringIO("")

    second_reported_at = math.inf
    """When the second report was handed over (``time.perf_counter``): the bar may pass its share after that."""

    @property
    def stdout(self):
        first, second = warmup._DONE_AFTER[:2]
        time.sleep(0.2)
        yield f"{first:.6f} manifolds\n"
        time.sleep(1.4)
        _SlowCompile.second_reported_at = time.perf_counter()
        yield f"{second:.6f} broad phase\n"

    def wait(self):
        return 0


def test_a_first_starts_progress_moves_steadily_between_the_stages_reports(monkeypatch):
    """The bar a game shows (``BackgroundWarmUp.fraction``) moves between two stages' reports, at the pace seen
    so far, without reaching the next stage's share before it is reported; and is 1.0 once done."""
    monkeypatch.setattr(warmup.subprocess, "Popen", _SlowCompile)
    monkeypatch.setattr(warmup, "_ready", False)
    monkeypatch.setattr(_SlowCompile, "second_reported_at", math.inf)
    job = BackgroundWarmUp(plain_meanwhile=False)
    seen = []  # (when, fraction)
    while not job.done:
        seen.append((time.perf_counter(), job.fraction))
        time.sleep(0.05)
    assert job.error is None and job.fraction == 1.0
    first, second = (round(f, 6) for f in warmup._DONE_AFTER[:2])
    between = [f for _, f in seen if first < f < second]  # (after the first report, before the second)
    assert len(between) > 10 and between == sorted(between) and len(set(between)) > 10
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions)
    # Before the second report it never reached the second stage's share (after it, loading the kernels takes a
    # while on a busy machine, and the bar moves on towards the third).
    assert max(f for at, f in seen if at < _SlowCompile.second_reported_at) < second


def test_a_cleared_kernel_cache_counts_as_a_first_start_again(tmp_path):
    """The kernels were prepared once (the stamp is there), then numba's disk cache went (a cleared
    ``__pycache__``, another ``NUMBA_CACHE_DIR``): a game must again play at once on the plain kernels while
    they compile, not freeze for minutes compiling in its own process with no word on screen."""
    import os

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    ask = [sys.executable, "-c", "from engine import first_start; print(first_start())"]
    prepare = [sys.executable, "-c", "from engine import warm_up; warm_up()"]
    subprocess.run(prepare, env=env, check=True, timeout=900)  # (loads, or compiles into the usual cache)
    assert subprocess.run(ask, env=env, capture_output=True, text=True).stdout.split() == ["False"]
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "empty cache")
    assert subprocess.run(ask, env=env, capture_output=True, text=True).stdout.split() == ["True"]


DECOY_GAME = """
import sys
sys.path.insert(0, {root!r})  # (the game's own engine, found before the folder it is started in)
import engine
from engine.warmup import BackgroundWarmUp
assert engine.__file__.startswith({root!r}), engine.__file__
print(BackgroundWarmUp().wait())
"""


def test_the_background_compile_compiles_the_engine_the_game_runs(tmp_path):
    """A game started in a folder that holds another ``engine`` package (a clone beside an installed copy, a
    user's own module of that name): the background process must compile the engine the game imported, not
    the one in the folder it was started from."""
    from pathlib import Path

    decoy = tmp_path / "engine"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("")
    (decoy / "warmup.py").write_text("raise SystemExit('the decoy engine ran')\n")
    root = str(Path(warmup.__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", DECOY_GAME.format(root=root)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None", done.stdout
