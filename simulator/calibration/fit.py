"""Fit the world's geometry to AI2-THOR's recorded masks; writes ``simulator/data/calibration.json``.

    python -m simulator.calibration.fit ../shared/data/alfred_train.jsonl.gz \\
        ../shared/data/alfred_train_masks.jsonl.gz [--observations runs/calibration/observations.jsonl]

Steps (docs/calibration.md): extract the observations (one per recorded interaction; cached
in ``--observations``), check the camera (field of view from where small objects appear
across the image, AI2-THOR's height against objects lying on the floor), then fit, for every
movable object type and for every asset (ALFRED's objectName) seen often enough, the full
extents of its shape and the offset of its box centre from AI2-THOR's pivot, to the
recorded 2-D boxes of the objects still at their recorded poses, how a sliced object's pieces
are laid out (``slicefit``), and every fixed object (per floor plan) seen often enough
(``fixedfit``), and where the scene builder draws a sink's faucet (``faucets``; the scenes
are rebuilt with it, then fitted again). Deterministic.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from simulator.calibration.basins import deepen_basins, fit_basins, fit_tubs, type_floors
from simulator.calibration.boxfit import Views, fit_box, shape_points
from simulator.calibration.faucets import fit_faucets
from simulator.calibration.fixedfit import choose_boxes, fit_fixed, fixed_views
from simulator.calibration.slicefit import fit_slices
from simulator.calibration.supports import (
    fit_levels,
    fit_seats,
    fit_supports,
    resting_bottoms,
    seat_heights,
    type_levels,
    type_tops,
)

FIELD_OF_VIEW_GRID = tuple(np.round(np.arange(50.0, 90.01, 0.5), 2))
CAMERA_HEIGHT = 1.576  # AI2-THOR's: agent y 0.901 + camera offset 0.675 (checked below)
MIN_TYPE_VIEWS = 5
MIN_ASSET_VIEWS = 10
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "calibration.json"


def _views(group: list[dict], height: float, fov: float) -> Views:
    return Views(
        np.array([o["camera"] for o in group], dtype=float), np.array([o["pivot"] for o in group], dtype=float),
        np.array([o["rotation"] for o in group], dtype=float), np.array([o["bbox"] for o in group], dtype=float),
        height, fov,
    )


def _centre_u(o: dict, fov: float, height: float, flip: bool = False) -> float:
    """Horizontal pixel of the pivot's projection (x right; ``flip``: x left)."""
    x, z, rot, hor = o["camera"]
    r, h = math.radians(rot), math.radians(hor)
    forward = np.array([math.sin(r) * math.cos(h), -math.sin(h), math.cos(r) * math.cos(h)])
    right = np.array([math.cos(r), 0.0, -math.sin(r)])
    d = np.array(o["pivot"]) - np.array([x, height, z])
    u = (d @ right) / max(d @ forward, 1e-3) / math.tan(math.radians(fov) / 2)
    return 150.0 + (-u if flip else u) * 150.0


def camera_check(observations: list[dict]) -> dict[str, Any]:
    """Field of view and image axes from small unmoved objects fully in the frame: the
    horizontal offset of the mask's centroid from the pivot's projection (pivots are near
    the centre of small objects horizontally), median absolute error per candidate."""
    small = [o for o in observations if not o["fixed"] and not o["moved"] and o["pixels"] > 20
             and not any(o["on_border"]) and o["object_type"] not in ("Pan", "Pot", "Box", "Laptop")]

    def error(fov: float, flip: bool = False) -> float:
        return float(np.median([abs(o["centroid"][0] + 0.5 - _centre_u(o, fov, CAMERA_HEIGHT, flip)) for o in small]))

    errors = {fov: error(fov) for fov in FIELD_OF_VIEW_GRID}
    best = min(errors, key=lambda f: (errors[f], f))
    fov = float(round(best / 5) * 5) if abs(round(best / 5) * 5 - best) <= 1.0 else float(best)
    return {
        "field_of_view": fov,
        "field_of_view_best_on_grid": float(best),
        "median_abs_u_error_px": {str(f): round(errors[f], 3) for f in (50.0, 60.0, 70.0, 80.0, 90.0)},
        "mirrored_u_error_px": round(error(fov, flip=True), 3),
        "height": CAMERA_HEIGHT,
        "views": len(small),
    }


def floor_check(observations: list[dict], fov: float) -> dict[str, Any]:
    """AI2-THOR's camera height checked: balls lying on the floor should fit with their
    bottom at y = 0 (a camera height error shows up one to one as an offset there)."""
    balls = [o for o in observations if o["object_type"] == "BasketBall" and not o["moved"] and o["pivot"][1] < 0.3]
    if len(balls) < MIN_TYPE_VIEWS:
        return {"views": len(balls)}
    from simulator.object_types import type_info

    size, offset, err = fit_box(_views(balls, CAMERA_HEIGHT, fov), shape_points("BasketBall"),
                                np.array(type_info("BasketBall").size), np.zeros(3))
    bottom = float(np.median([o["pivot"][1] for o in balls]) + offset[1] - size[1] / 2)
    return {"views": len(balls), "basketball_bottom_y": round(bottom, 4), "median_edge_error_px": round(err, 2)}


def fit_movables(observations: list[dict], fov: float) -> tuple[dict, dict]:
    """Per type and per asset: {'size': [x, y, z], 'offset': [x, y, z], 'views', 'error_px'}."""
    from simulator.object_types import type_info

    usable = [o for o in observations if not o["fixed"] and not o["moved"]]
    by_type: dict[str, list[dict]] = defaultdict(list)
    by_asset: dict[str, list[dict]] = defaultdict(list)
    for o in usable:
        by_type[o["object_type"]].append(o)
        if o["asset"]:
            by_asset[o["asset"]].append(o)
    types: dict[str, dict] = {}
    for name in sorted(by_type):
        group = by_type[name]
        if len(group) < MIN_TYPE_VIEWS:
            continue
        size, offset, err = fit_box(_views(group, CAMERA_HEIGHT, fov), shape_points(name),
                                    np.array(type_info(name).size), np.zeros(3))
        types[name] = _entry(size, offset, len(group), err)
    assets: dict[str, dict] = {}
    for name in sorted(by_asset):
        group = by_asset[name]
        kind = group[0]["object_type"]
        if len(group) < MIN_ASSET_VIEWS or kind not in types:
            continue
        base = types[kind]
        size, offset, err = fit_box(_views(group, CAMERA_HEIGHT, fov), shape_points(kind),
                                    np.array(base["size"]), np.array(base["offset"]))
        assets[name] = _entry(size, offset, len(group), err)
    return types, assets


def _entry(size: np.ndarray, offset: np.ndarray, views: int, err: float) -> dict:
    return {"size": [round(float(v), 4) for v in size], "offset": [round(float(v), 4) for v in offset],
            "views": views, "error_px": round(err, 2)}


def extract(trajectories: str, masks: str, path: Path) -> None:
    from simulator.alfred.trajectories import load_trajectories
    from simulator.calibration.masks import MaskIndex
    from simulator.calibration.observations import observations, write_observations

    n = write_observations(path, observations(load_trajectories(trajectories), MaskIndex(masks)))
    print(f"{path}: {n} observations", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trajectories")
    parser.add_argument("masks")
    parser.add_argument("--observations", default="runs/calibration/observations.jsonl",
                        help="cache of the extracted observations (made if missing)")
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    args = parser.parse_args(argv)
    cache = Path(args.observations)
    if not cache.is_file():
        extract(args.trajectories, args.masks, cache)
    from simulator.calibration.observations import read_observations

    observations = read_observations(cache)
    camera = camera_check(observations)
    camera["floor_check"] = floor_check(observations, camera["field_of_view"])
    print(f"camera: {json.dumps(camera)}", file=sys.stderr)
    types, assets = fit_movables(observations, camera["field_of_view"])
    slices = fit_slices(observations, types, CAMERA_HEIGHT, camera["field_of_view"])
    print(f"slices: {json.dumps(slices)}", file=sys.stderr)
    fixed = fit_fixed(observations, camera["field_of_view"], CAMERA_HEIGHT)
    from simulator.alfred.trajectories import load_trajectories

    kept = choose_boxes(fixed, fixed_views(observations, closed_only=False), CAMERA_HEIGHT, camera["field_of_view"])
    fitted, fitted_plans = sum(len(v) for v in fixed.values()), len(fixed)
    basins = fit_basins(observations, fixed, CAMERA_HEIGHT, camera["field_of_view"])
    bottoms = resting_bottoms(load_trajectories(args.trajectories), types, assets)
    deepen_basins(fixed, bottoms)
    tubs = fit_tubs(fixed, bottoms)
    moved = fit_supports(fixed, bottoms)
    shelved = fit_levels(fixed, bottoms)
    seated = fit_seats(fixed, bottoms)
    surface_tops = type_tops(fixed)
    shelves = type_levels(fixed)
    seats = seat_heights(fixed, bottoms)
    tub_floors = type_floors(fixed)
    faucets = fit_faucets(observations, CAMERA_HEIGHT, camera["field_of_view"])
    print(f"faucets: {json.dumps(faucets)}", file=sys.stderr)
    print(f"fixed: {fitted} instances fitted in {fitted_plans} floor plans ({kept}); {basins} basins from their rims; "
          f"{moved} surface tops moved to what rests on them; {shelved} fridges and cabinets with shelves; {seated} sofas and armchairs with seats; {tubs} bathtubs and their basins moved to their floors (type floors: {json.dumps(tub_floors)}); "
          f"type tops for floor plans without data: {sorted(surface_tops)}, type shelves: {sorted(shelves)}; seats: {json.dumps(seats)}",
          file=sys.stderr)
    table = {
        "about": "fitted by python -m simulator.calibration.fit (docs/calibration.md); sizes are full "
                 "extents in the object's frame, offsets the box centre minus AI2-THOR's pivot in that frame; "
                 "fixed: floor plan -> objectId -> axis-aligned box (world axes)",
        "camera": camera,
        "types": types,
        "assets": assets,
        "fixed": fixed,
        "surface_tops": surface_tops,
        "type_levels": shelves,
        "seats": seats,
        "tub_floors": tub_floors,
        "slices": slices,
        "faucets": faucets,
    }
    out = Path(args.out)
    out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    worst = sorted(itertools.chain(types.items()), key=lambda kv: -kv[1]["error_px"])[:5]
    print(f"{out}: {len(types)} types, {len(assets)} assets; largest type errors "
          + ", ".join(f"{k} {v['error_px']}" for k, v in worst), file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
