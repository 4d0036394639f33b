"""Input as a player notices it: a tap is never lost, and the gamepad's d-pad, stick and buttons work."""

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402

from game.app import GameWindow  # noqa: E402
from tests.game.test_window import ROOT, frames  # noqa: E402

DEMO = ROOT / "levels" / "demo.tmx"


def settle(window, n=30):
    frames(window, n)
    assert window.play.session.hero.on_floor


def test_a_jump_tapped_within_one_frame_still_jumps():
    window = GameWindow(DEMO)
    try:
        settle(window)
        ground_y = window.play.session.hero.position[1]
        window.on_key_press(arcade.key.SPACE, 0)  # pressed and released before the next physics step
        window.on_key_release(arcade.key.SPACE, 0)
        frames(window, 8)
        assert window.play.session.hero.position[1] > ground_y + 10
    finally:
        window.close()


class FakePad:
    """What Controls reads from a pyglet joystick: stick x/y (y +1 is down), hat x/y (+1 up), buttons."""

    def __init__(self, buttons=8):
        self.x = self.y = 0.0
        self.hat_x = self.hat_y = 0
        self.buttons = [False] * buttons

    def tap(self, window, button):
        self.buttons[button] = True
        frames(window, 1)
        self.buttons[button] = False
        frames(window, 1)


def pad_window(monkeypatch, level=None):
    pad = FakePad()
    monkeypatch.setattr(arcade, "get_joysticks", lambda: [type("Stick", (FakePad,), {"open": lambda self: None})()],
                        raising=False)
    window = GameWindow(level)
    window.controls.attach(pad)  # the window opened the fake; hand it the one the test moves
    return window, pad


def test_gamepad_dpad_and_stick_move_and_a_jumps(monkeypatch):
    window, pad = pad_window(monkeypatch, DEMO)
    try:
        assert window.joystick is pad
        settle(window)
        hero = window.play.session.hero
        x0 = hero.position[0]
        pad.hat_x = 1  # d-pad right
        frames(window, 30)
        x1 = hero.position[0]
        assert x1 > x0 + 60
        pad.hat_x = 0
        pad.x = -0.9  # stick left
        frames(window, 40)
        assert hero.position[0] < x1 - 60
        pad.x = 0.2  # inside the dead zone: centred
        frames(window, 30)
        x2 = hero.position[0]
        frames(window, 10)
        assert abs(hero.position[0] - x2) < 1.0
        ground_y = hero.position[1]
        pad.buttons[0] = True  # A
        frames(window, 10)
        assert hero.position[1] > ground_y + 20
    finally:
        window.close()


def test_gamepad_start_pauses_and_b_resumes_and_the_dpad_drives_menus(monkeypatch):
    window, pad = pad_window(monkeypatch)
    try:
        assert window.state == "title"
        pad.hat_y = -1  # d-pad down: the second level
        frames(window, 1)
        pad.hat_y = 0
        frames(window, 1)
        assert window.title.menu.selected == 1
        pad.hat_y = 1  # and back up
        frames(window, 1)
        pad.hat_y = 0
        pad.tap(window, 0)  # A plays the selected level
        assert window.state == "play" and window.play.session.level.path.name == "1_hills_and_ledges.tmx"
        pad.tap(window, 7)  # start
        assert window.state == "pause"
        pad.tap(window, 1)  # B
        assert window.state == "play"
        pad.tap(window, 7)
        pad.hat_y = -1  # down to Restart, A
        frames(window, 1)
        pad.hat_y = 0
        frames(window, 20)
        steps = window.play.session.steps
        pad.tap(window, 0)
        assert window.state == "play" and window.play.session.steps < steps
    finally:
        window.close()


def test_a_held_key_keeps_acting_after_its_latch_is_consumed():
    window = GameWindow(DEMO)
    try:
        settle(window)
        hero = window.play.session.hero
        x0 = hero.position[0]
        window.on_key_press(arcade.key.RIGHT, 0)
        frames(window, 30)
        x1 = hero.position[0]
        window.on_key_release(arcade.key.RIGHT, 0)
        frames(window, 30)  # released: slows to a stop
        x2 = hero.position[0]
        frames(window, 10)
        assert x1 > x0 + 60 and abs(hero.position[0] - x2) < 1.0
    finally:
        window.close()


def test_a_gamepad_jump_tapped_between_two_polls_still_jumps(monkeypatch):
    window, _ = pad_window(monkeypatch, DEMO)

    class EventPad(FakePad):  # a pyglet joystick also dispatches button events as they happen
        def push_handlers(self, on_joybutton_press, **others):
            self.on_joybutton_press = on_joybutton_press

    try:
        pad = EventPad()
        window.controls.attach(pad)
        settle(window)
        ground_y = window.play.session.hero.position[1]
        pad.on_joybutton_press(pad, 0)  # A went down and up again before the game looked at it
        assert not any(pad.buttons)
        frames(window, 8)
        assert window.play.session.hero.position[1] > ground_y + 10
    finally:
        window.close()


def test_binding_a_key_takes_it_from_the_action_that_had_it():
    from game.controls import Controls

    controls = Controls()
    controls.bind_key("jump", arcade.key.W)  # W was "up"
    assert controls.keys["jump"] == (arcade.key.SPACE, arcade.key.W) and controls.keys["up"] == (arcade.key.UP,)
    controls.key_down(arcade.key.W)
    assert controls.consume() == {"jump"}


def test_binding_a_gamepad_button_in_use_swaps_the_two_roles():
    from game.controls import Controls

    controls = Controls()
    controls.bind_button("jump", 1)  # B was "back"
    assert controls.buttons["jump"] == 1 and controls.buttons["back"] == 0


def test_a_latched_press_counts_for_exactly_one_step():
    from game.controls import Controls

    controls = Controls()
    controls.key_down(arcade.key.SPACE)
    controls.key_up(arcade.key.SPACE)
    assert controls.consume() == {"jump"}
    assert controls.consume() == frozenset()


def test_losing_focus_forgets_held_keys():
    window = GameWindow(DEMO)
    try:
        settle(window)
        window.on_key_press(arcade.key.RIGHT, 0)
        frames(window, 5)
        window.on_deactivate()  # the key is let go in another window: no release event comes
        frames(window, 30)
        hero = window.play.session.hero
        assert window.state == "play" and abs(hero.velocity[0]) < 1.0
    finally:
        window.close()


class HandlerPad(FakePad):
    """A pad that, like a pyglet joystick, dispatches button and hat events as they happen."""

    def push_handlers(self, **handlers):
        self.handlers = handlers


def test_a_dpad_tap_between_two_polls_still_moves_one_step_and_moves_the_menu():
    from game.controls import Controls

    pad = HandlerPad()
    controls = Controls(gamepad=pad)
    controls.poll_gamepad()
    pad.handlers["on_joyhat_motion"](pad, 1, 0)  # right went down ...
    pad.handlers["on_joyhat_motion"](pad, 0, 0)  # ... and up again before the game polled the pad
    assert pad.hat_x == 0
    assert controls.poll_gamepad() == ["right"]  # the menu sees the tap once
    assert controls.consume() == {"right"}  # the next physics step moves right
    assert controls.poll_gamepad() == [] and controls.consume() == frozenset()  # and only that step
    pad.handlers["on_joyhat_motion"](pad, 0, -1)  # down, held through the poll: one command, held each step
    pad.hat_y = -1
    assert controls.poll_gamepad() == ["down"]
    assert controls.consume() == {"down"} and controls.poll_gamepad() == [] and controls.consume() == {"down"}
