"""Builders for the look-alike small props: cutlery told apart by their heads and handles,
apples by a stem and tomatoes by a green calyx.

AI2-THOR draws a knife with a dark handle and a broad blade, a butter knife all steel with a
round tip, a fork and a spoon with a head wider than the handle; until these builders ours were
one steel stick each, and an apple and a tomato one red ball each, so a detector trained on our
frames could not tell them apart (docs/perception.md, the confusion table). Every part stays
inside the object's box, so the instance masks keep their extent. Registered into
``styles.BUILDERS`` by name (the ``kind`` of a ``palette.Look``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .meshes import BOX, CYLINDER, SPHERE
from .palette import METAL, PLAIN, RGB, shade

if TYPE_CHECKING:  # pragma: no cover
    from .styles import Kit

_HANDLE: RGB = (0.10, 0.09, 0.09)
_STEM: RGB = (0.35, 0.22, 0.10)
_CALYX: RGB = (0.20, 0.55, 0.15)


def _long_axis(k: Kit) -> int:
    """0 = lateral (W), 1 = up (H), 2 = front (D): the axis the utensil lies along."""
    dims = (k.W, k.H, k.D)
    return max(range(3), key=lambda i: dims[i])


def _segment(k: Kit, prim: int, start: float, end: float, width: float, thick: float,
             rgb: RGB | None = None, mat: int | None = None, across: float = 0.0) -> None:
    """A part along the long axis from ``start`` to ``end`` (fractions of the length: 0 is
    the handle's end, 1 the tip), ``width`` and ``thick`` fractions of the box's other two
    extents (the wider one is the width), centred ``across`` (a fraction of the width) off
    the middle."""
    axis = _long_axis(k)
    dims = [k.W, k.H, k.D]
    wide, thin = sorted((i for i in range(3) if i != axis), key=lambda i: -dims[i])
    size = [0.0, 0.0, 0.0]
    pos = [0.0, 0.0, 0.0]
    size[axis] = (end - start) * dims[axis]
    pos[axis] = ((start + end) / 2 - 0.5) * dims[axis]
    size[wide], pos[wide] = width * dims[wide], across * dims[wide]
    size[thin] = thick * dims[thin]
    k.add(prim, tuple(pos), tuple(size), rgb, mat)


def _knife(k: Kit) -> None:
    """A dark handle on the first 40%, then a steel blade."""
    _segment(k, BOX, 0.0, 0.4, 1.0, 1.0, _HANDLE, PLAIN)
    _segment(k, BOX, 0.4, 1.0, 1.0, 1.0)


def _butter_knife(k: Kit) -> None:
    """All steel: a narrower handle, a blade as wide as the box, a round tip."""
    _segment(k, BOX, 0.0, 0.5, 0.7, 1.0)
    _segment(k, BOX, 0.5, 0.88, 1.0, 1.0)
    _segment(k, SPHERE, 0.76, 1.0, 1.0, 1.0)


def _fork(k: Kit) -> None:
    """A steel handle half as wide as the head, a flat head with three tines."""
    _segment(k, BOX, 0.0, 0.62, 0.5, 1.0)
    _segment(k, BOX, 0.62, 0.78, 1.0, 0.6)
    for across in (-0.38, 0.0, 0.38):
        _segment(k, BOX, 0.78, 1.0, 0.2, 0.6, across=across)


def _spoon(k: Kit) -> None:
    """A steel handle narrower than the bowl, an oval bowl as wide as the box."""
    _segment(k, BOX, 0.0, 0.6, 0.6, 1.0)
    _segment(k, SPHERE, 0.55, 1.0, 1.0, 1.0)


def _apple(k: Kit) -> None:
    """A ball with a brown stem on top."""
    k.whole(SPHERE)
    k.add(CYLINDER, (0, 0.42 * k.H, 0), (0.08 * k.W, 0.16 * k.H, 0.08 * k.D), _STEM, PLAIN)


def _tomato(k: Kit) -> None:
    """A glossy flattened ball with a green calyx on top."""
    k.whole(SPHERE, mat=METAL)
    k.add(CYLINDER, (0, 0.43 * k.H, 0), (0.4 * k.W, 0.08 * k.H, 0.4 * k.D), _CALYX, PLAIN)
    k.add(CYLINDER, (0, 0.45 * k.H, 0), (0.1 * k.W, 0.1 * k.H, 0.1 * k.D), shade(_CALYX, 0.8), PLAIN)


UTENSILS = {
    "knife": _knife,
    "butter_knife": _butter_knife,
    "fork": _fork,
    "spoon": _spoon,
    "apple": _apple,
    "tomato": _tomato,
}
