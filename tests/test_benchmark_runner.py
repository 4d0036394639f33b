"""The benchmark runner does not rot: every section of ``tests/benchmarks/run_all.py`` (the building blocks
its ``--quick`` mode runs) runs here on tiny sizes and gives well-formed table rows, the scenes are the same
for every engine, each engine computes on the thread whose CPU time is read, and each memory reading's
process holds only its own side. Nothing here asserts on speed: the times these runs measure are thrown
away."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import bench_controller  # noqa: E402
import bench_crates  # noqa: E402
import bench_scale  # noqa: E402
import run_all  # noqa: E402

TINY = run_all.Plan(repeats=2, controller_steps=5, level_segments=(100, 200), crowds=(1, 3), crowd_steps=5,
                    pyramid_bases=(2,), pile_counts=(4,), crate_steps=3, settled_counts=(6,), settle_seconds=0.1,
                    sleep_base=2, sleep_steps=5, map_size="20x10", random_map_size="10x6", sleepers=(3,),
                    platforms=(2,), sensors=(3,), adds=(5, 10), scale_steps=3, game_frames=3)


def well_formed(rows: list[str], header: list[str] = run_all.HEADER) -> None:
    assert rows
    for line in rows:
        assert line.startswith("| ") and line.endswith(" |"), line
        cells = line[2:-2].split(" | ")
        assert len(cells) == len(header[0][2:-2].split(" | ")), line
        assert all(cell.strip() for cell in cells), line
        assert "nan" not in line.lower(), line


def test_the_full_plan_interleaves_at_least_five_rounds_and_the_quick_one_is_smaller():
    assert run_all.FULL.repeats >= 5
    assert run_all.FULL.crowds == (1, 10, 50, 200)
    assert run_all.FULL.pile_counts == (10, 30, 100, 300, 1000, 5000)
    assert run_all.FULL.settled_counts == (1000, 5000) and run_all.FULL.settle_seconds >= 3.0
    assert [b * (b + 1) // 2 for b in run_all.FULL.pyramid_bases] == [10, 36, 105, 300, 990]
    assert run_all.FULL.sleepers == (1_000, 10_000) and run_all.FULL.platforms == (100, 1_000)
    assert run_all.FULL.sensors == (1_000, 10_000) and run_all.FULL.adds == (1_000, 10_000)
    for f in fields(run_all.Plan):
        quick, full = getattr(run_all.QUICK, f.name), getattr(run_all.FULL, f.name)
        if isinstance(full, tuple):
            assert set(quick) <= set(full), f.name
        elif isinstance(full, int):
            assert quick <= full, f.name


def test_rounds_alternate_the_engines():
    calls: list[str] = []
    pair = run_all.interleaved(3, lambda: calls.append("ours") or 2.0, lambda: calls.append("theirs") or 4.0)
    assert calls == ["ours", "theirs"] * 3
    assert pair.ratio == 0.5 and pair.ratio_text() == "0.50x (0.50-0.50)"
    calls.clear()
    pairs = run_all.interleaved_all(2, lambda: calls.append("ours") or 2.0,
                                    {"pymunk": lambda: calls.append("pymunk") or 1.0,
                                     "box2d": lambda: calls.append("box2d") or 4.0})
    assert calls == ["ours", "pymunk", "box2d"] * 2
    assert pairs["pymunk"].ratio == 2.0 and pairs["box2d"].ratio == 0.5


@pytest.mark.parametrize("engine", bench_crates.ENGINES)
def test_every_engine_steps_on_the_calling_thread(engine):
    """The runner reads the thread's CPU time: an engine that stepped on other threads would look free. Its
    steps start no thread, and the process's CPU time over them is the thread's."""
    sim = bench_crates.SIMS[engine](bench_crates.pyramid(14), False)
    threads = len(os.listdir("/proc/self/task"))
    process, thread = time.process_time(), time.thread_time()
    for _ in range(40):
        sim.step()
    process, thread = time.process_time() - process, time.thread_time() - thread
    assert len(os.listdir("/proc/self/task")) == threads
    assert process <= thread * 1.2 + 0.02


def test_controller_and_character_sections():
    rows, scaling = run_all.controller(TINY)
    well_formed(rows)
    assert sorted(scaling) == [100, 200] and len(rows) == 2
    rows = run_all.characters(TINY)
    well_formed(rows)
    assert len(rows) == 2


def test_crowds_get_the_same_starts_and_jumps_in_both_engines():
    runs = bench_controller.platform_runs(100)
    times, lowest = bench_controller.run_ledgekit_crowd(runs, 3, 40)
    arcade_times, arcade_lowest = bench_controller.run_arcade_crowd(runs, 3, 40)
    assert len(times) == len(arcade_times) == 40
    assert lowest > -8.0 and arcade_lowest > -8.0  # landed on the ground, no one fell through


def test_crate_section_has_a_column_for_each_engine():
    rows, points = run_all.crates(TINY)
    well_formed(rows, run_all.CRATE_HEADER)
    assert len(rows) == 4  # a pyramid, a falling pile, a settled pile, the pyramid settling with sleep on
    assert "settled" in rows[2] and "fastest crate" in rows[2] and "sleep on" in rows[3]
    for line in rows[:3]:
        assert line.count(" us") >= 3  # Ledgekit, pymunk and Box2D v3 each timed
    for kind in ("pyramid", "pile", "settled pile"):
        assert sorted(points[kind]) == sorted(bench_crates.ENGINES)
        assert all(len(v) == 1 and v[0][1] > 0 for v in points[kind].values())


def test_crate_chart_draws_the_three_engines(tmp_path):
    pytest.importorskip("matplotlib")
    points = {kind: {e: [(10, 20.0 + k), (100, 200.0 + k)] for k, e in enumerate(bench_crates.ENGINES)}
              for kind in ("pyramid", "pile", "settled pile")}
    assert run_all.crate_chart(points, tmp_path / "crates.png")
    assert (tmp_path / "crates.png").read_bytes()[:4] == b"\x89PNG"


def test_crate_scenes_are_seeded_and_built_alike_in_every_engine():
    scene = bench_crates.pile(30)
    assert scene.crates == bench_crates.pile(30).crates and len(scene.crates) == 30
    assert len({(w, h) for w, h, *_ in scene.crates}) > 1  # a few sizes
    world, bodies = bench_crates.ledgekit_world(scene, sleep=False)
    space, pm_bodies = bench_crates.pymunk_space(scene, sleep=False)
    assert len(bodies) == len(pm_bodies) == 30
    ours = [v for b in bodies for v in (*b.position, b.angle)]
    theirs = [v for b in pm_bodies for v in (*b.position, b.angle)]
    assert ours == pytest.approx(theirs)
    assert len(world.static) >= 3 and len(space.static_body.shapes) == 3
    _, b2_bodies = bench_crates.box2d_world(scene, sleep=False)
    metre = bench_crates.PIXELS_PER_METRE
    box2d = [v for b in b2_bodies for v in (b.position[0] * metre, b.position[1] * metre, b.angle)]
    assert box2d == pytest.approx(ours, abs=1e-3)  # (Box2D keeps 32-bit floats)
    masses = [b.mass for b in bodies]
    # (Box2D's mass of a rounded polygon approximates the rounded corners: 0.3 % heavier on a 16 px crate)
    assert [b.mass for b in b2_bodies] == pytest.approx(masses, rel=5e-3)
    assert len(bench_crates.pyramid(44).crates) == 990


def test_a_settled_pile_has_come_to_rest_in_every_engine():
    for engine in bench_crates.ENGINES:
        sim = bench_crates.settled(engine, bench_crates.pile(30), 3.0)
        assert max(sim.speeds()) < 30.0, engine  # px/s: resting, not falling (fallen crates reach ~1,000)
        assert sim.asleep() == 0, engine  # sleep off: every crate is still solved


def test_seam_section():
    rows = run_all.seams()
    well_formed(rows)
    assert "set_neighbors" in rows[0]


def test_level_load_section():
    rows = run_all.level_load(TINY)
    well_formed(rows)
    assert len(rows) == 4
    assert "LevelRenderer" in rows[1] and "arcade alone" in rows[2] and "400 MiB" in rows[3]


def test_each_memory_reading_holds_only_its_own_side(tmp_path):
    script = str(BENCHMARKS / "bench_level_load.py")
    path = subprocess.run([sys.executable, script, "--write-map", str(tmp_path / "m"), "--size", "12x8"],
                          capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]

    def imported(flag: str) -> list[str]:
        out = subprocess.run([sys.executable, script, "--json", "--repeats", "1", "--size", "12x8", "--map", path, flag],
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])["imported"]

    assert imported("--arcade-only") == ["arcade"]
    assert imported("--world-only") == ["engine"]
    for engine, module in (("pymunk", "pymunk"), ("box2d", "pyb2d3")):
        out = subprocess.run([sys.executable, str(BENCHMARKS / "bench_memory.py"), engine], capture_output=True,
                             text=True, check=True)
        reading = json.loads(out.stdout.strip().splitlines()[-1])
        assert reading["imported"] == [module] and reading["rss_mib"] > 0


def test_scale_section():
    rows = run_all.scale(TINY)
    well_formed(rows)
    assert len(rows) == 6  # sleepers, platforms, sensors, two add_body sizes, memory
    assert "3 sleeping crates (3 asleep after the timing)" in rows[0]
    assert "a platform" in rows[1] and "a sensor" in rows[2]
    assert "linear" in rows[4] and "150 MiB" in rows[5]


def test_scale_scenes_are_what_their_rows_say():
    """The crate stays awake and moving, the sleepers stay asleep, and the platforms and sensors are out of its
    reach, over 2 s of timed steps."""
    lying = bench_scale.sleepers(250)
    assert lying.asleep == 250
    assert len(lying.run(120)) == 120
    assert lying.asleep == 250 and not lying.crate.sleeping
    assert abs(lying.crate.velocity[0]) > 100.0  # px/s: sliding (pushed at 200 before each step)
    far = bench_scale.platforms(150)
    far.run(120)
    assert min(math.dist(k.position, far.crate.position) for k in far.world.kinematic_bodies) > 10_000.0
    unreached = bench_scale.sensors(150)
    unreached.run(120)
    assert min(math.dist(s.position, unreached.crate.position) for s in unreached.world.sensors) > 10_000.0


def test_demo_section_plays_every_level_of_the_level_select():
    rows, renderer = run_all.demo_frames(TINY)
    well_formed(rows)
    shipped = sorted(p.name for p in (run_all.ROOT / "levels").glob("*.tmx"))
    assert len(rows) == len(shipped)
    assert all(any(f"levels/{name}" in r for r in rows) for name in shipped)
    assert isinstance(renderer, str)


def test_the_table_replaces_only_the_part_between_the_markers():
    text = f"intro\n\n{run_all.START}\nold table\n{run_all.END}\n\nafter\n"
    new = run_all.block([run_all.Table("t", run_all.HEADER, ["| a | b | c | d | e |"])], "note")
    out = run_all.replace_block(text, new)
    assert out.startswith("intro\n\n" + run_all.START) and out.endswith(run_all.END + "\n\nafter\n")
    assert "old table" not in out and "| a | b | c | d | e |" in out
    readme = (run_all.ROOT / "engine" / "README.md").read_text()
    assert readme.count(run_all.START) == 1 and readme.count(run_all.END) == 1
