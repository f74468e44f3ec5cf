"""How AI2-THOR lays out a sliced object's pieces, fitted to the recorded masks of the pieces.

AI2-THOR replaces a sliced apple, bread, lettuce, potato or tomato by a prefab of pieces
that stay where the whole object was, in a row along one of its own axes, piece ``k`` at
``k`` steps from the first. The model, per piece type: every piece has the same full
extents ``size`` (in the whole object's frame) and its box centre at
``pivot + R (start + k * step)``, where ``pivot`` and ``R`` are the whole object's recorded
pivot and rotation. The nine numbers are fitted (``boxfit``'s robust Gauss-Newton, on the
four edges of the recorded 2-D boxes) to the pickups of pieces whose whole object was cut
where the recorded start state put it. It is a type-level rule, so it applies in every
floor plan (``simulator.rules.slice_object``).
"""

from __future__ import annotations

import math

import numpy as np

from simulator.calibration.boxfit import Views, gauss_newton, shape_points
from simulator.calibration.observations import piece_whole

MIN_VIEWS = 20
ITERATIONS = 30


def piece_index(object_id: str) -> int:
    return int(object_id.rsplit("_", 1)[1])


def fit_layout(views: Views, index: np.ndarray, shape: np.ndarray, size0: np.ndarray,
               step0: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(size, start, step, median edge error px): robust Gauss-Newton over (log size, start, step)."""
    theta = np.concatenate([np.log(size0), -step0 * (index.max() / 2), step0]).astype(np.float64)

    def residuals(t: np.ndarray) -> np.ndarray:
        offsets = t[3:6][None, :] + index[:, None] * t[6:9][None, :]
        box, ok = views.project(shape, np.exp(t[:3]), offsets)
        r = box - views.boxes
        r[~ok] = 0.0
        return r.ravel()

    theta, r = gauss_newton(residuals, theta, ITERATIONS, math.log(1.0))
    return np.exp(theta[:3]), theta[3:6], theta[6:9], float(np.median(np.abs(r)))


def fit_slices(observations: list[dict], whole_sizes: dict[str, dict], height: float, fov: float) -> dict[str, dict]:
    """Per piece type with at least ``MIN_VIEWS`` usable pickups: {'size', 'start', 'step',
    'views', 'error_px'} (the whole type's fitted box, ``whole_sizes``, starts the fit:
    pieces as thick as the whole divided by the largest index seen, along its longest side)."""
    groups: dict[str, list[dict]] = {}
    for o in observations:
        if piece_whole(o["target_id"]) is None:  # not a piece
            continue
        if o.get("whole_moved", True) or o["action"] != "PickupObject" or any(o["on_border"]):
            continue
        groups.setdefault(o["object_type"], []).append(o)
    out: dict[str, dict] = {}
    for piece in sorted(groups):
        group = groups[piece]
        whole = whole_sizes.get(group[0]["target_id"].split("|")[0])
        if len(group) < MIN_VIEWS or whole is None:
            continue
        index = np.array([piece_index(o["target_id"]) for o in group], dtype=float)
        views = Views(np.array([o["camera"] for o in group], dtype=float), np.array([o["pivot"] for o in group], dtype=float),
                      np.array([o["rotation"] for o in group], dtype=float), np.array([o["bbox"] for o in group], dtype=float),
                      height, fov)
        best = None
        for axis in range(3):  # which of the whole object's axes the row runs along: the best fit
            size0 = np.array(whole["size"], dtype=float)
            size0[axis] /= max(index.max() + 1, 2)
            step0 = np.zeros(3)
            step0[axis] = size0[axis]
            fit = fit_layout(views, index, shape_points(piece), size0, step0)
            if best is None or fit[3] < best[3]:
                best = fit
        size, start, step, err = best
        out[piece] = {"size": _r(size), "start": _r(start), "step": _r(step),
                      "views": len(group), "error_px": round(err, 2)}
    return out


def _r(v: np.ndarray) -> list[float]:
    return [round(float(x), 4) for x in v]
