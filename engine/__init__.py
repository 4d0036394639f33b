"""Ledgekit: a 2D platformer framework.

``engine.geometry`` is the pure geometry kernel (shapes, contacts, queries, casts, broad phase). Only the
rendering adapter imports arcade; everything else runs without a window.
"""

__version__ = "0.1.0"
