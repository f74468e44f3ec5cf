"""Faucets fitted to AI2-THOR's: where one stands by its sink basin, and the box it is drawn as.

The floor-plan data has no faucets: the scene builder synthesizes one per basin
(``simulator.scenes.layout.faucets_for_basins``). ALFRED's trajectories name AI2-THOR's
faucets by objectId (whose numbers are the faucet's pivot: ``recorded_id`` of an
observation), and the masks file holds how each was drawn at every expert toggle.

The rule (docs/calibration.md) is the faucet's drawn box relative to its sink basin: its
full extents and the offset of its centre in the faucet's frame (front towards the agent,
away from the basin's back), from a reference point (the basin's pivot, ``height =
"relative"``, or the floor below it, ``"absolute"``), fitted by the box fit of ``boxfit``
pooled over every recorded view of every faucet. The basin's back is the side away from the
agent's recorded interaction pose (``back = "pose"``) or towards the nearest wall
(``"wall"``). Which of the four is kept is decided on held-out floor plans (fitted on every
other one, scored on the rest, both ways: the projected 2-D box's IoU with AI2-THOR's),
where the builder's old rule is scored too. Faucets are not fitted one by one
(``fixedfit.TYPE_RULE_ONLY``). Deterministic. Only sink basins had faucets recorded;
bathtubs keep the builder's old rule.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np

from simulator.calibration.boxfit import Views, fit_box, shape_points

BASIN = "SinkBasin"
BACK_RULES = ("pose", "wall")
HEIGHT_RULES = ("relative", "absolute")


def back_direction(basin: dict[str, Any], bounds: tuple[float, ...] | list[float], rule: str) -> tuple[int, int]:
    """Unit axis direction (x, z) from a basin to its back: away from the agent's recorded
    interaction pose (``pose``), or towards the nearest side of the room (``wall``)."""
    x, _, z = basin["position"]
    if rule == "wall" or not basin.get("interaction_pose"):
        xmin, xmax, zmin, zmax = bounds
        gaps = [(x - xmin, (-1, 0)), (xmax - x, (1, 0)), (z - zmin, (0, -1)), (zmax - z, (0, 1))]
        return min(gaps, key=lambda g: g[0])[1]
    r = math.radians(basin["interaction_pose"][2])
    return (round(math.sin(r)), round(math.cos(r)))


def yaw(back: tuple[int, int]) -> float:
    """The faucet's Euler y (degrees) whose front (+z) looks away from ``back``."""
    return float(math.degrees(math.atan2(-back[0], -back[1])) % 360.0)


def reference(basin_pivot: Any, height: str) -> np.ndarray:
    """The point a faucet's box is placed from: the basin's pivot (``relative``), or the
    point on the floor below it (``absolute``: the fitted height is then absolute)."""
    bx, by, bz = (float(v) for v in basin_pivot)
    return np.array([bx, by if height == "relative" else 0.0, bz])


def drawn_box(ref: Any, back: tuple[int, int], rule: dict[str, Any]) -> tuple[list[float], list[float]]:
    """(box centre, axis-aligned full extents) of a faucet by ``rule`` from its reference."""
    from simulator.render.rotation import euler_matrix

    r = euler_matrix(0.0, yaw(back), 0.0)
    centre = np.asarray(ref, dtype=float) + r @ np.asarray(rule["offset"], dtype=float)
    size = np.abs(r) @ np.asarray(rule["size"], dtype=float)
    return [round(float(v), 4) for v in centre], [round(float(v), 4) for v in size]


def _pivot(object_id: str) -> np.ndarray:
    return np.array([float(v) for v in object_id.split("|")[1:4]])


def faucet_instances(observations: list[dict]) -> list[dict[str, Any]]:
    """One entry per recorded AI2-THOR faucet: its floor plan, recorded pivot, the sink basin
    it belongs to (the builder's nearest, horizontally), the room's extent and its views."""
    from simulator.scenes import _raw

    views: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for o in observations:
        if o["object_type"] == "Faucet" and o["pixels"] > 0 and o.get("recorded_id", "").startswith("Faucet|"):
            views[(o["floor_plan"], o["recorded_id"])].append(o)
    out = []
    for (plan, fid), group in sorted(views.items()):
        scene = _raw()[plan]
        basins = {k: v for k, v in (scene.get("fixed_objects") or {}).items() if v["type"] == BASIN}
        if not basins:
            continue
        p = _pivot(fid)
        bid = min(sorted(basins), key=lambda k: math.dist(p[[0, 2]], _pivot(k)[[0, 2]]))
        out.append({"floor_plan": plan, "faucet": fid, "pivot": p, "basin_id": bid, "basin": basins[bid],
                    "bounds": scene["bounds"], "views": group})
    return out


def _items(instances: list[dict], back: str, height: str) -> list[tuple[dict, np.ndarray, tuple[int, int]]]:
    """(view, reference point, back direction) for every view of the instances."""
    out = []
    for inst in instances:
        b = back_direction(inst["basin"], inst["bounds"], back)
        ref = reference(_pivot(inst["basin_id"]), height)
        out.extend((o, ref, b) for o in inst["views"])
    return out


def _views(items: list[tuple[dict, np.ndarray, tuple[int, int]]], camera_height: float, fov: float) -> Views:
    """The views as ``boxfit`` sees them: the reference point as the pivot, turned to face
    away from the back."""
    obs = [o for o, _, _ in items]
    return Views(np.array([o["camera"] for o in obs], dtype=float), np.array([r for _, r, _ in items], dtype=float),
                 np.array([(0.0, yaw(b), 0.0) for _, _, b in items], dtype=float),
                 np.array([o["bbox"] for o in obs], dtype=float), camera_height, fov)


def fit_drawn(instances: list[dict], back: str, height: str, camera_height: float, fov: float) -> dict[str, Any]:
    """The faucet's drawn box (full extents, centre offset from the reference in its frame)
    pooled over every view of every recorded faucet, started from the builder's old rule."""
    start = np.array(BUILDER_RULE["offset"], dtype=float)
    if height == "absolute":
        start[1] += float(np.median([_pivot(i["basin_id"])[1] for i in instances]))
    size, offset, err = fit_box(_views(_items(instances, back, height), camera_height, fov), shape_points("Faucet"),
                                np.array(BUILDER_RULE["size"], dtype=float), start)
    return {"back": back, "height": height, "size": [round(float(v), 4) for v in size],
            "offset": [round(float(v), 4) for v in offset], "error_px": round(err, 2)}


def box_scores(instances: list[dict], rule: dict[str, Any], camera_height: float, fov: float) -> dict[str, float]:
    """Over the instances' views: the mean IoU of the faucet's projected 2-D box by ``rule``
    with AI2-THOR's box, and the share of AI2-THOR's interaction points inside it."""
    items = _items(instances, rule["back"], rule["height"])
    views = _views(items, camera_height, fov)
    box, _ = views.project(shape_points("Faucet"), np.asarray(rule["size"], dtype=float),
                           np.asarray(rule["offset"], dtype=float))
    rec = views.boxes
    ix = np.clip(np.minimum(box[:, 2], rec[:, 2]) - np.maximum(box[:, 0], rec[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[:, 3], rec[:, 3]) - np.maximum(box[:, 1], rec[:, 1]), 0, None)
    inter = ix * iy
    union = np.prod(box[:, 2:] - box[:, :2], axis=1) + np.prod(rec[:, 2:] - rec[:, :2], axis=1) - inter
    pts = np.array([o["point"] for o, _, _ in items], dtype=float) + 0.5
    inside = np.all((box[:, :2] <= pts) & (pts <= box[:, 2:]), axis=1)
    return {"views": len(items), "box_iou": float(np.mean(inter / np.maximum(union, 1e-9))),
            "point_in_box": float(np.mean(inside))}


def held_out(instances: list[dict], back: str, height: str, camera_height: float, fov: float) -> dict[str, float]:
    """Fitted on every other floor plan (sorted by number), scored on the others, both ways."""
    plans = sorted({i["floor_plan"] for i in instances}, key=lambda p: int(p[len("FloorPlan"):]))
    parts = []
    for half in (set(plans[0::2]), set(plans[1::2])):
        rule = fit_drawn([i for i in instances if i["floor_plan"] in half], back, height, camera_height, fov)
        parts.append(box_scores([i for i in instances if i["floor_plan"] not in half], rule, camera_height, fov))
    return _pooled(parts)


def _pooled(parts: list[dict[str, float]]) -> dict[str, float]:
    n = sum(p["views"] for p in parts)
    return {k: round(sum(p[k] * p["views"] for p in parts) / n, 4) for k in ("box_iou", "point_in_box")}


# the scene builder's old rule: at the basin's back edge (from the agent's interaction pose;
# the builder's basins are 0.4 m deep), 0.2 m above its pivot, 0.1 x 0.25 x 0.1 m
BUILDER_RULE: dict[str, Any] = {"back": "pose", "height": "relative", "size": [0.1, 0.25, 0.1],
                                "offset": [0.0, 0.2, -0.2]}


def fit_faucets(observations: list[dict], camera_height: float, fov: float) -> dict[str, Any]:
    """{'SinkBasin': rule}: the (back, height) choice with the best held-out box IoU, fitted
    on all the recorded faucets, with the held-out scores of every choice and the builder's."""
    instances = faucet_instances(observations)
    if len({i["floor_plan"] for i in instances}) < 4:
        return {}
    checks = {f"{b}/{h}": held_out(instances, b, h, camera_height, fov) for b in BACK_RULES for h in HEIGHT_RULES}
    best = min(checks, key=lambda k: (-checks[k]["box_iou"], k))
    checks["builder"] = _pooled([box_scores(instances, BUILDER_RULE, camera_height, fov)])
    rule = fit_drawn(instances, *best.split("/"), camera_height, fov)
    rule.update(faucets=len(instances), views=sum(len(i["views"]) for i in instances), held_out=checks)
    return {BASIN: rule}
