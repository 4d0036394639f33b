"""``ledgekit new DIR``: the starter game is written, checks clean, and plays headless from another folder."""

import re
import subprocess
import sys

from engine import load_level
from engine.level.cli import main as ledgekit
from engine.level.starter import STARTER_FILES


def test_ledgekit_new_writes_a_game_that_checks_clean_and_refuses_to_overwrite(tmp_path, capsys):
    folder = tmp_path / "mygame"
    assert ledgekit(["new", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(STARTER_FILES)
    assert f"python {folder / 'main.py'} --headless --frames 60" in capsys.readouterr().out
    assert ledgekit(["check", str(folder)]) == 0
    assert capsys.readouterr().out.strip().endswith("1 map(s) checked: 0 error(s), 0 warning(s)")
    before = (folder / "main.py").read_text() + "# my edits\n"
    (folder / "main.py").write_text(before)
    assert ledgekit(["new", str(folder)]) == 2  # a developer's game is never overwritten
    assert "already exists" in capsys.readouterr().err and (folder / "main.py").read_text() == before


def test_the_starter_level_has_every_piece_a_platformer_starts_with(tmp_path):
    assert ledgekit(["new", str(tmp_path / "g")]) == 0
    level = load_level(tmp_path / "g" / "level1.tmx")
    assert level.spawn is not None and level.one_way  # the plank is a one-way platform
    for kind, count in (("pickup", 2), ("checkpoint", 1), ("goal", 1)):
        assert len(level.of_kind(kind)) == count, kind
    assert [o.cls for o in level.objects].count("Crate") == 1 and [o.cls for o in level.objects].count("Sign") == 2
    slopes = [(a, b) for ring in level.solid_rings for a, b in zip(ring, ring[1:]) if a[0] != b[0] and a[1] != b[1]]
    assert len(slopes) >= 2  # up and down the hill, 45 degrees


def test_the_starter_runs_headless_from_another_folder(tmp_path):
    assert ledgekit(["new", str(tmp_path / "mygame")]) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    runs = {}
    for frames in (60, 120):
        done = subprocess.run([sys.executable, str(tmp_path / "mygame" / "main.py"), "--headless", "--frames", str(frames)],
                              cwd=elsewhere, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        found = re.search(r"(\d+) steps: hero at \((-?\d+), (-?\d+)\), coins 0/2", done.stdout)
        assert found and int(found[1]) == frames, done.stdout
        runs[frames] = int(found[2]), int(found[3])
    assert runs[60][0] > 200  # holding right, the hero ran from the spawn (x = 64)...
    assert runs[120][1] > runs[60][1] + 24  # ...and up the slope onto the higher ground


def test_the_starter_plays_at_once_on_a_first_start_while_the_physics_compiles_beside_it(tmp_path):
    """A first start on a machine (no stamp in the user's cache folder): the starter game does not wait for the
    compiler, as the demo does not: one line says the physics compiles in the background, and the run plays."""
    import os

    assert ledgekit(["new", str(tmp_path / "mygame")]) == 0
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "user-cache")}
    done = subprocess.run([sys.executable, str(tmp_path / "mygame" / "main.py"), "--headless", "--frames", "60"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert "compiling the physics in the background" in lines[0] and "playing meanwhile" in lines[0], lines
    assert re.match(r"60 steps: hero at", lines[1]) and len(lines) == 2, lines


def test_the_starter_hero_is_an_animated_look_made_in_tiled_and_its_sounds_load(tmp_path):
    """hero.tsx gives the renderer a look with a pose per tile (the run a 4-frame Tiled animation, frames that
    differ), drawn to the hero's size; the four sounds are WAV files the engine's Sounds helper loads."""
    import os

    os.environ.setdefault("ARCADE_HEADLESS", "1")
    from engine.render import CharacterLook, Sounds

    assert ledgekit(["new", str(tmp_path / "g")]) == 0
    look = CharacterLook.from_tileset(tmp_path / "g" / "hero.tsx")
    assert set(look.animations) == {"idle", "run", "jump", "fall"}
    run = look.animations["run"]
    assert len(run.frames) == 4 and run.fps == 10.0
    pictures = {look.frames[frame].tobytes() for frame in run.frames} | {look.frames[0].tobytes()}
    assert len(pictures) == 5  # every run frame differs from the others and from standing
    assert all(picture.size == (24, 32) for picture in look.frames.values())
    sounds = Sounds.from_folder(tmp_path / "g" / "sounds", ("coin", "jump", "hurt", "goal"))
    sounds.play("coin")
    main = (tmp_path / "g" / "main.py").read_text()
    assert "show_character(" in main and "Sounds.from_folder(" in main


def test_the_starter_window_shows_the_hero_running_through_his_frames(tmp_path, monkeypatch):
    """main.py's window (headless), played for two seconds holding right: the hero drawn by the renderer shows
    the standing frame, then several run frames; after a turn left he is mirrored."""
    import os
    import runpy

    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade
    from PIL import Image

    assert ledgekit(["new", str(tmp_path / "g")]) == 0
    hero_sheet = Image.open(tmp_path / "g" / "hero.png").convert("RGBA")
    idle = hero_sheet.crop((0, 0, 24, 32))
    seen: dict[str, set] = {"standing": set(), "running": set(), "left": set()}

    def play_a_little() -> None:
        window = arcade.get_window()
        [character_sprite] = window.renderer.characters
        def frames(key: str, count: int) -> None:
            for _ in range(count):
                window.on_update(1 / 60)
                window.on_draw()
                seen[key].add(character_sprite.texture.image.tobytes())
        frames("standing", 20)
        window.on_key_press(arcade.key.RIGHT, 0)
        frames("running", 60)
        window.on_key_release(arcade.key.RIGHT, 0)
        window.on_key_press(arcade.key.LEFT, 0)
        frames("left", 10)
        window.close()

    monkeypatch.setattr(arcade, "run", play_a_little)
    monkeypatch.setattr("sys.argv", [str(tmp_path / "g" / "main.py")])
    runpy.run_path(str(tmp_path / "g" / "main.py"), run_name="not_main")["play"]()
    assert seen["standing"] == {idle.tobytes()}
    assert len(seen["running"] - seen["standing"]) >= 3  # run frames, not the standing one
    mirrored = {Image.frombytes("RGBA", (24, 32), picture).transpose(Image.Transpose.FLIP_LEFT_RIGHT).tobytes()
                for picture in seen["left"]}
    assert mirrored & (seen["running"] | seen["standing"])  # facing left: a right-facing frame, mirrored
