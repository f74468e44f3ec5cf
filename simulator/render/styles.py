"""Turns a RenderObject into instanced primitive parts (the per-type shapes and states).

Owns the ``Kit`` (a local object frame: u = lateral, v = up, t = towards the object's
front) and the small builders for props; furniture builders live in ``fixtures``.
A part row is 17 float32s: a 3x4 affine (rows), rgb, material, texture seed; the renderer
appends the instance id. States: dirty = darker + spots, cooked = browner, filled = a
liquid disc, sliced = slabs, open/toggled per kind (see docs/rendering.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .meshes import BOX, CYLINDER, PRIMITIVES, SPHERE, TUBE
from .palette import (
    GLOW,
    METAL,
    PLAIN,
    RGB,
    SPOTS,
    Look,
    instance_color,
    look_of,
    mix,
    seed_of,
    shade,
)
from .rotation import euler_matrix
from .types import RenderObject
from .utensils import UTENSILS

ROW = 17
_COOKED: RGB = (0.36, 0.20, 0.08)
_WATER: RGB = (0.25, 0.45, 0.85)
_COFFEE: RGB = (0.30, 0.17, 0.08)
_SOIL: RGB = (0.30, 0.20, 0.12)
LIQUIDS: dict[str, RGB] = {"water": _WATER, "coffee": _COFFEE, "wine": (0.45, 0.05, 0.12)}


class Kit:
    """Collects parts of one object in its local frame (metres, centred on the box)."""

    def __init__(self, obj: RenderObject, front: tuple[int, int], look: Look) -> None:
        self.obj, self.look = obj, look
        if obj.extent is not None:  # a calibrated object: its own extents, turned as recorded
            self.frame = euler_matrix(*obj.rotation)
            self.W, self.H, self.D = (max(s, 1e-3) for s in obj.extent)
        else:
            fx, fz = front
            sx, sy, sz = (max(s, 1e-3) for s in obj.size)
            # frame columns: lateral, up, front (a proper rotation)
            self.frame = np.array([[fz, 0, fx], [0, 1, 0], [-fx, 0, fz]], dtype=float)
            self.W, self.H, self.D = (sx, sy, sz) if fz != 0 else (sz, sy, sx)
        self.center = np.array(obj.center, dtype=float)
        self.seed = seed_of(obj.object_id)
        color = instance_color(obj.object_id, look.color, look.jitter)
        if obj.is_cooked:
            color = mix(color, _COOKED, 0.55)
        if obj.is_dirty:
            color = shade(color, 0.72)
        self.body: RGB = color
        self.mat = SPOTS if obj.is_dirty else look.material
        self.parts: dict[int, list[np.ndarray]] = {p: [] for p in PRIMITIVES}

    def add(
        self,
        prim: int,
        pos: tuple[float, float, float],
        dims: tuple[float, float, float],
        rgb: RGB | None = None,
        mat: int | None = None,
        yaw: float = 0.0,
        pivot: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """A primitive centred at local ``pos`` (u, v, t) with extents ``dims``, optionally
        turned by ``yaw`` degrees about a vertical axis through local (u, t) = ``pivot``."""
        m = np.diag([max(d, 1e-3) for d in dims])
        p = np.asarray(pos, dtype=float)
        if yaw:
            c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
            rot = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
            piv = np.array([pivot[0], 0.0, pivot[1]])
            m = rot @ m
            p = rot @ (p - piv) + piv
        affine = np.empty((3, 4))
        affine[:, :3] = self.frame @ m
        affine[:, 3] = self.frame @ p + self.center
        row = np.empty(ROW, dtype=np.float32)
        row[:12] = affine.ravel()
        row[12:15] = rgb if rgb is not None else self.body
        row[15] = self.mat if mat is None else mat
        row[16] = self.seed
        self.parts[prim].append(row)

    def whole(self, prim: int, rgb: RGB | None = None, mat: int | None = None) -> None:
        self.add(prim, (0, 0, 0), (self.W, self.H, self.D), rgb, mat)

    def liquid(self, level: float, width: float, rgb: RGB = _WATER) -> None:
        """A liquid disc at local height ``level`` if the object is filled (coloured by
        ``obj.liquid`` when it names one, else ``rgb``)."""
        if self.obj.is_filled:
            self.add(
                CYLINDER,
                (0, level, 0),
                (width, 0.01 * self.H + 0.002, width * self.D / self.W),
                LIQUIDS.get(self.obj.liquid or "", rgb),
                PLAIN,
            )

    def rows(self) -> dict[int, np.ndarray]:
        return {
            p: np.array(r, dtype=np.float32).reshape(-1, ROW) for p, r in self.parts.items() if r
        }


Builder = Callable[[Kit], None]


def _box(k: Kit) -> None:
    k.whole(BOX)


def _cyl(k: Kit) -> None:
    k.whole(CYLINDER)
    k.liquid(0.5 * k.H, 0.8 * k.W)


def _ball(k: Kit) -> None:
    k.whole(SPHERE)


def _cup(k: Kit) -> None:
    k.whole(TUBE)
    k.liquid(0.2 * k.H, 0.88 * k.W, _COFFEE if k.obj.object_type == "Mug" else _WATER)


def _mug(k: Kit) -> None:
    body_w = 0.75 * k.W
    k.add(TUBE, (-0.12 * k.W, 0, 0), (body_w, k.H, k.D * 0.95))
    k.add(BOX, (0.37 * k.W, 0, 0), (0.12 * k.W, 0.55 * k.H, 0.15 * k.D))
    if k.obj.is_filled:
        rgb = LIQUIDS.get(k.obj.liquid or "", _COFFEE)
        k.add(CYLINDER, (-0.12 * k.W, 0.2 * k.H, 0), (0.66 * k.W, 0.01, 0.84 * k.D), rgb, PLAIN)


def _bowl(k: Kit) -> None:
    k.whole(TUBE)
    k.liquid(0.1 * k.H, 0.86 * k.W)


def _plate(k: Kit) -> None:
    k.add(CYLINDER, (0, 0, 0), (k.W, max(k.H, 0.01), k.D))


def _pan(k: Kit) -> None:
    k.add(TUBE, (0, 0, -0.15 * k.D), (k.W, k.H, 0.7 * k.D))
    k.add(
        BOX, (0, 0.3 * k.H, 0.35 * k.D), (0.08 * k.W, 0.1 * k.H + 0.01, 0.3 * k.D), (0.1, 0.1, 0.1)
    )
    k.liquid(0.0, 0.6 * k.W)


def _pot(k: Kit) -> None:
    k.add(TUBE, (0, 0, 0), (0.8 * k.W, k.H, 0.8 * k.D))
    for side in (-1, 1):
        k.add(BOX, (side * 0.45 * k.W, 0.3 * k.H, 0), (0.1 * k.W, 0.1 * k.H, 0.2 * k.D))
    k.liquid(0.2 * k.H, 0.7 * k.W)


def _kettle(k: Kit) -> None:
    k.add(CYLINDER, (0, -0.1 * k.H, 0), (0.8 * k.W, 0.8 * k.H, 0.8 * k.D))
    k.add(BOX, (0, 0.4 * k.H, 0), (0.5 * k.W, 0.08 * k.H, 0.08 * k.D), (0.1, 0.1, 0.1))
    k.add(CYLINDER, (0.42 * k.W, 0.0, 0), (0.12 * k.W, 0.4 * k.H, 0.12 * k.D))


def _bottle(k: Kit) -> None:
    k.add(CYLINDER, (0, -0.15 * k.H, 0), (k.W, 0.7 * k.H, k.D))
    k.add(CYLINDER, (0, 0.35 * k.H, 0), (0.35 * k.W, 0.3 * k.H, 0.35 * k.D))


def _loaf(k: Kit) -> None:
    k.add(BOX, (0, -0.15 * k.H, 0), (k.W, 0.7 * k.H, k.D))
    k.add(SPHERE, (0, 0.1 * k.H, 0), (k.W, 0.8 * k.H, k.D))


_FLESH: dict[str, RGB] = {
    "Apple": (0.96, 0.92, 0.72),
    "Tomato": (0.90, 0.28, 0.22),
    "Potato": (0.95, 0.90, 0.62),
    "Lettuce": (0.60, 0.85, 0.40),
    "Bread": (0.93, 0.82, 0.60),
}


def _sliced_whole(k: Kit) -> None:
    """A whole object that was sliced in place: a row of slabs along its long axis."""
    flesh = _FLESH.get(k.obj.object_type, shade(k.body, 1.3))
    if k.obj.is_cooked:
        flesh = mix(flesh, _COOKED, 0.55)
    n = 5
    along_w = k.W >= k.D
    length = k.W if along_w else k.D
    step = length / n
    for i in range(n):
        off = -length / 2 + step * (i + 0.5)
        pos = (off, 0, 0) if along_w else (0, 0, off)
        dims = (0.8 * step, k.H, k.D) if along_w else (k.W, k.H, 0.8 * step)
        k.add(
            BOX if k.obj.object_type == "Bread" else SPHERE, pos, dims, flesh if i % 2 else k.body
        )


def _slice(k: Kit) -> None:
    k.whole(SPHERE)


def _slab(k: Kit) -> None:
    k.whole(BOX)
    k.add(BOX, (0, 0, 0), (k.W * 1.02, k.H * 0.92, k.D * 1.02), shade(k.body, 0.75))


def _egg_cracked(k: Kit) -> None:
    k.add(CYLINDER, (0, -0.3 * k.H, 0), (k.W, 0.3 * k.H, k.D))
    yolk = (0.95, 0.55, 0.10) if k.obj.is_cooked else (0.98, 0.75, 0.15)
    k.add(SPHERE, (0, -0.1 * k.H, 0), (0.4 * k.W, 0.4 * k.H, 0.4 * k.D), yolk)


def _book(k: Kit) -> None:
    if k.obj.is_open:
        k.add(BOX, (0, -0.3 * k.H, 0), (k.W, 0.3 * k.H, k.D))
        k.add(
            BOX, (0, -0.1 * k.H, 0), (0.95 * k.W, 0.15 * k.H, 0.95 * k.D), (0.95, 0.93, 0.86), PLAIN
        )
    else:
        k.whole(BOX)
        k.add(
            BOX, (0, 0, 0.03 * k.D), (0.96 * k.W, 0.85 * k.H, 0.96 * k.D), (0.95, 0.93, 0.86), PLAIN
        )


def _burner(k: Kit) -> None:
    k.add(CYLINDER, (0, -0.25 * k.H, 0), (k.W, 0.5 * k.H, k.D))
    if k.obj.is_toggled:
        k.add(
            CYLINDER,
            (0, 0.05 * k.H, 0),
            (0.8 * k.W, 0.2 * k.H + 0.004, 0.8 * k.D),
            (1.0, 0.25, 0.05),
            GLOW,
        )
    else:
        k.add(
            CYLINDER,
            (0, 0.05 * k.H, 0),
            (0.8 * k.W, 0.2 * k.H + 0.004, 0.8 * k.D),
            (0.22, 0.22, 0.23),
            METAL,
        )


def _knob(k: Kit) -> None:
    k.whole(CYLINDER)
    if k.obj.is_toggled:
        k.add(
            BOX,
            (0, 0, 0.5 * k.D),
            (0.2 * k.W, 0.6 * k.H, 0.05 * k.D + 0.004),
            (1.0, 0.3, 0.1),
            GLOW,
        )


def _faucet(k: Kit) -> None:
    """A column at the back with a handle on either side (AI2-THOR's faucets are as wide as
    their handles: their masks are) and a spout reaching forward over the basin."""
    k.add(CYLINDER, (0, -0.1 * k.H, -0.25 * k.D), (0.3 * k.W, 0.8 * k.H, 0.3 * k.D))
    k.add(BOX, (0, -0.3 * k.H, -0.25 * k.D), (k.W, 0.2 * k.H, 0.3 * k.D), shade(k.body, 0.9))
    k.add(BOX, (0, 0.35 * k.H, 0.1 * k.D), (0.2 * k.W, 0.15 * k.H, 0.7 * k.D))
    if k.obj.is_toggled:
        k.add(
            CYLINDER,
            (0, -0.6 * k.H, 0.4 * k.D),
            (0.08 * k.W + 0.01, 1.6 * k.H, 0.08 * k.D + 0.01),
            (0.55, 0.75, 1.0),
            GLOW,
        )


BUILDERS: dict[str, Builder] = {
    "box": _box,
    "cyl": _cyl,
    "ball": _ball,
    "mug": _mug,
    "cup": _cup,
    "bowl": _bowl,
    "plate": _plate,
    "pan": _pan,
    "pot": _pot,
    "kettle": _kettle,
    "bottle": _bottle,
    "loaf": _loaf,
    "slice": _slice,
    "slab": _slab,
    "egg_cracked": _egg_cracked,
    "book": _book,
    "burner": _burner,
    "knob": _knob,
    "faucet": _faucet,
    **UTENSILS,
}


def front_of(obj: RenderObject, bounds: tuple[float, float, float, float]) -> tuple[int, int]:
    """The axis direction (x, z) an object faces: away from the nearest room wall."""
    xmin, xmax, zmin, zmax = bounds
    (cx, _, cz), (sx, _, sz) = obj.center, obj.size
    gaps = [
        (cx - sx / 2 - xmin, (1, 0)),
        (xmax - cx - sx / 2, (-1, 0)),
        (cz - sz / 2 - zmin, (0, 1)),
        (zmax - cz - sz / 2, (0, -1)),
    ]
    return min(gaps, key=lambda g: g[0])[1]


def object_rows(
    obj: RenderObject, bounds: tuple[float, float, float, float]
) -> dict[int, np.ndarray]:
    """Primitive -> (n, 17) float32 rows for one object (empty if hidden)."""
    if obj.hidden:
        return {}
    from .fixtures import FIXTURES

    look = look_of(obj.object_type)
    kit = Kit(obj, obj.front or front_of(obj, bounds), look)
    if obj.is_sliced and look.kind in ("ball", "apple", "tomato", "loaf"):
        _sliced_whole(kit)
    else:
        builder = BUILDERS.get(look.kind) or FIXTURES.get(look.kind) or _box
        builder(kit)
    return kit.rows()


__all__ = [
    "BUILDERS",
    "Kit",
    "ROW",
    "front_of",
    "object_rows",
    "BOX",
    "CYLINDER",
    "SPHERE",
    "TUBE",
    "GLOW",
]
