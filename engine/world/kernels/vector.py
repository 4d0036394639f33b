"""Vector arithmetic every kernel shares, written so that plain Python and compiled code give the same bits."""

from __future__ import annotations

import math

from .compile import helper

__all__ = ["length"]


@helper
def length(x, y):
    """The length of (x, y): ``sqrt(x*x + y*y)``, not ``math.hypot``: CPython's hypot and the C library's (which
    compiled code calls) differ in the last bit now and then, and plain and compiled runs must give the same
    bits. (Squares of pixel values neither overflow nor underflow.)"""
    return math.sqrt(x * x + y * y)
