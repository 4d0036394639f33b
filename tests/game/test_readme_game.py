"""The README's "Build a game on Ledgekit" example, run headless: it must open, step and draw."""

import os
import re
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")

ROOT = Path(__file__).resolve().parents[2]


def test_the_minimal_game_runs(monkeypatch, tmp_path):
    text = (ROOT / "README.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "class MyGame" in b)
    monkeypatch.chdir(tmp_path)  # from any folder: the example finds the demo map through the package
    scope: dict = {"__name__": "readme_game"}  # not __main__: we drive it ourselves instead of arcade.run()
    exec(compile(block, "README.md", "exec"), scope)
    import arcade

    game = scope["MyGame"]()
    try:
        game.on_key_press(arcade.key.RIGHT, 0)
        start = scope["hero"].position[0]
        [hero_sprite] = game.renderer.characters  # the renderer draws the hero with the look the example gives
        pictures = set()
        for _ in range(90):
            game.on_update(1 / 60)
            game.on_draw()
            pictures.add(hero_sprite.texture.image.tobytes())
        assert scope["hero"].on_floor and scope["hero"].position[0] > start + 100
        assert len(pictures) >= 4  # standing, then the run cycle's frames
        assert scope["signs"] and scope["signs"][0][1] == "[right] runs, [jump] jumps"  # the custom class's factory ran
        assert scope["stage"].rules.pickup_total == 4  # the rules component counts the map's coins
        pixels = arcade.get_image(0, 0, 960, 540).convert("RGB")
        sky = pixels.getpixel((480, 20))
        assert sky[2] > sky[0] + 60 and sky[2] > 180  # the map's sky (its first image layer) at the top
        ground = pixels.getpixel((480, 530))
        assert ground[0] > ground[2]  # brown ground drawn along the bottom
    finally:
        game.close()
