"""Signs teach inside the levels: one stands before each first jump, drop-through, ladder, crate, spring,
switch and enemy, its panel shows when the hero comes near, and it names the player's own controls."""

import shutil
from pathlib import Path

import arcade
import pytest

from engine import LevelError, load_level
from game.controls import Controls
from game.signs import NEAR, hint_text, signs_of, visible_signs

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ["1_hills_and_ledges.tmx", "2_crates.tmx", "3_machines.tmx"]


def first_of(cls):
    """(level file, x of the first object of class ``cls``) over the teaching levels, in play order."""
    for name in TUTORIAL:
        objects = [o for o in load_level(ROOT / "levels" / name).objects if o.cls == cls]
        if objects:
            return name, min(o.position[0] for o in objects)
    raise AssertionError(f"no {cls} in the teaching levels")


@pytest.mark.parametrize("cls", ["Ladder", "Crate", "Spring", "Switch", "Walker"])
def test_a_sign_stands_before_the_first_of_each_thing(cls):
    """The first ladder, crate, spring, switch and enemy a player meets each have a sign at most eight tiles
    before them (read on the way there, before the lesson)."""
    name, x = first_of(cls)
    signs = signs_of(load_level(ROOT / "levels" / name))
    assert any(0 < x - s.foot[0] <= 8 * 32 for s in signs), f"no sign before the first {cls} in {name}"


def test_level_one_teaches_the_first_jump_and_the_drop_through_before_they_are_needed():
    level = load_level(ROOT / "levels" / "1_hills_and_ledges.tmx")
    signs = signs_of(level)
    first_one_way_x = min(a[0] for a, b, _ in level.one_way)
    bridge_x = 60 * 32  # the one-way bridge the way on goes under (see game/tutorial.py)
    assert any("[jump]" in s.text and 0 < first_one_way_x - s.foot[0] <= 8 * 32 for s in signs)
    assert any("[down] + [jump]" in s.text and 0 < bridge_x - s.foot[0] <= 4 * 32 for s in signs)


def test_the_text_names_the_players_keys_and_then_the_gamepad_when_it_is_used():
    controls = Controls()
    assert hint_text("[down] + [jump] drops", controls) == "Down / S + Space / Z drops"
    controls.bind_key("jump", arcade.key.X)
    assert "X" in hint_text("[jump]", controls)
    controls.key_down(arcade.key.LEFT)  # (the keyboard used last: still the keyboard's names)
    assert hint_text("[left]", controls) == "Left / A"

    class Pad:
        x = y = hat_x = hat_y = 0
        buttons = [True] + [False] * 9  # A held

    controls.attach(Pad())
    controls.poll_gamepad()
    assert hint_text("[down] + [jump]", controls) == "d-pad down + A"
    controls.key_down(arcade.key.SPACE)  # back on the keyboard
    assert hint_text("[jump]", controls).startswith("Space")


def test_a_sign_shows_only_while_the_hero_is_near():
    signs = signs_of(load_level(ROOT / "levels" / "1_hills_and_ledges.tmx"))
    first = signs[0]
    fx, fy = first.foot
    assert visible_signs(signs, (fx + NEAR[0] - 1, fy + 16)) == [first]
    assert visible_signs(signs, (fx + NEAR[0] + 40, fy + 16)) == []
    assert visible_signs(signs, (fx, fy + NEAR[1] + 40)) == []  # far above it (on a ledge)


def test_a_sign_naming_an_unknown_control_is_an_error_naming_the_object(tmp_path):
    from game.mapmaker import map_xml

    (tmp_path / "assets").symlink_to(ROOT / "assets")
    (tmp_path / "levels").mkdir()
    shutil.copy(ROOT / "levels" / "tiles.tsx", tmp_path / "levels" / "tiles.tsx")
    objects = [{"name": "start", "cls": "Spawn", "kind": "point", "x": 48, "y": 64},
               {"id": 7, "cls": "Sign", "name": "hint", "x": 96, "y": 64, "w": 24, "h": 32,
                "props": {"text": "[jmup] to jump"}}]
    path = tmp_path / "levels" / "bad.tmx"
    path.write_text(map_xml(["....", "....", "....", "####"], objects, {"gravity": 1800.0}, backgrounds=False))
    with pytest.raises(LevelError, match=r"bad\.tmx: layer 'things', object 7 'hint' \(Sign\): \[jmup\]"):
        signs_of(load_level(path))


def test_the_signs_are_drawn_in_the_window(tmp_path):
    """The bridge's sign, with the hero beside it: the panel is drawn over the sky (light blue there
    without it) as a dark box."""
    from game.app import Play, save_frame
    from game.screen import PixelScreen
    from game.menus import Ui
    from game.session import Session
    from PIL import Image

    window = arcade.Window(1280, 720, "signs", visible=False, antialiasing=False)
    try:
        session = Session.open(ROOT / "levels" / "1_hills_and_ledges.tmx")
        screen = PixelScreen(window)
        ui = Ui()
        ui.box = screen.box
        play = Play(session, screen)
        sign = next(s for s in play.signs.signs if "[down]" in s.text)
        shots = {}
        for label, dx in (("near", -50), ("far", -200)):
            session.hero.teleport((sign.foot[0] + dx, sign.foot[1] + 17))
            play.previous_position = session.hero.position
            play.camera.snap(sign.foot[0], sign.foot[1] + 17)
            play.update_visuals(0.0, 1.0)
            play.draw(ui)
            save_frame(window, tmp_path / f"{label}.png")
            shots[label] = Image.open(tmp_path / f"{label}.png").convert("RGB")
        # The panel's middle at 2x, over the post: 30 px above its foot (its top), 8 more and half the panel.
        camera_y = play.camera.camera.position[1]
        # (The median of a strip across it: the text's light letters cover some of its pixels.)
        y = round(720 - 2 * (sign.foot[1] + 30 + 8 + 9 - camera_y + 180))
        strip = [(x, y) for x in range(600, 680)]

        def median_brightness(image):
            return sorted(sum(image.getpixel(p)) for p in strip)[len(strip) // 2]

        assert median_brightness(shots["far"]) > 400  # sky
        assert median_brightness(shots["near"]) < 150  # the panel
    finally:
        window.close()
