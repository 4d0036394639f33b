"""The demo game on arcade: title screen with level select, play (fixed-rate physics with render
interpolation, the engine's follow camera, HUD), pause menu, settings,
level complete, debug overlay, live reload, replays, keyboard and gamepad.

The game is drawn at a fixed logical resolution and shown pixel-perfect in a resizable window
(:mod:`game.screen`); input goes through :mod:`game.controls` (presses latched until a physics step uses
them); settings and best times persist through :mod:`game.settings`. Everything it knows about physics
comes from the public engine API through :class:`game.session.Session`.
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

import arcade

from engine import BackgroundWarmUp, Level
from engine.camera import CameraConfig, FollowCamera
from engine.level.level import LevelError, load_level
from engine.level.watch import LevelWatcher
from engine.play import Animation, Animator, character_pose
from engine.render import LevelRenderer

from .art import DIRT, HERO_H, HERO_POSES, HERO_W, TILE
from .controls import Controls
from .data import assets_folder, levels_folder, shipped_levels
from .devices import load_sounds, open_joystick, play_loop, play_sound, set_volume
from .menus import GOLD, INK, LevelEntry, PauseMenu, SettingsMenu, TitleMenu, Ui
from .particles import Particles
from .runner import Recorder, frames_of
from .hud import FrameClock, Hud, debug_line
from .screen import LOGICAL_HEIGHT, LOGICAL_WIDTH, PixelScreen
from .session import STEP, Session
from .settings import Settings
from .signs import SignView, signs_of

ASSETS = assets_folder()
LEVELS = levels_folder()
WIDTH, HEIGHT = 2 * LOGICAL_WIDTH, 2 * LOGICAL_HEIGHT
"""The window's starting size: the logical resolution at 2x."""
SKY = (126, 200, 240, 255)
HERO_HALF_SIZE = (10.0, 16.0)
"""Half the hero's box (px, :data:`game.session.HERO_SHAPE`): the camera keeps its margins around all of him."""
GAME_STATES = ("play", "pause", "complete", "replay_end")
"""States that show the level being played (the others show the title's backdrop)."""


HERO_ANIMATIONS = {
    "idle": Animation(("idle",)),
    "run": Animation(("run0", "run1", "run2", "run3"), fps=8.0),
    "jump": Animation(("jump",)),
    "fall": Animation(("fall",)),
    "wall": Animation(("wall",)),
    "climb": Animation(("climb0", "climb1"), fps=4.0),
    "hurt": Animation(("hurt",)),
}
"""The hero's animations (engine.play's sprite-animation API), by pose; frames name poses of hero.png."""


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


def hero_camera(view_size: tuple[float, float], level: Level) -> FollowCamera:
    """The demo's follow camera over a level (the level-run tests replay the recorded runs through it).

    Half a tile below the map may show (drawn as more ground): a hero on a valley floor one tile above the map's
    bottom still keeps the camera's 48 px margin."""
    return FollowCamera(view_size, (level.width, level.height), CameraConfig(below_map=TILE / 2))


class Camera:
    """The engine's follow camera (:class:`engine.camera.FollowCamera`) driving an arcade camera."""

    def __init__(self, camera: arcade.Camera2D, follower: FollowCamera) -> None:
        self.camera = camera
        self.follower = follower

    def snap(self, x: float, y: float) -> None:
        self.follower.snap(x, y, HERO_HALF_SIZE)

    def follow(self, x: float, y: float, dt: float, velocity_x: float = 0.0) -> None:
        self.follower.follow(x, y, dt, velocity_x=velocity_x, half_size=HERO_HALF_SIZE)

    def use(self) -> None:
        # Whole pixels (the follower rounds): the image is scaled up afterwards, so a fractional camera
        # would make tiles shimmer.
        self.camera.position = self.follower.position
        self.camera.use()


class Play:
    """Drawing and per-frame effects of a session (shared by the window and headless screenshots)."""

    def __init__(self, session: Session, screen: PixelScreen, controls: Controls | None = None) -> None:
        self.session = session
        self.screen = screen
        self.controls = controls or Controls()
        """Whose bindings the signs name."""
        self.renderer = LevelRenderer(session.level, session.world)
        self.signs = SignView(signs_of(session.level))
        width, height = screen.size
        self.camera = Camera(screen.world_camera(), hero_camera((width, height), session.level))
        self.camera.snap(*session.hero.position)
        self.textures = hero_textures()
        self.hero = arcade.Sprite(self.textures["idle"][0])
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.sprites.append(self.hero)
        self.particles = Particles(ASSETS)
        self.squash = 0.0
        self.animator = Animator(HERO_ANIMATIONS)
        self.hurt = 0.0
        """Seconds left of the hurt pose (after a death)."""
        self.debug = False
        self.physics_ms = 0.0
        self.frames = FrameClock()
        self.hud = Hud()
        self.previous_position = session.hero.position

    def after_step(self) -> None:
        """Feel touches that react to what just happened: squash on landing, particles (dust, sparkles, puffs)."""
        session = self.session
        events = session.controller.events
        if any(e["type"] in ("hazard", "fall", "enemy", "crushed") for e in session.events):
            self.hurt = 0.4
        if "land" in events:
            self.squash = 1.0
        self.particles.after_step(session.hero, events, session.game_events, STEP)

    def update_visuals(self, dt: float, alpha: float) -> None:
        s = self.session
        hero = s.hero
        px, py = self.previous_position
        x = px + (hero.position[0] - px) * alpha
        y = py + (hero.position[1] - py) * alpha
        self.frames.tick(dt)
        self.renderer.sync(alpha)
        self.renderer.animate(dt)
        self.camera.follow(x, y, dt, hero.velocity[0])
        ctrl = s.controller
        vx, vy = hero.velocity
        self.hurt = max(0.0, self.hurt - dt)
        state = character_pose(hero, ctrl, hurt=self.hurt > 0.0)
        # Legs and hands move with the body: the run and climb cycles follow the speed.
        speed = abs(vx) / 120.0 if state == "run" else abs(vy) / 60.0 if state == "climb" else 1.0
        frame = self.animator.update(state, dt, speed)
        self.hero.texture = self.textures[frame][0 if ctrl.facing > 0 else 1]
        self.squash = max(0.0, self.squash - dt * 6)
        sx, sy = 1.0 + 0.25 * self.squash, 1.0 - 0.2 * self.squash
        self.hero.scale = (sx, sy)
        self.hero.center_x = x
        self.hero.bottom = y - 16
        self.particles.update(dt)

    def draw_world(self) -> None:
        """The level, things and hero into the offscreen game image (logical pixels)."""
        self.camera.use()
        position = (self.camera.camera.position[0], self.camera.camera.position[1])
        if not self.renderer.fills(position, self.screen.size):  # (an opaque sky over the view needs no clear)
            self.screen.framebuffer.clear(color=SKY)
        self.renderer.draw(position)
        bottom = self.camera.follower.view[1]
        if bottom < 0:  # the ground goes on below the map (the camera shows a little of it, see hero_camera)
            arcade.draw_lrbt_rectangle_filled(0, self.session.level.width, bottom, 0, DIRT)
        self.signs.draw_posts()
        self.sprites.draw(pixelated=True)
        self.particles.draw()
        if self.debug:
            self.renderer.draw_debug()

    def draw_hud(self, ui: Ui) -> None:
        """Level name, coins and time over the game, at window resolution."""
        s = self.session
        name = level_name(s.level.path)
        if self.hero.visible:
            camera = self.camera.camera.position
            self.signs.draw_panels(ui, (self.hero.center_x, self.hero.bottom + 16), (camera[0], camera[1]),
                                   self.screen.size, self.controls)
        self.hud.draw(ui, name, f"coins {s.pickups}/{s.pickup_total}", f"time {s.time:.1f}")
        if self.debug:
            ui.shadowed(debug_line(self.frames, self.physics_ms), 8, LOGICAL_HEIGHT - 30, INK, 7, live=True)

    def draw(self, ui: Ui) -> None:
        """A whole frame of play: the game image scaled into the window, then the HUD."""
        self.draw_world()
        self.screen.present()
        self.draw_hud(ui)


def settle_memory() -> None:
    """Collect the garbage now (the loading card is still up) and set what survives aside from later
    collections.

    A load makes hundreds of thousands of objects (the map, the world, textures); Python's own full
    collection, which it starts by itself once enough objects have outlived the younger ones, then walks all of
    them: 85-120 ms in one frame of play on a slow machine. Frozen objects (:func:`gc.freeze`) are skipped by
    collections, so one in play only walks what play made since; unfreezing first lets this load's collection
    free the last level's objects too."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def level_name(path: Path | str) -> str:
    """A level's name for people: ``1_hills_and_ledges.tmx`` -> ``1. Hills and ledges``, ``demo.tmx`` -> ``Demo``."""
    number, _, rest = Path(path).stem.partition("_")
    if number.isdigit() and rest:
        return f"{number}. {rest.replace('_', ' ').capitalize()}"
    return Path(path).stem.replace("_", " ").capitalize()


def level_order(levels: list[Path]) -> list[Path]:
    """The title screen's order: the numbered teaching levels first, then the demo, then the rest by name."""
    def key(path: Path) -> tuple[int, str]:
        number = path.stem.partition("_")[0]
        return (0 if number.isdigit() else 1 if path.name == "demo.tmx" else 2,
                number.zfill(4) if number.isdigit() else path.name)

    return sorted(levels, key=key)


def level_entries(levels: list[Path]) -> list[LevelEntry]:
    """The title screen's rows: each level's name and coin count (``None`` when it does not load)."""
    entries = []
    for path in levels:
        try:
            coins: int | None = len(load_level(path).of_kind("pickup"))
        except LevelError:
            coins = None
        entries.append(LevelEntry(path.name, level_name(path), coins))
    return entries


class GameWindow(arcade.Window):
    """Title -> play -> complete, with the pause menu, settings, debug overlay, live reload and replays.

    ``replay``: input segments (the ``--input`` format) played instead of the player's input, one frame per
    physics step exactly as the headless runner does; the window shows it and stops when they end.
    """

    def __init__(self, level: Path | None = None, record: Path | None = None,
                 replay: list[tuple[int, frozenset[str]]] | None = None) -> None:
        # No multisampling: pixel art has no edges to smooth, and a 4x multisampled window costs software
        # renderers (llvmpipe) several milliseconds a frame just to clear and fill.
        super().__init__(WIDTH, HEIGHT, "Ledgekit demo", update_rate=1 / 120, resizable=True, antialiasing=False)
        # The physics kernels compile on the first start (then load from numba's disk cache): in a background
        # process, while the same kernels run as plain Python, so the game never waits for the compiler.
        self.warm_up = BackgroundWarmUp()
        self.set_minimum_size(LOGICAL_WIDTH, LOGICAL_HEIGHT)
        self.pixels = PixelScreen(self)
        self.ui = Ui()
        self.ui.box = self.pixels.box
        self.settings = Settings.load()
        self.ui.box = self.pixels.set_mode(self.settings.scaling)
        self.controls = Controls(self.settings.keys, self.settings.buttons, open_joystick())
        self.levels = level_order(shipped_levels())
        self.title = TitleMenu(level_entries(self.levels), self.settings)
        self.pause_menu = PauseMenu()
        self.settings_menu = SettingsMenu(self.settings, self.controls, self.settings_changed,
                                          scaled_as=lambda: self.pixels.box.mode)
        self.settings_return = "title"
        self.pad_idle = True  # no gamepad button held since a button rebinding started
        self.state = "title"
        self.play: Play | None = None
        self.backdrop = self._title_backdrop()
        self.accumulator = 0.0
        self.fresh_level = False
        """A level was just loaded: the next frame runs one physics step, whatever time the load took."""
        self.loading: str | None = None
        """The name of the level being loaded, while the loading card is up."""
        self.clock = 0.0
        self.watcher: LevelWatcher | None = None
        self.failed_level: Path | None = None
        """A level that failed to load, watched from the title: its next save is loaded again."""
        self.recorder = Recorder() if record else None
        self.record_path = record
        self.replay = replay
        self.replay_inputs = frames_of(replay or [])
        self.replay_left = sum(n for n, _ in replay or [])
        self.new_best = False
        self.sounds = load_sounds(ASSETS, ("jump", "land", "coin", "hurt", "goal", "checkpoint", "music"))
        self.music = play_loop(self.sounds.get("music"), self.settings.effective_volume("music"))
        if level is not None:
            self.start(level)

    @property
    def joystick(self):  # noqa: ANN201 - pyglet's Joystick, or None
        return self.controls.gamepad

    def _title_backdrop(self) -> Play | None:
        """The first level, drawn behind the title menu (slowly panning)."""
        try:
            backdrop = Play(Session.open(self.levels[0]), self.pixels) if self.levels else None
        except LevelError:
            return None
        if backdrop is not None:
            backdrop.hero.visible = False  # the level waits for its hero
        return backdrop

    def settings_changed(self) -> None:
        """A setting changed in the menu: save it and apply the volumes at once."""
        self.settings.save()
        set_volume(self.music, self.settings.effective_volume("music"))
        if self.pixels.mode != self.settings.scaling:
            self.ui.box = self.pixels.set_mode(self.settings.scaling)

    def sound(self, name: str) -> None:
        play_sound(self.sounds.get(name), volume=self.settings.effective_volume("sound"))

    def start(self, path: Path) -> None:
        """Load and play the level at ``path``, with a loading card on screen while it is prepared."""
        self.show_loading(path)
        try:
            session = Session.open(path)
            play = Play(session, self.pixels, self.controls)
        except LevelError as error:
            self.title.message = str(error).splitlines()[0]
            self.state = "title"
            # Keep watching the level that failed (a half-written save, a mistake being fixed in Tiled): the
            # next save that loads brings the player back into it (see on_update).
            self.failed_level = path
            if self.watcher is None or self.watcher.path != path:
                self.watcher = LevelWatcher(path, clock=lambda: self.clock)
            return
        finally:
            self.loading = None
        self.failed_level = None
        self.play = play
        settle_memory()
        # The frame that follows took the whole load: its time is not play time to catch up on.
        self.fresh_level = True
        # The watcher runs on the window's own clock (summed frame times), so a paused debugger or a
        # slow frame does not make it miss or double-count a save.
        self.watcher = LevelWatcher(path, clock=lambda: self.clock)
        self.accumulator = 0.0
        if self.replay is not None:  # a restarted replay starts again from its first frame
            self.replay_inputs = frames_of(self.replay)
            self.replay_left = sum(n for n, _ in self.replay)
        self.controls.release_all()  # the key that started the level must not also jump
        self.state = "play"
        self.title.message = ""

    # --- window ---------------------------------------------------------------------------------------
    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)
        self.on_resize(*self.get_size())

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if hasattr(self, "pixels"):  # pyglet may send one resize before __init__ has made the screen
            ratio = self.get_pixel_ratio()  # the letterbox is in framebuffer pixels (HiDPI screens)
            self.ui.box = self.pixels.resize(round(width * ratio), round(height * ratio))

    def on_close(self) -> None:
        if self.recorder is not None and self.record_path is not None:
            self.recorder.save(self.record_path)
        super().on_close()

    def close(self) -> None:
        music = getattr(self, "music", None)
        if music is not None:
            try:
                music.pause()
            except Exception:  # noqa: BLE001, S110 - the audio back end may be gone already
                pass
            self.music = None
        super().close()

    # --- input ----------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        alt_enter = symbol in (arcade.key.ENTER, arcade.key.RETURN) and modifiers & arcade.key.MOD_ALT
        if symbol == arcade.key.F11 or alt_enter:
            self.toggle_fullscreen()
            return
        if self.state == "settings" and self.settings_menu.waiting is not None:
            if self.settings_menu.waiting[0] == "key" or symbol == arcade.key.ESCAPE:
                self.settings_menu.key_pressed(symbol)
                self.settings_menu.waiting = None
            return
        self.controls.key_down(symbol)
        if self.state == "play":
            self._play_key(symbol)
        elif self.state == "pause" and symbol in (arcade.key.R, arcade.key.Q):
            self.pause_answer("restart" if symbol == arcade.key.R else "title")
        else:
            command = self.controls.command_for_key(symbol)
            if command is not None:
                self.command(command)

    def _play_key(self, symbol: int) -> None:
        if symbol == arcade.key.ESCAPE:
            self.command("pause")
        elif symbol == arcade.key.R and self.play is not None:
            self.start(self.play.session.level.path)
        elif symbol == arcade.key.F1 and self.play is not None:
            self.play.debug = not self.play.debug

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.controls.key_up(symbol)

    def on_deactivate(self) -> None:
        """Focus lost: keys held now will be released elsewhere, unseen, so forget them. (No pause: X servers
        without a window manager send this at start, and a replay should play on in the background.)"""
        self.controls.release_all()

    def poll_gamepad(self) -> None:
        """Gamepad menu commands, or the button for a rebinding (once every button has been let go)."""
        waiting = self.settings_menu.waiting if self.state == "settings" else None
        if waiting is not None and waiting[0] == "button":
            button = self.controls.pressed_button()
            if button is not None and self.pad_idle:
                self.settings_menu.button_pressed(button)
            self.pad_idle = button is None
            self.controls.poll_gamepad()  # keep its edges current so the binding press is not a command
            return
        for command in self.controls.poll_gamepad():
            self.command(command)
        self.pad_idle = self.controls.pressed_button() is None

    def command(self, command: str) -> None:
        """A menu command (from the keyboard or the gamepad) in the current state."""
        if self.state == "title":
            self.title_answer(self.title.command(command))
        elif self.state == "pause":
            self.pause_answer(self.pause_menu.command(command))
        elif self.state == "settings":
            if self.settings_menu.command(command) == "back":
                self.state = self.settings_return
        elif self.state == "play" and command == "pause":
            self.state = "pause"
            self.pause_menu.menu.selected = 0
        elif self.state in ("complete", "replay_end") and command in ("confirm", "pause"):
            self.after_complete()
        elif self.state in ("complete", "replay_end") and command == "back":
            self.state = "title"

    def title_answer(self, answer: str | None) -> None:
        if answer is None:
            return
        if answer.startswith("play:"):
            self.start(self.levels[int(answer[len("play:"):])])
        elif answer == "settings":
            self.open_settings("title")
        elif answer == "quit":
            self.close()

    def pause_answer(self, answer: str | None) -> None:
        if answer == "resume":
            self.controls.release_all()
            self.state = "play"
        elif answer == "restart" and self.play is not None:
            self.start(self.play.session.level.path)
        elif answer == "settings":
            self.open_settings("pause")
        elif answer == "title":
            self.state = "title"

    def open_settings(self, back_to: str) -> None:
        self.settings_return = back_to
        self.settings_menu.menu.selected = 0
        self.state = "settings"

    def after_complete(self) -> None:
        """Enter on the level-complete card: the next level, or the title after the last one."""
        assert self.play is not None
        level = self.play.session.level
        if level.next_level and self.replay is None:
            self.start(level.path.parent / level.next_level)
        else:
            self.state = "title"

    # --- time -----------------------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time
        self.poll_gamepad()
        if self.state in ("title", "settings") and self.settings_return == "title" and self.backdrop is not None:
            self._pan_backdrop(delta_time)
        if self.state == "title" and self.failed_level is not None and self.watcher is not None \
                and self.watcher.poll():
            self.start(self.failed_level)  # saved again after a failed load: try it again
            return
        if self.state != "play" or self.play is None or not self.physics_ready():
            return
        play = self.play
        if self.watcher is not None and self.watcher.poll():
            self.start(play.session.level.path)  # saved in Tiled: reload in place
            return
        # At most a quarter second of steps after a slow frame; one step after a load, which is no stall.
        self.accumulator += STEP if self.fresh_level else min(delta_time, 0.25)
        self.fresh_level = False
        while self.accumulator >= STEP and self.state == "play":
            self.physics_step(play)
            self.accumulator -= STEP
        play.update_visuals(delta_time, self.accumulator / STEP)

    def physics_ready(self) -> bool:
        """Whether physics may step (at once: plain kernels run while the compiled ones are made); a failed
        compile closes the game with its message."""
        if self.warm_up.error is not None:
            print(f"ledgekit: the physics kernels could not be prepared: {self.warm_up.error}", file=sys.stderr)
            self.close()
            return False
        return self.warm_up.playable

    def next_input(self) -> frozenset[str]:
        """The actions for the next physics step: the replay's next frame, or the player's (latched) input."""
        if self.replay is not None:
            self.replay_left -= 1
            return next(self.replay_inputs)
        return self.controls.consume()

    def physics_step(self, play: Play) -> None:
        held = self.next_input()
        if self.recorder is not None:
            self.recorder.add(held)
        play.previous_position = play.session.hero.position
        started = time.perf_counter()
        play.session.step(held)
        play.physics_ms = (time.perf_counter() - started) * 1000
        play.after_step()
        self._step_sounds(play.session)
        session = play.session
        if self.replay is not None:
            # A replay runs every recorded step (as the headless runner does), even past the goal.
            if self.replay_left <= 0:
                self.state = "complete" if session.complete else "replay_end"
        elif session.complete:
            self.state = "complete"
            self.new_best = self.settings.record_finish(session.level.path.name, session.time, session.pickups)
            if self.new_best:
                self.settings.save()

    def _step_sounds(self, session: Session) -> None:
        for event in session.events:
            self.sound({"pickup": "coin", "hazard": "hurt", "fall": "hurt", "enemy": "hurt", "crushed": "hurt"}
                       .get(event["type"], event["type"]))
        if "jump" in session.controller.events or "wall_jump" in session.controller.events:
            self.sound("jump")
        if "land" in session.controller.events:
            self.sound("land")

    def _pan_backdrop(self, dt: float) -> None:
        """Drift the title's camera slowly across the level and back."""
        import math

        assert self.backdrop is not None
        level = self.backdrop.session.level
        half_w = LOGICAL_WIDTH / 2
        x = half_w + (level.width - 2 * half_w) * 0.5 * (1 - math.cos(self.clock * 0.15))
        self.backdrop.camera.follow(x, self.backdrop.session.hero.position[1], dt)
        self.backdrop.renderer.animate(dt)

    # --- drawing --------------------------------------------------------------------------------------
    def on_draw(self) -> None:
        in_game = self.state in GAME_STATES or (self.state == "settings" and self.settings_return == "pause")
        scene = self.play if in_game else self.backdrop
        if scene is not None:
            scene.draw_world()
        else:
            self.pixels.framebuffer.clear(color=SKY)
        self.pixels.present()
        if in_game and scene is not None:
            scene.draw_hud(self.ui)
        if self.state == "title":
            self.title.draw(self.ui)
        elif self.state == "pause":
            self.pause_menu.draw(self.ui)
        elif self.state == "settings":
            self.settings_menu.draw(self.ui)
        elif self.state in ("complete", "replay_end") and self.play is not None:
            self._draw_complete(self.play.session)
        if not self.warm_up.done:
            self._draw_preparing()
        if self.loading is not None:
            self._draw_loading(self.loading)

    def show_loading(self, path: Path) -> None:
        """Put the loading card on screen now (the load that follows blocks the window's loop)."""
        self.loading = level_name(path)
        self.on_draw()
        self.flip()

    def _draw_loading(self, name: str) -> None:
        ui = self.ui
        ui.dim(170)
        ui.panel(200, 440, 150, 210)
        ui.shadowed("LOADING", LOGICAL_WIDTH / 2, 186, GOLD, 12, anchor_x="center", bold=True)
        ui.text(name, LOGICAL_WIDTH / 2, 162, INK, 9, anchor_x="center")

    def _draw_preparing(self) -> None:
        """The "preparing physics" bar while the compiled kernels are made (the game plays meanwhile)."""
        left, width = LOGICAL_WIDTH / 2 - 120, 240
        # (between the title's menu and its key help line)
        self.ui.panel(left - 10, left + width + 10, 30, 58)
        what = "Compiling physics (first start only)" if self.warm_up.first_start else "Loading physics"
        self.ui.text(f"{what}  {self.warm_up.fraction:.0%}", LOGICAL_WIDTH / 2, 45,
                     INK, 7, anchor_x="center", live=True)
        self.ui.rect(left, left + width, 34, 39, (60, 60, 80, 255))
        self.ui.rect(left, left + width * self.warm_up.fraction, 34, 39, GOLD)

    def _draw_complete(self, s: Session) -> None:
        ui = self.ui
        cx = LOGICAL_WIDTH / 2
        ui.dim(110)
        ui.panel(190, 450, 130, 240)
        heading = "LEVEL COMPLETE" if s.complete else "REPLAY FINISHED"
        ui.shadowed(heading, cx, 212, GOLD, 16, anchor_x="center", bold=True)
        ui.text(f"time {s.time:.1f} s     coins {s.pickups}/{s.pickup_total}     deaths {s.deaths}", cx, 186, INK, 9,
                anchor_x="center")
        if self.new_best and self.replay is None:
            ui.text("new best!", cx, 166, GOLD, 9, anchor_x="center")
        nxt = s.level.next_level if (s.complete and self.replay is None and s.level.next_level) else ""
        label = level_name(nxt) if nxt else "title screen"
        ui.text(f"enter / A: {label}", cx, 142, INK, 8, anchor_x="center")


def save_frame(window: arcade.Window, path: Path) -> None:
    """What the window shows now, as a PNG (the whole window: game image, bars and text)."""
    arcade.get_image(0, 0, *window.get_framebuffer_size()).save(path)


def title_screenshot(path: Path) -> None:
    """Draw the title screen offscreen and save it (used by tests and ``--screenshot`` with no level)."""
    window = GameWindow()
    window.on_draw()
    save_frame(window, path)
    window.close()


def session_screenshot(session: Session, path: Path) -> None:
    """A session's current frame, drawn as the window would show it at its starting size, saved as PNG."""
    window = arcade.Window(WIDTH, HEIGHT, "Ledgekit", visible=False, antialiasing=False)
    screen = PixelScreen(window)
    ui = Ui()
    ui.box = screen.box
    play = Play(session, screen)
    play.update_visuals(0.0, 1.0)
    play.draw(ui)
    save_frame(window, path)
    window.close()
