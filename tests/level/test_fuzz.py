"""A seeded mutation fuzzer over the shipped maps (and the JSON fixture map): every mutated map either loads
or is refused with a LevelError that says something; never another exception, never a hang. The counts are
printed (run with ``-s`` to see them) and checked to add up. A map that loads is also played for a few steps (its
world built, the hero at the spawn): what ``check`` passes must run."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import traceback
from collections import Counter
from pathlib import Path

import pytest

from engine.level.level import LevelError, load_level

ROOT = Path(__file__).resolve().parents[2]
FORMATS = Path(__file__).parent / "fixtures" / "formats"
VARIANTS = int(os.environ.get("LEDGEKIT_FUZZ_VARIANTS", "300"))
"""A few hundred in CI (seconds); set LEDGEKIT_FUZZ_VARIANTS (and LEDGEKIT_FUZZ_SEED) for a longer run."""
SECONDS_PER_VARIANT = 10

HOSTILE_NUMBERS = ["nan", "inf", "-inf", "1e308", "-1e308", "1e-308", "-1", "0", "4294967295", "99999999999999999999",
                   "", "abc", "1e19", "0x10", "2147483650", "-0", "3.5", "1" * 400]
HOSTILE_TEXT = ["", "/dev/zero", "/dev/urandom", ".", "..", "../../../../etc/passwd", "nowhere.tsx", "\u0000", "x" * 5000,
                "Crate", "Solid", "MovingPlatform", "Spawn", "isometric", "hexagonal", "base64", "zlib", "zstd", "class"]


def mutate_xml(text: str, rng: random.Random) -> str:
    """One random change to an XML file's text: an attribute's value, a dropped / doubled / nested element,
    a cut, a stray byte sequence, a DOCTYPE."""
    choice = rng.randrange(8)
    attrs = list(re.finditer(r'(\w+)="([^"]*)"', text))
    if choice <= 2 and attrs:
        m = rng.choice(attrs)
        value = rng.choice(HOSTILE_NUMBERS if choice < 2 else HOSTILE_TEXT)
        value = value.replace("&", "&amp;").replace('"', "&quot;").replace("\u0000", "&#0;")
        return text[:m.start(2)] + value + text[m.end(2):]
    elements = list(re.finditer(r"<(\w+)[^<>]*/>|<(\w+)[^<>]*>[^<]*</\2>", text))
    if choice == 3 and elements:
        m = rng.choice(elements)
        return text[:m.start()] + text[m.end():]
    if choice == 4 and elements:
        m = rng.choice(elements)
        return text[:m.end()] + m.group(0) * rng.choice([2, 50]) + text[m.end():]
    if choice == 5:
        cut = rng.randrange(len(text))
        return text[:cut]
    if choice == 6 and elements:
        m = rng.choice(elements)
        depth = rng.choice([3, 70, 1000])
        return text[:m.start()] + "<group>" * depth + m.group(0) + "</group>" * depth + text[m.end():]
    junk = rng.choice(['<!DOCTYPE map SYSTEM "map.dtd">', "<!ENTITY a 'b'>", "&#xD800;", "\ufeff", "<?xml?>", "]]>",
                       '<polygon points="0,0 1e308,0 0,1"/>', '<property name="gravity" type="float" value="nan"/>'])
    where = rng.randrange(len(text))
    return text[:where] + junk + text[where:]


def mutate_json(text: str, rng: random.Random) -> str:
    """One random change to a JSON file: a value replaced, a key or list item dropped, a cut."""
    if rng.random() < 0.15:
        return text[:rng.randrange(len(text))]
    data = json.loads(text)
    slots: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                slots.append((node, key))
                walk(value)
        elif isinstance(node, list):
            for k, value in enumerate(node):
                slots.append((node, k))
                walk(value)

    walk(data)
    container, key = rng.choice(slots)
    if rng.random() < 0.25 and isinstance(container, dict):
        del container[key]
    else:
        pool = [1e308, -1, 0, 4294967295, 2**70, "nan", "", "/dev/zero", None, [], {}, True, 1.5, "x" * 100]
        container[key] = rng.choice(pool)  # type: ignore[index]
    return json.dumps(data)


def play(level) -> None:
    """What the game does with a level that loaded: build its world, put the hero at the spawn, step five times;
    nothing may be non-finite."""
    import math

    from engine.geometry import RoundedPolygon

    coords = [v for ring in level.solid_rings for p in ring for v in p] + [v for e in level.entities for v in e.position]
    assert all(math.isfinite(v) for v in coords), "non-finite geometry in a loaded level"
    world = level.build_world()
    hero = world.add_character(RoundedPolygon.box(10, 16, 2), level.spawn)
    for _ in range(5):  # a crash or a NaN shows in the first steps; more only costs CI time
        world.step(1 / 60)
    assert all(math.isfinite(v) for v in hero.position), "the hero left the finite plane"


def _alarm(signum, frame):  # noqa: ARG001
    raise TimeoutError("variant took too long")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers to catch a hang")
def test_mutated_maps_load_or_fail_cleanly(tmp_path):
    rng = random.Random(int(os.environ.get("LEDGEKIT_FUZZ_SEED", "13")))
    (tmp_path / "levels").mkdir()
    shutil.copytree(ROOT / "assets", tmp_path / "assets", ignore=shutil.ignore_patterns("benchmarks", "*.wav", "*.ogg"))
    sources = [ROOT / "levels" / "demo.tmx", ROOT / "levels" / "playground.tmx", FORMATS / "same.tmj"]
    counts: Counter[str] = Counter()
    failures: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for k in range(VARIANTS):
            source = sources[k % len(sources)]
            folder = tmp_path / "levels" / f"v{k}"
            shutil.copytree(source.parent, folder, ignore=shutil.ignore_patterns("*.tiled-project", "*.md"))
            target = folder / source.name
            if source.suffix == ".tmx" and rng.random() < 0.25:
                target = folder / "tiles.tsx"  # the tileset is input too
            text = target.read_text()
            target.write_text(mutate_json(text, rng) if target.suffix == ".tmj" else mutate_xml(text, rng))
            signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_VARIANT)
            try:
                level = load_level(folder / source.name)
                play(level)
                counts["ok"] += 1
            except LevelError as error:
                counts["clean error"] += 1
                if not str(error).strip() or source.name not in str(error) and target.name not in str(error):
                    failures.append(f"variant {k}: the error names neither file: {error}")
            except TimeoutError:
                counts["hang"] += 1
                failures.append(f"variant {k} ({target.name}): took more than {SECONDS_PER_VARIANT} s")
            except Exception as error:  # noqa: BLE001 - the point of the test
                counts["traceback"] += 1
                where = traceback.extract_tb(error.__traceback__)[-1]
                failures.append(f"variant {k} ({target.name}): {type(error).__name__}: {error} "
                                f"at {Path(where.filename).name}:{where.lineno}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            shutil.rmtree(folder)
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"\nfuzzer: {VARIANTS} variants: {dict(counts)}")
    assert sum(counts.values()) == VARIANTS
    assert counts["clean error"] > 0 and counts["ok"] > 0  # the mutations do break maps, and not all of them
    assert not failures, "\n".join(failures[:20])
