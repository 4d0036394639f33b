"""The demo's generated art and sounds, installed as the package data ``game.assets``.

This folder holds no code: it is a package only so that a wheel carries the images and sounds and
``importlib.resources.files("game.assets")`` finds them wherever Ledgekit is installed (see :mod:`game.data`).
Its ``benchmarks/`` charts stay in the repository (they are not package data).
"""
