"""All side-by-side benchmarks in one command, with the results written into engine/README.md (the maintainers' notes).

Run: ``.venv/bin/python tests/benchmarks/run_all.py [--quick] [--no-readme]``

Every timed scene runs Ledgekit and its reference in the same process, **interleaved**: Ledgekit, the
reference, Ledgekit, the reference, ... for ``repeats`` rounds (5; 2 with ``--quick``), after one untimed
warm-up run of each (imports, caches, compiled kernels). A round's value is the median of its steps (or
frames); a row reports the median of the rounds for each engine and the ratio Ledgekit / reference of those
medians, with the lowest and highest ratio of single rounds in brackets (the machine's noise). Nothing is
asserted: speed is measured here, never in tests.

Sections (each a function of a :class:`Plan`, the sizes and repeats; ``FULL``, ``QUICK``, and the tiny one
the runner's test uses):

* **controller**: one hero running and jumping over a 300-tile ground with 45-degree bumps, on levels of 1k
  (10k, 100k) segments; reference arcade ``PhysicsEnginePlatformer`` on the same tiles as sprites
  (``bench_controller.py``). A chart of cost against level size goes to
  ``assets/benchmarks/controller_scaling.png`` when the README is written and matplotlib is installed.
* **characters**: 1 / 10 / 50 / 200 characters on the 1k-segment level, each with its own controller;
  reference one ``PhysicsEnginePlatformer`` per character. Cost per character.
* **crates**: pyramids (10, 36, 105, 300, 990 crates) and random piles (10, 30, 100, 300, 1000 crates of a
  few sizes in a walled box, fixed seed) with sleep off in both engines; reference pymunk
  (``bench_crates.py``). And a 300-crate pyramid with sleep on, over 10 s.
* **seams**: a crate sliding over 100 separate tiles against one seamless floor; pymunk with box tiles and
  with its documented fix (segments joined by ``set_neighbors``) (``bench_seams.py``). Not timed.
* **level load**: a 1000 x 200 tile map: ``load_level`` + world + ``LevelRenderer`` against arcade's
  ``load_tilemap``; a random worst case for the loader (``load_level`` only); peak memory. In child
  processes (``bench_level_load.py``), so that each one's memory is its own.
* **demo frames**: frame time (update + draw) and physics time per frame on every level of the game's level
  select, offscreen (``bench_game.py``, a child process with the game's own window).

The table replaces the part of engine/README.md between ``<!-- benchmarks:start -->`` and
``<!-- benchmarks:end -->``. ``--quick`` (fewer sizes, steps and repeats; a smoke run of every section in
about a minute or two) only prints its table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import bench_controller  # noqa: E402
import bench_crates  # noqa: E402
import bench_seams  # noqa: E402

START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"
HEADER = ["| scene | Ledgekit | reference | ratio (Ledgekit / reference) | target |", "|---|---|---|---|---|"]


@dataclass(frozen=True)
class Plan:
    """What to run: repeats (rounds of the interleaved engines) and the sizes of each section."""

    repeats: int
    controller_steps: int
    level_segments: tuple[int, ...]
    crowds: tuple[int, ...]
    crowd_steps: int
    pyramid_bases: tuple[int, ...]
    pile_counts: tuple[int, ...]
    crate_steps: int
    sleep_base: int
    sleep_steps: int
    map_size: str
    random_map_size: str
    game_frames: int


FULL = Plan(repeats=5, controller_steps=bench_controller.STEPS, level_segments=(1_000, 10_000, 100_000),
            crowds=(1, 10, 50, 200), crowd_steps=bench_controller.CROWD_STEPS,
            pyramid_bases=bench_crates.PYRAMID_BASES, pile_counts=bench_crates.PILE_COUNTS, crate_steps=60,
            sleep_base=24, sleep_steps=600, map_size="1000x200", random_map_size="1000x200", game_frames=100_000)
QUICK = Plan(repeats=2, controller_steps=400, level_segments=(1_000, 10_000), crowds=(1, 10, 50), crowd_steps=120,
             pyramid_bases=(4, 8, 14), pile_counts=(10, 30, 100), crate_steps=30, sleep_base=14, sleep_steps=240,
             map_size="250x50", random_map_size="100x50", game_frames=200)


@dataclass
class Pair:
    """Each engine's value per round (same units), rounds interleaved."""

    ours: list[float]
    theirs: list[float]

    @property
    def median_ours(self) -> float:
        return statistics.median(self.ours)

    @property
    def median_theirs(self) -> float:
        return statistics.median(self.theirs)

    @property
    def ratio(self) -> float:
        return self.median_ours / self.median_theirs

    def ratio_text(self, digits: int = 2) -> str:
        """The ratio of the medians, and the range of the rounds' own ratios when there are several."""
        text = f"{self.ratio:.{digits}f}x"
        if len(self.ours) > 1:
            rounds = [a / b for a, b in zip(self.ours, self.theirs)]
            text += f" ({min(rounds):.{digits}f}-{max(rounds):.{digits}f})"
        return text


def interleaved(repeats: int, ours: Callable[[], float], theirs: Callable[[], float]) -> Pair:
    """``repeats`` rounds of Ledgekit then the reference, back to back in this process."""
    pair = Pair([], [])
    for _ in range(repeats):
        pair.ours.append(ours())
        pair.theirs.append(theirs())
    return pair


def median_us(times: list[float], per: int = 1) -> float:
    return statistics.median(times) * 1e6 / per


def row(scene: str, ours: str, reference: str, ratio: str, target: str = "report only",
        ok: bool | None = None) -> str:
    verdict = "" if ok is None else (": met" if ok else ": **missed**")
    return f"| {scene} | {ours} | {reference} | {ratio} | {target}{verdict} |"


# ------------------------------------------------------------------------------------------------ sections
def controller(plan: Plan) -> tuple[list[str], dict[int, tuple[float, float]]]:
    """One hero on levels of each size; returns the rows and, for the chart, the medians per size."""
    steps = plan.controller_steps
    warm = bench_controller.platform_runs(plan.level_segments[0])
    bench_controller.run_ledgekit(warm, 20)
    bench_controller.run_arcade(warm, 20)
    pairs = {}
    for n in plan.level_segments:
        runs = bench_controller.platform_runs(n)
        pairs[n] = interleaved(plan.repeats, lambda runs=runs: median_us(bench_controller.run_ledgekit(runs, steps)[0]),
                               lambda runs=runs: median_us(bench_controller.run_arcade(runs, steps)[0]))
    first, last = plan.level_segments[0], plan.level_segments[-1]
    one = pairs[first]
    rows = [row(f"controller step, one hero, 300-tile level with slopes ({first:,} segments), {steps} steps",
                f"{one.median_ours:.1f} us", f"arcade {one.median_theirs:.1f} us", one.ratio_text(), "<= 0.5x",
                one.ratio <= 0.5)]
    if len(pairs) > 1:
        growth = pairs[last].median_ours / one.median_ours
        sizes = " / ".join(f"{n // 1000}k" if n >= 1000 else str(n) for n in pairs)
        rows.append(row(f"controller scaling, {sizes} segments",
                        " / ".join(f"{p.median_ours:.1f}" for p in pairs.values()) + " us",
                        "arcade " + " / ".join(f"{p.median_theirs:.1f}" for p in pairs.values()) + " us",
                        " / ".join(p.ratio_text() for p in pairs.values()),
                        f"largest within 1.2x of smallest ({growth:.2f}x)", growth <= 1.2))
    return rows, {n: (p.median_ours, p.median_theirs) for n, p in pairs.items()}


def characters(plan: Plan) -> list[str]:
    """Crowds on the 1k-segment level: per-character cost of a frame."""
    runs = bench_controller.platform_runs(1_000)
    steps = plan.crowd_steps
    bench_controller.run_ledgekit_crowd(runs, 2, 10)
    bench_controller.run_arcade_crowd(runs, 2, 10)
    rows = []
    for count in plan.crowds:
        lowest: list[float] = []

        def ours(count=count, lowest=lowest) -> float:
            times, low = bench_controller.run_ledgekit_crowd(runs, count, steps)
            lowest.append(low)
            return median_us(times, count)

        def theirs(count=count) -> float:
            return median_us(bench_controller.run_arcade_crowd(runs, count, steps)[0], count)

        pair = interleaved(plan.repeats, ours, theirs)
        label = "character" if count == 1 else "characters"
        rows.append(row(f"{count} {label}, each with its own controller, 1k segments, per character",
                        f"{pair.median_ours:.1f} us", f"arcade {pair.median_theirs:.1f} us (one engine each)",
                        pair.ratio_text(), "report only; everyone stays on the level", min(lowest) > -8.0))
    return rows


def crates(plan: Plan) -> list[str]:
    """Pyramids and random piles with every crate awake, then one pyramid settling with sleep on."""
    steps = plan.crate_steps
    small = bench_crates.pyramid(3)
    bench_crates.run_ledgekit(small, 10)
    bench_crates.run_pymunk(small, 10)
    scenes = [bench_crates.pyramid(b) for b in plan.pyramid_bases] + [bench_crates.pile(n) for n in plan.pile_counts]
    rows = []
    for scene in scenes:
        moved: dict[str, list[float]] = {"ours": [], "theirs": []}

        def ours(scene=scene, moved=moved) -> float:
            times, distance, _ = bench_crates.run_ledgekit(scene, steps)
            moved["ours"].append(distance)
            return statistics.median(times) * 1e6

        def theirs(scene=scene, moved=moved) -> float:
            times, distance, _ = bench_crates.run_pymunk(scene, steps)
            moved["theirs"].append(distance)
            return statistics.median(times) * 1e6

        pair = interleaved(plan.repeats, ours, theirs)
        target, ok = "<= 2x pymunk", pair.ratio <= 2.0
        if len(scene.crates) >= 210:
            target += f" (stretch <= 1x: {'met' if pair.ratio <= 1.0 else 'not met'})"
        stand = ("", "")
        if "pyramid" in scene.name:
            stand = f" (max move {max(moved['ours']):.1f} px)", f" (max move {max(moved['theirs']):.1f} px)"
            target += "; standing: no crate moves half its size"
            ok = ok and max(moved["ours"]) < bench_crates.SIZE / 2
        rows.append(row(f"{scene.name}, step with all awake (sleep off), median of the first {steps}",
                        f"{pair.median_ours:.1f} us{stand[0]}", f"pymunk {pair.median_theirs:.1f} us{stand[1]}",
                        pair.ratio_text(2), target, ok))
    scene = bench_crates.pyramid(plan.sleep_base)
    awake: list[float] = []

    def settle_ours() -> float:
        times, _, _ = bench_crates.run_ledgekit(scene, plan.sleep_steps, sleep=True)
        awake.append(statistics.median(times[:60]))
        return statistics.median(times) * 1e6

    pair = interleaved(plan.repeats, settle_ours,
                       lambda: statistics.median(bench_crates.run_pymunk(scene, plan.sleep_steps, sleep=True)[0]) * 1e6)
    rows.append(row(f"{scene.name}, sleep on, median step of {plan.sleep_steps} (asleep once settled)",
                    f"{pair.median_ours:.0f} us", f"pymunk {pair.median_theirs:.1f} us", pair.ratio_text(1),
                    "far below the awake cost", pair.median_ours < 0.1 * statistics.median(awake) * 1e6))
    return rows


def seams() -> list[str]:
    s = bench_seams.all_slides(600.0)

    def off(name: str, seamless: str) -> float:
        return abs(s[name][0] - s[seamless][0]) / s[seamless][0] * 100

    def slide(name: str, seamless: str) -> str:
        distance, hop, tilt = s[name]
        return (f"{distance:.1f} px vs {s[seamless][0]:.1f} seamless ({off(name, seamless):.2f} %), hop {hop:.2f} px, "
                f"tilt {tilt:.3f} rad")

    ours = off("ledgekit tiles", "ledgekit seamless")
    return [row("crate slide over 100 separate tiles at 600 px/s, against one seamless floor",
                slide("ledgekit tiles", "ledgekit seamless"),
                f"pymunk box tiles: {slide('pymunk boxes', 'pymunk box seamless')}; pymunk segments with "
                f"set_neighbors: {slide('pymunk segments', 'pymunk segment seamless')}", "-",
                "within 1 %, no tilt", ours <= 1.0 and s["ledgekit tiles"][2] < 0.01)]


def child(script: str, *flags: str) -> dict:
    """The last line of a child benchmark's output, as JSON."""
    done = subprocess.run([sys.executable, str(HERE / script), "--json", *flags], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{script} {' '.join(flags)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def level_load(plan: Plan) -> list[str]:
    """Load times (interleaved rounds in one child), and Ledgekit's peak memory from a child of its own."""
    repeats = str(plan.repeats)
    terrain = child("bench_level_load.py", "--repeats", repeats, "--size", plan.map_size)
    scattered = child("bench_level_load.py", "--repeats", repeats, "--size", plan.random_map_size, "--layout", "random")
    ours_only = child("bench_level_load.py", "--repeats", "1", "--size", plan.map_size, "--ledgekit-only")
    loaded = Pair(terrain["rounds"]["ours_ms"], terrain["rounds"]["theirs_ms"])
    worst = Pair(scattered["rounds"]["load_ms"], scattered["rounds"]["theirs_ms"])
    return [
        row(f"level load, {terrain['tiles']} tiles ({terrain['segments']:,} segments): load_level + world + "
            "LevelRenderer", f"{loaded.median_ours:.0f} ms (load_level alone {terrain['load_ms']:.0f} ms)",
            f"arcade load_tilemap {loaded.median_theirs:.0f} ms", loaded.ratio_text(), "<= 0.5x", loaded.ratio <= 0.5),
        row(f"level load, {scattered['tiles']} random slope / block / one-way tiles (load_level only)",
            f"{worst.median_ours:.0f} ms", f"arcade load_tilemap {worst.median_theirs:.0f} ms", worst.ratio_text(),
            "load_level < 5 s", worst.median_ours < 5000),
        row(f"peak memory, level-load process ({terrain['tiles']} tiles)", f"{ours_only['peak_mib']:.0f} MiB",
            f"{terrain['peak_mib']:.0f} MiB with arcade's load in the same process too", "-", "report only"),
    ]


FRAME_GOAL_MS = 8.0
"""The demo's frame-time goal (update + draw, median, every level; half a 60 Hz frame)."""


def demo_frames(plan: Plan) -> tuple[list[str], str]:
    """One row per level of the game's level select; and the renderer's name."""
    out = child("bench_game.py", "--frames", str(plan.game_frames))
    rows = []
    for r in out["levels"]:
        goal = ", goal reached" if r["complete"] else ""
        rows.append(row(f"demo frame (update + draw), levels/{r['level']}, {r['run']} run, {r['frames']} frames{goal}, "
                        f"{out['window'][0]} x {out['window'][1]} offscreen",
                        f"frame median {r['frame_median_ms']:.1f} ms, p95 {r['frame_p95_ms']:.1f} ms; physics median "
                        f"{r['physics_median_ms']:.2f} ms, p95 {r['physics_p95_ms']:.2f} ms", "-", "-",
                        f"median <= {FRAME_GOAL_MS:g} ms", r["frame_median_ms"] <= FRAME_GOAL_MS))
    rows += [row(f"demo frame, levels/{name}", "does not load", "-", "-", "report only") for name in out["skipped"]]
    return rows, out.get("renderer", "")


# ------------------------------------------------------------------------------------------------ output
def chart(points: dict[int, tuple[float, float]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=110)
    sizes = sorted(points)
    ax.plot(sizes, [points[s][0] for s in sizes], marker="o", label="Ledgekit controller step")
    ax.plot(sizes, [points[s][1] for s in sizes], marker="s", label="arcade PhysicsEnginePlatformer.update")
    ax.set_xscale("log")
    ax.set_ylim(0, max(max(v) for v in points.values()) * 1.3)
    ax.set_xlabel("level size (segments)")
    ax.set_ylabel("median us per step")
    ax.set_title("Controller cost stays flat as the level grows")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def run(plan: Plan, progress: Callable[[str], None] = lambda _: None
        ) -> tuple[list[str], dict[int, tuple[float, float]], str]:
    """Every section in order; returns the table's rows, the controller's medians per level size, and the
    renderer the demo frames were drawn with."""
    progress("controller")
    rows, scaling = controller(plan)
    progress("characters")
    rows += characters(plan)
    progress("crates")
    rows += crates(plan)
    progress("seams")
    rows += seams()
    progress("level load")
    rows += level_load(plan)
    progress("demo frames")
    game_rows, renderer = demo_frames(plan)
    rows += game_rows
    return rows, scaling, renderer


def block(rows: list[str], note: str) -> str:
    return "\n".join([START, *HEADER, *rows, "", note, END])


def replace_block(text: str, new_block: str) -> str:
    """README text with the part between the markers (markers included) replaced by ``new_block``."""
    if START in text and END in text:
        return text[: text.index(START)] + new_block + text[text.index(END) + len(END):]
    return text.rstrip() + "\n\n## Benchmarks\n\n" + new_block + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer sizes, steps and repeats (a smoke run); prints the table, never writes the README")
    parser.add_argument("--no-readme", action="store_true", help="print the table only")
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    rows, scaling, renderer = run(plan, lambda name: print(f"... {name}", file=sys.stderr, flush=True))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    note = (f"Measured with `tests/benchmarks/run_all.py{' --quick' if args.quick else ''}` on {machine}"
            f"{', ' + renderer if renderer else ''}: Ledgekit and its reference interleaved, {plan.repeats} rounds each "
            "in one process; medians, ratio of the medians (the rounds' lowest and highest ratio in brackets).")
    write = not (args.quick or args.no_readme)
    if write and chart(scaling, ROOT / "assets" / "benchmarks" / "controller_scaling.png"):
        note += "\n\n![controller cost against level size](../assets/benchmarks/controller_scaling.png)"
    new_block = block(rows, note)
    print(new_block)
    if write:
        readme = ROOT / "engine" / "README.md"
        readme.write_text(replace_block(readme.read_text(), new_block))


if __name__ == "__main__":
    main()
