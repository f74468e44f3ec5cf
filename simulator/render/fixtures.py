"""Builders for furniture and appliances (composed shapes with doors, basins, lamps).

Owns the shapes of receptacles and fixtures. Openable receptacles are hollow shells with
a door (or a sliding front) so that what they contain is visible when open; the door
swings ~100 degrees about a hinge on the object's right front edge (the viewer's left).
"""

from __future__ import annotations

import numpy as np

from simulator.calibration.table import seat_top
from simulator.objects import DRAWER_SLIDE

from .meshes import BOX, CYLINDER, SPHERE, TUBE
from .palette import GLOW, METAL, PLAIN, WOOD, shade
from .styles import Builder, Kit

_HANDLE = (0.75, 0.76, 0.78)
_DARK = (0.08, 0.08, 0.09)
_INSIDE = (0.92, 0.92, 0.90)


def _shell(k: Kit, th: float, inside=None, depth: float | None = None, floor_below: bool = False) -> None:
    """A box open at the front: back, sides, top, bottom (inside colour on the back). With
    ``floor_below`` the bottom lies just under the box, or under its lowest calibrated
    shelf if that is lower (a base cabinet's things rest a median 1.6 cm under the builder's
    box): what rests on a cabinet's floor is not sunk into it."""
    W, H, D = k.W, k.H, depth if depth is not None else k.D
    t0 = -k.D / 2 + D / 2
    k.add(BOX, (0, 0, -k.D / 2 + th / 2), (W, H, th), inside or shade(k.body, 0.8))
    for side in (-1, 1):
        k.add(BOX, (side * (W - th) / 2, 0, t0), (th, H, D))
    k.add(BOX, (0, (H - th) / 2, t0), (W - 2 * th, th, D))
    if floor_below:
        floor_top = min([-H / 2, *(level - k.center[1] for level in k.obj.levels)])
        k.add(BOX, (0, floor_top - th / 2, t0), (W - 2 * th, th, D))
    else:
        k.add(BOX, (0, -(H - th) / 2, t0), (W - 2 * th, th, D))


def _door(k: Kit, th: float, v: float, h: float, rgb=None, mat=None, window=None) -> None:
    """The door over the front, hinged on the front's right edge as the object faces (the
    viewer's left, as AI2-THOR's fridges and microwaves open: check-masks' close and put
    masks of fridges 0.69 -> 0.76 IoU, microwaves 0.59 -> 0.78), swung ~100 degrees open."""
    yaw = 100.0 if k.obj.is_open else 0.0
    pivot = (k.W / 2, k.D / 2)
    t = k.D / 2 - th / 2
    k.add(BOX, (0, v, t), (k.W, h, th), rgb, mat, yaw, pivot)
    k.add(BOX, (-0.4 * k.W, v, k.D / 2 + 0.015), (0.03, 0.4 * h, 0.03), _HANDLE, METAL, yaw, pivot)
    if window is not None:
        k.add(
            BOX,
            (0.1 * k.W, v, k.D / 2 + 0.002),
            (0.6 * k.W, 0.6 * h, 0.004),
            window,
            PLAIN,
            yaw,
            pivot,
        )


def _shelves(k: Kit, th: float, default: tuple[float, ...], rgb=None) -> None:
    """Thin shelves inside an open shell: at the calibrated ``levels`` (their tops where
    AI2-THOR's objects rest), else at the ``default`` fractions of the height."""
    if k.obj.levels:
        tops = [level - k.center[1] for level in k.obj.levels]
    else:
        tops = [f * k.H + 0.005 for f in default]
    for top in tops:
        if -k.H / 2 + th + 0.01 < top < k.H / 2 - th:
            k.add(BOX, (0, top - 0.005, -th / 2), (k.W - 2 * th, 0.01, k.D - 2 * th), rgb, PLAIN)


def _fridge(k: Kit) -> None:
    th = min(0.05, 0.1 * k.D)
    _shell(k, th, _INSIDE, k.D - th)
    if k.obj.is_open:
        _shelves(k, th, (-0.2, 0.1), (0.8, 0.85, 0.9))
        k.add(
            BOX,
            (0, 0.4 * k.H, -k.D / 2 + th + 0.01),
            (0.3 * k.W, 0.04, 0.01),
            (1.0, 1.0, 0.9),
            GLOW,
        )
    _door(k, th, 0, k.H)


def _cabinet(k: Kit) -> None:
    th = min(0.03, 0.1 * k.D, 0.1 * k.W)
    _shell(k, th, None, k.D - th, floor_below=True)
    if k.obj.is_open:
        _shelves(k, th, ())
    _door(k, th, 0, k.H)


def _drawer(k: Kit) -> None:
    th = min(0.02, 0.1 * k.D, 0.1 * k.H)
    out = DRAWER_SLIDE * k.D if k.obj.is_open else 0.0  # what is in it moves with it (simulator.actions)
    k.add(BOX, (0, -k.H / 2 + th / 2, out), (k.W, th, k.D))  # bottom
    k.add(BOX, (0, 0, out - k.D / 2 + th / 2), (k.W, k.H, th))  # back
    for side in (-1, 1):
        k.add(BOX, (side * (k.W - th) / 2, 0, out), (th, k.H, k.D))
    k.add(BOX, (0, 0, out + k.D / 2 - th / 2), (k.W, k.H, th))  # front
    k.add(BOX, (0, 0, out + k.D / 2 + 0.012), (0.3 * k.W, 0.025, 0.025), _HANDLE, METAL)


def _microwave(k: Kit) -> None:
    th = min(0.03, 0.1 * k.D)
    inside = (1.0, 0.9, 0.55) if k.obj.is_toggled else (0.55, 0.55, 0.55)
    _shell(k, th, inside, k.D - th)
    if k.obj.is_open:  # its plate, where AI2-THOR's things rest (calibrated); else its floor
        _shelves(k, th, ())
    if k.obj.is_toggled:
        k.add(BOX, (0, 0, -k.D / 2 + th + 0.003), (0.6 * k.W, 0.6 * k.H, 0.004), inside, GLOW)
    _door(k, th, 0, k.H, window=_DARK)


Rect = tuple[float, float, float, float]  # world x0, x1, z0, z1


def footprint(position, size) -> Rect:
    """The x/z rectangle of a box (centre, full size)."""
    (x, _, z), (sx, _, sz) = position, size
    return (x - sx / 2, x + sx / 2, z - sz / 2, z + sz / 2)


def overlap(a: Rect, b: Rect) -> Rect | None:
    """The rectangle two rectangles share, or None."""
    cut = (max(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), min(a[3], b[3]))
    return cut if cut[0] < cut[1] and cut[2] < cut[3] else None


def _cut(rect: Rect, hole: Rect) -> list[Rect]:
    """``rect`` minus ``hole`` as up to four rectangles."""
    shared = overlap(rect, hole)
    if shared is None:
        return [rect]
    x0, x1, z0, z1 = rect
    hx0, hx1, hz0, hz1 = shared
    parts = [(x0, hx0, z0, z1), (hx1, x1, z0, z1), (hx0, hx1, z0, hz0), (hx0, hx1, hz1, z1)]
    return [p for p in parts if p[1] - p[0] > 1e-3 and p[3] - p[2] > 1e-3]


def _holed_slab(k: Kit, v: float, h: float, rgb=None, mat=None, more: tuple = ()) -> None:
    """A horizontal slab over the whole footprint at local height ``v``, ``h`` thick, with
    the object's ``holes`` (and ``more``; world rectangles) cut out of it."""
    cx, _, cz = k.obj.center
    rects = [footprint(k.obj.center, k.obj.size)]
    for hole in (*k.obj.holes, *more):
        rects = [piece for r in rects for piece in _cut(r, hole)]
    to_local = k.frame.T  # the frame is orthonormal: world offsets -> (u, v, t)
    for x0, x1, z0, z1 in rects:
        pos = to_local @ np.array([(x0 + x1) / 2 - cx, 0.0, (z0 + z1) / 2 - cz])
        dims = np.abs(to_local) @ np.array([x1 - x0, h, z1 - z0])
        k.add(BOX, (pos[0], v, pos[2]), tuple(dims), rgb, mat)


def _counter(k: Kit) -> None:
    top = min(0.05, 0.3 * k.H)
    body = (0.55, 0.42, 0.30)
    if k.obj.holes or k.obj.body_holes:
        # a basin set in it: top and body cut open there; cabinets and drawers under it: the
        # body cut open there (each is drawn itself)
        _holed_slab(k, k.H / 2 - top / 2, top)
        _holed_slab(k, -top / 2, k.H - top, body, WOOD, k.obj.body_holes)
        return
    k.add(BOX, (0, k.H / 2 - top / 2, 0), (k.W, top, k.D))
    k.add(BOX, (0, -top / 2, -0.03), (k.W * 0.98, k.H - top, k.D - 0.06), body, WOOD)


def _tray(k: Kit, th: float, inside, floor: float | None = None) -> None:
    """An open-top box: bottom (``floor`` thick, else ``th``) and four walls ``th`` thick
    (for basins, sinks, tubs)."""
    floor = th if floor is None else floor
    k.add(BOX, (0, -k.H / 2 + floor / 2, 0), (k.W, floor, k.D), inside)
    for side in (-1, 1):
        k.add(BOX, (side * (k.W - th) / 2, 0, 0), (th, k.H, k.D))
        k.add(BOX, (0, 0, side * (k.D - th) / 2), (k.W - 2 * th, k.H, th))


def _sink(k: Kit) -> None:
    if k.obj.holes:  # its basin is a separate object: the sink is the rim around it
        _holed_slab(k, k.H / 2 - 0.01, 0.02)
        return
    _tray(k, min(0.06, 0.2 * k.W, 0.2 * k.D), (0.45, 0.47, 0.50))


def _basin(k: Kit) -> None:
    _tray(k, min(0.02, 0.1 * k.W, 0.1 * k.D), shade(k.body, 0.7))
    k.liquid(-0.2 * k.H, 0.9 * k.W)


def _bathtub(k: Kit) -> None:
    # a thin floor: things rest 2 cm above the box's bottom (simulator.calibration.basins)
    _tray(k, min(0.08, 0.15 * k.W, 0.15 * k.D), shade(k.body, 0.85), floor=0.02)


def _coffee(k: Kit) -> None:
    k.add(BOX, (0, -0.45 * k.H, 0), (k.W, 0.1 * k.H, k.D))  # base
    k.add(BOX, (0, 0, -0.3 * k.D), (k.W, k.H, 0.4 * k.D))  # column
    k.add(BOX, (0, 0.35 * k.H, 0.1 * k.D), (k.W, 0.3 * k.H, 0.8 * k.D))  # head
    light = (1.0, 0.2, 0.1) if k.obj.is_toggled else (0.25, 0.05, 0.05)
    k.add(
        BOX,
        (0.3 * k.W, 0.35 * k.H, 0.5 * k.D + 0.002),
        (0.08 * k.W, 0.06 * k.H, 0.004),
        light,
        GLOW if k.obj.is_toggled else PLAIN,
    )


def _toaster(k: Kit) -> None:
    k.whole(BOX)
    slot = (1.0, 0.45, 0.1) if k.obj.is_toggled else _DARK
    for side in (-1, 1):
        k.add(
            BOX,
            (side * 0.2 * k.W, k.H / 2 + 0.001, 0),
            (0.12 * k.W, 0.004, 0.7 * k.D),
            slot,
            GLOW if k.obj.is_toggled else PLAIN,
        )


def _table(k: Kit) -> None:
    top = min(0.05, 0.2 * k.H)
    k.add(BOX, (0, k.H / 2 - top / 2, 0), (k.W, top, k.D))
    leg = min(0.06, 0.1 * k.W, 0.1 * k.D)
    for su in (-1, 1):
        for st in (-1, 1):
            k.add(
                BOX, (su * (k.W - leg) / 2, -top / 2, st * (k.D - leg) / 2), (leg, k.H - top, leg)
            )


def _chair(k: Kit) -> None:
    seat_v = -0.05 * k.H
    k.add(BOX, (0, seat_v, 0), (k.W, 0.06 * k.H, k.D))
    leg = 0.08 * min(k.W, k.D)
    for su in (-1, 1):
        for st in (-1, 1):
            k.add(
                BOX,
                (su * (k.W - leg) / 2, -0.27 * k.H, st * (k.D - leg) / 2),
                (leg, 0.46 * k.H, leg),
            )
    if k.obj.object_type == "Chair":
        k.add(BOX, (0, 0.23 * k.H, -(k.D - leg) / 2), (k.W, 0.5 * k.H, leg))


def _sofa(k: Kit) -> None:
    # the seat's top where AI2-THOR's things rest on it (fitted per instance or type), else 0.6 of the height
    bottom = k.center[1] - k.H / 2
    top = seat_top(k.obj.object_type, bottom, k.H, k.obj.levels)
    seat = 0.6 if top is None else min(max((top - bottom) / k.H, 0.05), 1.0)
    k.add(BOX, (0, (seat - 1) * k.H / 2, 0.05 * k.D), (k.W, seat * k.H, 0.9 * k.D))
    k.add(BOX, (0, 0.1 * k.H, -0.4 * k.D), (k.W, 0.8 * k.H, 0.2 * k.D), shade(k.body, 0.9))
    for side in (-1, 1):
        k.add(
            BOX,
            (side * 0.45 * k.W, -0.05 * k.H, 0.05 * k.D),
            (0.1 * k.W, 0.5 * k.H, 0.9 * k.D),
            shade(k.body, 0.95),
        )


def _bed(k: Kit) -> None:
    k.add(BOX, (0, -0.3 * k.H, 0), (k.W, 0.4 * k.H, k.D), (0.45, 0.32, 0.22), WOOD)
    k.add(BOX, (0, 0.0, 0.05 * k.D), (0.98 * k.W, 0.25 * k.H, 0.9 * k.D))
    k.add(
        BOX, (0, 0.15 * k.H, -0.38 * k.D), (0.8 * k.W, 0.12 * k.H, 0.15 * k.D), (0.95, 0.95, 0.95)
    )
    k.add(BOX, (0, 0.2 * k.H, -0.48 * k.D), (k.W, 0.6 * k.H, 0.04 * k.D), (0.45, 0.32, 0.22), WOOD)


def _furniture(k: Kit) -> None:
    k.whole(BOX)
    for f in (-0.15, 0.2):
        k.add(BOX, (0, f * k.H, k.D / 2 + 0.004), (0.9 * k.W, 0.004, 0.008), shade(k.body, 0.6))


def _toilet(k: Kit) -> None:
    k.add(CYLINDER, (0, -0.3 * k.H, 0.1 * k.D), (0.5 * k.W, 0.4 * k.H, 0.5 * k.D))
    k.add(TUBE, (0, -0.05 * k.H, 0.15 * k.D), (0.9 * k.W, 0.15 * k.H, 0.65 * k.D))
    k.add(BOX, (0, 0.2 * k.H, -0.38 * k.D), (0.9 * k.W, 0.5 * k.H, 0.22 * k.D))
    if k.obj.is_open:
        k.add(BOX, (0, 0.2 * k.H, -0.24 * k.D), (0.85 * k.W, 0.4 * k.H, 0.03), shade(k.body, 0.95))
    else:
        k.add(
            BOX, (0, 0.035 * k.H, 0.15 * k.D), (0.88 * k.W, 0.03, 0.63 * k.D), shade(k.body, 0.95)
        )


def _tv(k: Kit) -> None:
    k.whole(BOX)
    screen = (0.35, 0.55, 0.85) if k.obj.is_toggled else (0.03, 0.03, 0.04)
    k.add(
        BOX,
        (0, 0.05 * k.H, k.D / 2 + 0.002),
        (0.92 * k.W, 0.8 * k.H, 0.004),
        screen,
        GLOW if k.obj.is_toggled else PLAIN,
    )


def _laptop(k: Kit) -> None:
    if not k.obj.is_open:
        k.add(BOX, (0, -0.4 * k.H, 0), (k.W, 0.2 * k.H, k.D))
        return
    k.add(BOX, (0, -0.45 * k.H, 0.1 * k.D), (k.W, 0.1 * k.H, 0.8 * k.D))
    k.add(BOX, (0, 0.05 * k.H, -0.45 * k.D), (k.W, 0.9 * k.H, 0.1 * k.D))
    screen = (0.4, 0.6, 0.9) if k.obj.is_toggled else (0.03, 0.03, 0.04)
    k.add(
        BOX,
        (0, 0.08 * k.H, -0.4 * k.D + 0.002),
        (0.9 * k.W, 0.75 * k.H, 0.004),
        screen,
        GLOW if k.obj.is_toggled else PLAIN,
    )


def _lamp(k: Kit, shade_h: float) -> None:
    k.add(CYLINDER, (0, -0.48 * k.H, 0), (0.6 * k.W, 0.04 * k.H, 0.6 * k.D))
    k.add(CYLINDER, (0, -0.1 * k.H, 0), (0.06 * k.W + 0.01, 0.8 * k.H, 0.06 * k.D + 0.01))
    lit = k.obj.is_toggled
    color = (1.0, 0.92, 0.6) if lit else (0.85, 0.8, 0.7)
    k.add(
        CYLINDER,
        (0, (0.5 - shade_h / 2) * k.H, 0),
        (k.W, shade_h * k.H, k.D),
        color,
        GLOW if lit else PLAIN,
    )


def _floorlamp(k: Kit) -> None:
    _lamp(k, 0.25)


def _desklamp(k: Kit) -> None:
    _lamp(k, 0.4)


def _panel(k: Kit) -> None:
    k.whole(BOX, shade(k.body, 0.5) if k.obj.object_type != "Window" else (0.9, 0.9, 0.9))
    k.add(BOX, (0, 0, k.D / 2 + 0.002), (0.85 * k.W, 0.85 * k.H, 0.004))


def _plant(k: Kit) -> None:
    soil = (0.22, 0.14, 0.08) if k.obj.is_filled else (0.40, 0.30, 0.20)
    k.add(TUBE, (0, -0.35 * k.H, 0), (0.6 * k.W, 0.3 * k.H, 0.6 * k.D), (0.70, 0.40, 0.25))
    k.add(CYLINDER, (0, -0.25 * k.H, 0), (0.55 * k.W, 0.01, 0.55 * k.D), soil, PLAIN)
    k.add(SPHERE, (0, 0.15 * k.H, 0), (k.W, 0.7 * k.H, k.D))


FIXTURES: dict[str, Builder] = {
    "fridge": _fridge,
    "cabinet": _cabinet,
    "drawer": _drawer,
    "microwave": _microwave,
    "counter": _counter,
    "sink": _sink,
    "basin": _basin,
    "bathtub": _bathtub,
    "coffee": _coffee,
    "toaster": _toaster,
    "table": _table,
    "chair": _chair,
    "sofa": _sofa,
    "bed": _bed,
    "furniture": _furniture,
    "toilet": _toilet,
    "tv": _tv,
    "laptop": _laptop,
    "floorlamp": _floorlamp,
    "desklamp": _desklamp,
    "panel": _panel,
    "plant": _plant,
}
