"""The contacts of a rigid-body step as Python reads them: :class:`ContactSet`, a view of the kernels' arrays.

A contact's normal points from A to B; separations are px, negative for an overlap. B is always a rigid body;
A is a static segment (named by its index), a kinematic body, a character or a rigid body. See
:mod:`engine.world.kernels.layout` for the columns.
"""

from __future__ import annotations

import numpy as np

from .kernels.layout import (
    A, B, CONTACT_FLOATS, CONTACT_INTS, ID0, KEY, KIND, NORMAL0, NX, POINT0_X, SEP0, TOUCHING, VALID0,
)

__all__ = ["ContactSet", "EMPTY_CONTACTS"]


class ContactSet:
    """The contacts of one step (read-only): ``ints`` (m, CONTACT_INTS) and ``floats`` (m, CONTACT_FLOATS)."""

    def __init__(self, ints: np.ndarray, floats: np.ndarray) -> None:
        self.ints, self.floats = ints, floats

    def __len__(self) -> int:
        return len(self.ints)

    @property
    def keys(self) -> np.ndarray:
        """(m,) int64: each pair's key (unique within the step, kept while the pair touches)."""
        return self.ints[:, KEY]

    @property
    def kind(self) -> np.ndarray:
        """(m,) int64: what A is (``engine.world.kernels.layout``: STATIC, KINEMATIC, CHARACTER, DYNAMIC)."""
        return self.ints[:, KIND]

    @property
    def a_index(self) -> np.ndarray:
        """(m,) int64: A's segment index, mover row or body row (by :attr:`kind`)."""
        return self.ints[:, A]

    @property
    def b_index(self) -> np.ndarray:
        """(m,) int64: B's body row."""
        return self.ints[:, B]

    @property
    def ids(self) -> np.ndarray:
        """(m, 2) int64: the points' feature ids."""
        return self.ints[:, ID0:ID0 + 2]

    @property
    def valid(self) -> np.ndarray:
        """(m, 2) bool: which points exist."""
        return self.ints[:, VALID0:VALID0 + 2] != 0

    @property
    def touching(self) -> np.ndarray:
        """(m,) bool: the pair touches (closest separation within the slop)."""
        return self.ints[:, TOUCHING] != 0

    @property
    def normal(self) -> np.ndarray:
        """(m, 2): unit normal from A to B."""
        return self.floats[:, NX:NX + 2]

    @property
    def point(self) -> np.ndarray:
        """(m, 2, 2) px: the points (world), midway between the surfaces."""
        return self.floats[:, POINT0_X:POINT0_X + 4].reshape(-1, 2, 2)

    @property
    def separation(self) -> np.ndarray:
        """(m, 2) px at step start (+inf where there is no point)."""
        return self.floats[:, SEP0:SEP0 + 2]

    @property
    def impulse(self) -> np.ndarray:
        """(m, 4): accumulated impulses, normal 0, normal 1, tangent 0, tangent 1 (mass x px/s)."""
        return self.floats[:, NORMAL0:NORMAL0 + 4]


EMPTY_CONTACTS = ContactSet(np.zeros((0, CONTACT_INTS), np.int64), np.zeros((0, CONTACT_FLOATS)))
"""No contacts (shared: never written)."""
