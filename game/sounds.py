"""Short sound effects made by the project: numpy waveforms written as 16-bit mono WAV files."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 22050


def _envelope(n: int, attack: float = 0.01, release: float = 0.6) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n)
    return np.minimum(1.0, t / max(attack, 1e-6)) * np.exp(-t / max(release, 1e-6) * 3.0)


def _sweep(f0: float, f1: float, seconds: float, square: bool = False) -> np.ndarray:
    n = int(RATE * seconds)
    freq = np.linspace(f0, f1, n)
    phase = 2 * np.pi * np.cumsum(freq) / RATE
    wave_ = np.sign(np.sin(phase)) * 0.5 if square else np.sin(phase)
    return wave_ * _envelope(n)


def _noise(seconds: float, seed: int) -> np.ndarray:
    n = int(RATE * seconds)
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, n) * _envelope(n, 0.002, 0.3)


SOUNDS = {
    "jump": lambda: _sweep(300, 700, 0.15, square=True) * 0.35,
    "land": lambda: _noise(0.08, 1) * 0.4,
    "coin": lambda: np.concatenate([_sweep(990, 990, 0.06), _sweep(1320, 1320, 0.12)]) * 0.4,
    "hurt": lambda: _sweep(400, 90, 0.35, square=True) * 0.35,
    "goal": lambda: np.concatenate([_sweep(f, f, 0.11) for f in (523, 659, 784, 1046)]) * 0.4,
    "checkpoint": lambda: np.concatenate([_sweep(660, 660, 0.08), _sweep(880, 880, 0.1)]) * 0.35,
}


def write_sounds(folder: Path) -> None:
    for name, make in SOUNDS.items():
        samples = np.clip(make(), -1.0, 1.0)
        with wave.open(str(folder / f"{name}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes((samples * 32767).astype("<i2").tobytes())


MUSIC_RATE = 11025
"""The music loop's sample rate: chiptune needs little, and the file stays small (about 180 kB)."""

# Four bars (C, A minor, F, G) at 120 bpm, played twice with a different melody: an 8 s loop.
_CHORDS = [(48, 52, 55), (45, 48, 52), (41, 45, 48), (43, 47, 50)]
_MELODY = [[72, 76, 79, 76], [72, 69, 72, 76], [77, 76, 72, 69], [71, 74, 79, 74],
           [76, 79, 84, 79], [76, 72, 69, 72], [77, 81, 77, 72], [74, 71, 67, 71]]


def _tone(midi: int, seconds: float, shape: str) -> np.ndarray:
    n = int(MUSIC_RATE * seconds)
    t = np.arange(n) / MUSIC_RATE
    phase = (440.0 * 2 ** ((midi - 69) / 12) * t) % 1.0
    wave_ = np.where(phase < 0.5, 0.5, -0.5) if shape == "square" else 4 * np.abs(phase - 0.5) - 1
    fade = np.minimum(1.0, np.minimum(t / 0.005, (seconds - t) / 0.02))  # no clicks at note edges
    return wave_ * fade * np.exp(-t * (3.0 if shape == "square" else 1.0))


def music_loop() -> np.ndarray:
    """The title and level music: a soft square-wave melody over a triangle bass, seamless when looped."""
    beat = 0.5
    bars = []
    for bar, notes in enumerate(_MELODY):
        chord = _CHORDS[bar % 4]
        lead = np.concatenate([_tone(m, beat, "square") for m in notes])
        bass = np.concatenate([_tone(chord[k % 3] - 12 * (k % 2 == 0), beat, "triangle") for k in range(4)])
        bars.append(lead * 0.18 + bass * 0.35)
    return np.concatenate(bars)


def write_music(folder: Path) -> None:
    samples = np.clip(music_loop(), -1.0, 1.0)
    with wave.open(str(folder / "music.wav"), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(MUSIC_RATE)
        out.writeframes((samples * 32767).astype("<i2").tobytes())
