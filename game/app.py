"""The demo game on arcade: title screen with level select, play (fixed-rate physics with render
interpolation, a camera that follows with a dead zone and stays inside the map, HUD), pause, restart,
level complete, debug overlay, live reload, keyboard and gamepad.

Everything it knows about physics comes from the public engine API through :class:`game.session.Session`.
"""

from __future__ import annotations

import time
from pathlib import Path

import arcade

from engine.level.level import LevelError
from engine.level.watch import LevelWatcher
from engine.render import LevelRenderer

from .devices import load_sounds, open_joystick, play_sound
from .art import HERO_H, HERO_POSES, HERO_W
from .runner import Recorder
from .session import STEP, Session

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "assets"
LEVELS = ROOT / "levels"
WIDTH, HEIGHT = 960, 540
SKY = (126, 200, 240, 255)

KEYS = {
    arcade.key.LEFT: "left", arcade.key.A: "left",
    arcade.key.RIGHT: "right", arcade.key.D: "right",
    arcade.key.UP: "up", arcade.key.W: "up",
    arcade.key.DOWN: "down", arcade.key.S: "down",
    arcade.key.SPACE: "jump", arcade.key.Z: "jump",
}


def hero_textures() -> dict[str, tuple[arcade.Texture, arcade.Texture]]:
    """(facing right, facing left) texture per pose, cut from assets/hero.png."""
    from PIL import Image

    sheet = Image.open(ASSETS / "hero.png").convert("RGBA")
    out = {}
    for k, pose in enumerate(HERO_POSES):
        img = sheet.crop((k * HERO_W, 0, (k + 1) * HERO_W, HERO_H))
        out[pose] = (arcade.Texture(img, hash=f"hero-{pose}-r"),
                     arcade.Texture(img.transpose(Image.Transpose.FLIP_LEFT_RIGHT), hash=f"hero-{pose}-l"))
    return out


class Camera:
    """Follows a point with a dead zone and exponential smoothing, and never shows outside the map."""

    def __init__(self, width: float, height: float, level_w: float, level_h: float) -> None:
        self.camera = arcade.Camera2D()
        self.size = (width, height)
        self.bounds = (level_w, level_h)
        self.x, self.y = width / 2, height / 2
        self.dead = (width * 0.12, height * 0.15)

    def snap(self, x: float, y: float) -> None:
        self.x, self.y = x, y
        self._clamp()

    def follow(self, x: float, y: float, dt: float) -> None:
        tx, ty = self.x, self.y
        if x > self.x + self.dead[0]:
            tx = x - self.dead[0]
        elif x < self.x - self.dead[0]:
            tx = x + self.dead[0]
        if y > self.y + self.dead[1]:
            ty = y - self.dead[1]
        elif y < self.y - self.dead[1]:
            ty = y + self.dead[1]
        k = 1.0 - pow(0.0005, dt)  # about 12 % per 60 Hz frame: smooth, never lags far
        self.x += (tx - self.x) * k
        self.y += (ty - self.y) * k
        self._clamp()

    def _clamp(self) -> None:
        w, h = self.size
        lw, lh = self.bounds
        self.x = w / 2 if lw <= w else min(max(self.x, w / 2), lw - w / 2)
        self.y = h / 2 if lh <= h else min(max(self.y, h / 2), lh - h / 2)

    def use(self) -> None:
        self.camera.position = (self.x, self.y)
        self.camera.use()


class Play:
    """Drawing and per-frame effects of a session (shared by the window and headless screenshots)."""

    def __init__(self, session: Session, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.session = session
        self.renderer = LevelRenderer(session.level, session.world)
        self.camera = Camera(width, height, session.level.width, session.level.height)
        self.camera.snap(*session.hero.position)
        self.gui = arcade.Camera2D()
        self.textures = hero_textures()
        self.hero = arcade.Sprite(self.textures["idle"][0])
        self.sprites = arcade.SpriteList()
        self.sprites.append(self.hero)
        self.dust = arcade.SpriteList()
        self.squash = 0.0
        self.run_clock = 0.0
        self.debug = False
        self.physics_ms = 0.0
        self.hud = arcade.Text("", 12, height - 28, (20, 30, 40, 255), 16)
        self.debug_text = arcade.Text("", 12, height - 50, (20, 30, 40, 255), 12)
        self.previous_position = session.hero.position

    def after_step(self) -> None:
        """Feel touches that react to what just happened: dust and squash on landing."""
        events = self.session.controller.events
        if "land" in events:
            self.squash = 1.0
            x, y = self.session.hero.position
            for dx in (-8, 8):
                puff = arcade.Sprite(arcade.load_texture(ASSETS / "dust.png"))
                puff.center_x, puff.center_y = x + dx, y - 14
                puff.change_x = dx * 3
                self.dust.append(puff)

    def update_visuals(self, dt: float, alpha: float) -> None:
        s = self.session
        hero = s.hero
        px, py = self.previous_position
        x = px + (hero.position[0] - px) * alpha
        y = py + (hero.position[1] - py) * alpha
        self.renderer.sync(alpha)
        self.renderer.animate(dt)
        self.camera.follow(x, y, dt)
        ctrl = s.controller
        vx, vy = hero.velocity
        if ctrl.wall_sliding:
            pose = "wall"
        elif not hero.on_floor:
            pose = "jump" if vy > 0 else "fall"
        elif abs(vx) > 20:
            self.run_clock += dt * abs(vx) / 30.0
            pose = f"run{int(self.run_clock) % 4}"
        else:
            pose = "idle"
        self.hero.texture = self.textures[pose][0 if ctrl.facing > 0 else 1]
        self.squash = max(0.0, self.squash - dt * 6)
        sx, sy = 1.0 + 0.25 * self.squash, 1.0 - 0.2 * self.squash
        self.hero.scale = (sx, sy)
        self.hero.center_x = x
        self.hero.bottom = y - 16
        for puff in list(self.dust):
            puff.center_x += puff.change_x * dt
            puff.alpha = max(0, puff.alpha - int(600 * dt))
            if puff.alpha == 0:
                puff.remove_from_sprite_lists()

    def draw(self) -> None:
        arcade.get_window().clear(color=SKY)
        self.camera.use()
        self.renderer.draw((self.camera.x, self.camera.y))
        self.sprites.draw(pixelated=True)
        self.dust.draw()
        if self.debug:
            self.renderer.draw_debug()
        self.gui.use()
        s = self.session
        self.hud.text = f"{s.level.path.stem}   coins {s.pickups}/{s.pickup_total}   time {s.time:5.1f}"
        self.hud.draw()
        if self.debug:
            self.debug_text.text = f"physics {self.physics_ms:.2f} ms/step   F1 debug"
            self.debug_text.draw()


class GameWindow(arcade.Window):
    """Title -> play -> complete, with pause, restart, debug and live reload."""

    def __init__(self, level: Path | None = None, record: Path | None = None) -> None:
        super().__init__(WIDTH, HEIGHT, "Ledgekit demo", update_rate=1 / 120)
        self.levels = sorted(LEVELS.glob("*.tmx"), key=lambda p: (p.name != "demo.tmx", p.name))
        self.selected = 0
        self.state = "title"
        self.play: Play | None = None
        self.held: set[str] = set()
        self.accumulator = 0.0
        self.clock = 0.0
        self.watcher: LevelWatcher | None = None
        self.message = ""
        self.recorder = Recorder() if record else None
        self.record_path = record
        self.sounds = load_sounds(ASSETS, ("jump", "land", "coin", "hurt", "goal", "checkpoint"))
        self._texts: dict = {}
        self.joystick = open_joystick()
        if level is not None:
            self.start(level)

    def text(self, value: str, x: float, y: float, color, size: int, **kwargs) -> None:
        """Draw text through cached arcade.Text objects (draw_text rebuilds its layout every call)."""
        key = (value, x, y, color, size, tuple(sorted(kwargs.items())))
        label = self._texts.get(key)
        if label is None:
            if len(self._texts) > 256:
                self._texts.clear()
            label = self._texts[key] = arcade.Text(value, x, y, color, size, **kwargs)
        label.draw()

    def sound(self, name: str) -> None:
        play_sound(self.sounds.get(name), volume=0.5)

    def start(self, path: Path) -> None:
        try:
            session = Session.open(path)
        except LevelError as error:
            self.message = str(error).splitlines()[0]
            self.state = "title"
            return
        self.play = Play(session)
        # The watcher runs on the window's own clock (summed frame times), so a paused debugger or a
        # slow frame does not make it miss or double-count a save.
        self.watcher = LevelWatcher(path, clock=lambda: self.clock)
        self.accumulator = 0.0
        self.state = "play"
        self.message = ""

    def held_actions(self) -> frozenset[str]:
        held = set(self.held)
        js = self.joystick
        if js is not None:
            if js.x < -0.4:
                held.add("left")
            if js.x > 0.4:
                held.add("right")
            if js.y > 0.4:
                held.add("down")
            if js.buttons and js.buttons[0]:
                held.add("jump")
        return frozenset(held)

    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time
        if self.state != "play" or self.play is None:
            return
        play = self.play
        if self.watcher is not None and self.watcher.poll():
            self.start(play.session.level.path)  # saved in Tiled: reload in place
            return
        self.accumulator += min(delta_time, 0.25)
        while self.accumulator >= STEP:
            held = self.held_actions()
            if self.recorder is not None:
                self.recorder.add(held)
            play.previous_position = play.session.hero.position
            started = time.perf_counter()
            play.session.step(held)
            play.physics_ms = (time.perf_counter() - started) * 1000
            play.after_step()
            for event in play.session.events:
                self.sound({"pickup": "coin", "hazard": "hurt", "fall": "hurt"}.get(event["type"], event["type"]))
            if "jump" in play.session.controller.events or "wall_jump" in play.session.controller.events:
                self.sound("jump")
            if "land" in play.session.controller.events:
                self.sound("land")
            self.accumulator -= STEP
            if play.session.complete:
                self.state = "complete"
                break
        play.update_visuals(delta_time, self.accumulator / STEP)

    def on_draw(self) -> None:
        self.clear(color=(24, 28, 40, 255))
        if self.state in ("play", "pause", "complete") and self.play is not None:
            self.play.draw()
        if self.state == "title":
            self.default_camera.use()
            self.text("LEDGEKIT", WIDTH / 2, HEIGHT - 140, (250, 210, 90, 255), 56, anchor_x="center")
            for i, path in enumerate(self.levels):
                mark = ">" if i == self.selected else " "
                self.text(f"{mark} {path.stem}", WIDTH / 2 - 80, HEIGHT / 2 - 36 * i, (230, 230, 240, 255), 22)
            self.text("up/down choose, enter play, esc quit", WIDTH / 2, 60, (160, 170, 190, 255), 14,
                             anchor_x="center")
            if self.message:
                self.text(self.message, WIDTH / 2, 30, (255, 120, 120, 255), 12, anchor_x="center")
        elif self.state == "pause":
            self.text("PAUSED  (esc resume, r restart, q title)", WIDTH / 2, HEIGHT / 2, (20, 30, 40, 255), 24,
                             anchor_x="center")
        elif self.state == "complete" and self.play is not None:
            s = self.play.session
            self.text(f"LEVEL COMPLETE  {s.time:.1f} s  coins {s.pickups}/{s.pickup_total}", WIDTH / 2,
                             HEIGHT / 2 + 20, (20, 30, 40, 255), 26, anchor_x="center")
            nxt = s.level.next_level or "title"
            self.text(f"enter: {nxt}", WIDTH / 2, HEIGHT / 2 - 24, (20, 30, 40, 255), 16, anchor_x="center")

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol in KEYS:
            self.held.add(KEYS[symbol])
        if self.state == "title":
            if symbol in (arcade.key.UP, arcade.key.W):
                self.selected = (self.selected - 1) % max(1, len(self.levels))
            elif symbol in (arcade.key.DOWN, arcade.key.S):
                self.selected = (self.selected + 1) % max(1, len(self.levels))
            elif symbol in (arcade.key.ENTER, arcade.key.SPACE) and self.levels:
                self.held.clear()
                self.start(self.levels[self.selected])
            elif symbol == arcade.key.ESCAPE:
                self.close()
        elif self.state == "play":
            if symbol == arcade.key.ESCAPE:
                self.state = "pause"
            elif symbol == arcade.key.R and self.play is not None:
                self.start(self.play.session.level.path)
            elif symbol == arcade.key.F1 and self.play is not None:
                self.play.debug = not self.play.debug
        elif self.state == "pause":
            if symbol == arcade.key.ESCAPE:
                self.state = "play"
            elif symbol == arcade.key.R and self.play is not None:
                self.start(self.play.session.level.path)
            elif symbol == arcade.key.Q:
                self.state = "title"
        elif self.state == "complete" and symbol in (arcade.key.ENTER, arcade.key.SPACE) and self.play is not None:
            level = self.play.session.level
            if level.next_level:
                self.start(level.path.parent / level.next_level)
            else:
                self.state = "title"

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        if symbol in KEYS:
            self.held.discard(KEYS[symbol])

    def on_close(self) -> None:
        if self.recorder is not None and self.record_path is not None:
            self.recorder.save(self.record_path)
        super().on_close()


def title_screenshot(path: Path) -> None:
    """Draw the title screen offscreen and save it (used by tests and ``--screenshot`` with no level)."""
    window = GameWindow()
    window.on_draw()
    arcade.get_image(0, 0, WIDTH, HEIGHT).save(path)
    window.close()
