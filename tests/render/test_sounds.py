"""engine.render.Sounds: named sounds loaded once, played by name with a volume, hooked to the rules' events;
silent with one notice on a machine without audio, never a crash (headless: the audio back end is replaced
where a test needs one, and what would be played is recorded)."""

from __future__ import annotations

import os
import wave

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
import pyglet.media.drivers  # noqa: E402

from engine import RoundedPolygon  # noqa: E402
from engine.level.level import load_level  # noqa: E402
from engine.play import GameEvent, Stage  # noqa: E402
from engine.render import Sounds  # noqa: E402

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="10" height="4" tilewidth="16" tileheight="16" infinite="0">
 <objectgroup id="1" name="o"><object id="1" type="Spawn" x="40" y="20"><point/></object></objectgroup>
</map>
"""


def _wav(path, samples: int = 2205) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(22050)
        out.writeframes(b"\x00\x10" * samples)


@pytest.fixture
def folder(tmp_path):
    for name in ("coin", "jump", "music"):
        _wav(tmp_path / f"{name}.wav")
    return tmp_path


class _Player:
    volume = None
    paused = False

    def pause(self):
        self.paused = True


@pytest.fixture
def audio(monkeypatch):
    """A machine with audio: a working back end, and a record of the loads and plays instead of the speaker."""
    record = {"loaded": [], "played": []}
    load = arcade.load_sound

    def counted_load(path, *args, **kwargs):
        record["loaded"].append(str(path))
        return load(path, *args, **kwargs)

    def play(sound, volume=1.0, loop=False, **kwargs):
        record["played"].append((sound, volume, loop))
        return _Player()

    monkeypatch.setattr(pyglet.media.drivers, "get_audio_driver", lambda: object())
    monkeypatch.setattr(arcade, "load_sound", counted_load)
    monkeypatch.setattr(arcade, "play_sound", play)
    return record


def test_each_sound_is_loaded_once_and_played_by_name_at_its_volume(folder, audio, capsys):
    sounds = Sounds.from_folder(folder, ("coin", "jump"), volume=0.8)
    sounds.play("jump", volume=0.5)
    sounds.play("jump")
    sounds.play("coin", volume=0.0)  # silent: not played at all
    assert sorted(audio["loaded"]) == [str(folder / "coin.wav"), str(folder / "jump.wav")]
    (first, v1, _), (second, v2, _) = audio["played"]
    assert first is second and (v1, v2) == (pytest.approx(0.4), pytest.approx(0.8))
    assert not sounds.silent and capsys.readouterr().err == ""


def test_a_loop_plays_until_stopped_and_follows_its_volume(folder, audio):
    sounds = Sounds.from_folder(folder, ("music",))
    sounds.loop("music", 0.6)
    (_, volume, loop), = audio["played"]
    assert (volume, loop) == (0.6, True)
    sounds.set_loop_volume("music", 0.2)
    player = sounds.loop_player("music")
    assert player is not None and player.volume == 0.2
    sounds.stop()
    assert player.paused and sounds.loop_player("music") is None


def test_rules_events_play_their_sounds_until_unhooked(folder, audio, tmp_path):
    (tmp_path / "m.tmx").write_text(TMX)
    stage = Stage.from_level(load_level(tmp_path / "m.tmx"), RoundedPolygon.box(10, 16, radius=2))
    sounds = Sounds.from_folder(folder, ("coin", "jump"))
    hooks = sounds.hook(stage.rules, {"pickup": "coin"}, volume=0.3)
    stage.rules.emit(GameEvent("pickup"))
    stage.rules.emit(GameEvent("goal"))  # no sound for it
    assert [volume for _, volume, _ in audio["played"]] == [pytest.approx(0.3)]
    for pair in hooks:
        stage.rules.off(*pair)
    stage.rules.emit(GameEvent("pickup"))
    assert len(audio["played"]) == 1


def test_no_audio_device_is_one_notice_and_silence(folder, monkeypatch, capsys):
    class SilentDriver:  # (what pyglet falls back to when it finds no device: its name tells)
        pass

    monkeypatch.setattr(pyglet.media.drivers, "get_audio_driver", lambda: SilentDriver())
    sounds = Sounds.from_folder(folder, ("coin", "jump", "music"))
    sounds.play("coin")
    sounds.loop("music")
    assert sounds.silent
    assert capsys.readouterr().err.splitlines() == ["notice: sound off for all sounds (no audio device)"]


def test_a_failing_audio_back_end_is_one_notice(folder, monkeypatch, capsys):
    def broken():
        raise OSError("pulse: connection refused")

    monkeypatch.setattr(pyglet.media.drivers, "get_audio_driver", broken)
    sounds = Sounds.from_folder(folder, ("coin",))
    sounds.play("coin")
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "connection refused" in err[0]


def test_a_file_that_does_not_decode_is_silent_the_others_play(folder, audio, capsys):
    (folder / "jump.wav").write_bytes(b"RIFF0000not a wave file")
    sounds = Sounds.from_folder(folder, ("coin", "jump"))
    sounds.play("jump")
    sounds.play("coin")
    assert len(audio["played"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "sound off for jump" in err[0] and "jump.wav" in err[0]


def test_the_games_mistakes_are_named(folder, audio):
    with pytest.raises(FileNotFoundError, match=r"no file for 'boom' \(.*boom.wav\)"):
        Sounds.from_folder(folder, ("coin", "boom"))
    sounds = Sounds.from_folder(folder, ("coin",))
    with pytest.raises(KeyError, match="no sound named 'jumpp' .the names are coin"):
        sounds.play("jumpp")
    with pytest.raises(ValueError, match="volume is a number from 0 .silent. to 1 .full., got 2"):
        sounds.play("coin", volume=2)
    with pytest.raises(KeyError, match="'bling'"):
        sounds.hook(object(), {"pickup": "bling"})
    with pytest.raises(FileNotFoundError, match=r"no file for 'x' \(:resources:sounds/no_such.wav\)"):
        Sounds({"x": ":resources:sounds/no_such.wav"})


def test_arcade_resources_are_sounds_too(audio):
    Sounds({"coin": ":resources:sounds/coin1.wav"}).play("coin")
    assert audio["loaded"][0].endswith("coin1.wav") and len(audio["played"]) == 1
