"""Observations to fit the world's geometry to: where AI2-THOR drew each interaction's target.

Replays the experts symbolically (no rendering) and, at each recorded interaction, notes
the camera pose, the target (type, asset name, recorded pivot position and rotation,
whether it still is where the recorded start state put it, open or not) and what
AI2-THOR drew (box, point, pixel count, centroid). Targets that were moved by an earlier
action are marked ``moved``: our placement of a put object is not AI2-THOR's, so only
unmoved targets are used for fitting.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simulator.calibration.masks import FRAME, MaskIndex
from simulator.objects import format_object_id
from simulator.scenes import supported_scenes
from simulator.sim import FOLLOWER
from simulator.targeting import lookup


@dataclass(frozen=True)
class Observation:
    task_id: str
    floor_plan: str
    low_idx: int
    action: str
    target_id: str  # our objectId of the target (the receptacle for PutObject)
    object_type: str
    asset: str | None  # ALFRED's objectName (e.g. 'Mug_2a940808') for movable objects
    fixed: bool
    moved: bool  # no longer at its recorded start position (or held before)
    pivot: tuple[float, float, float]  # recorded position (AI2-THOR's pivot, from the objectId)
    rotation: tuple[float, float, float]  # recorded Euler angles (x, y, z), degrees; 0 for fixed
    is_open: bool
    camera: tuple[float, float, int, float]  # x, z, rotation, horizon
    bbox: tuple[int, int, int, int]
    point: tuple[int, int]
    pixels: int
    centroid: tuple[float, float]  # x, y pixels
    on_border: tuple[bool, bool, bool, bool]  # the mask touches the left, top, right, bottom edge
    # a sliced piece (always ``moved``): was the whole object picked up before it was cut?
    # (its ``pivot`` and ``rotation`` are the whole object's recorded ones)
    whole_moved: bool = False
    recorded_id: str = ""  # AI2-THOR's objectId of the target as recorded (its numbers: AI2-THOR's pivot)


def id_position(object_id: str) -> tuple[float, float, float]:
    parts = object_id.split("|")
    return (float(parts[1]), float(parts[2]), float(parts[3]))


def _poses(trajectory) -> dict[str, tuple[str, tuple[float, float, float]]]:
    """Our objectId -> (objectName, rotation) of every recorded movable object."""
    out: dict[str, tuple[str, tuple[float, float, float]]] = {}
    for pose in trajectory.object_poses:
        p, r = pose["position"], pose.get("rotation") or {}
        oid = format_object_id(pose["objectName"].split("_")[0], (p["x"], p["y"], p["z"]))
        rot = (float(r.get("x", 0.0)), float(r.get("y", 0.0)), float(r.get("z", 0.0)))
        out.setdefault(oid, (pose["objectName"], rot))
    return out


def observations(trajectories: Iterable[Any], masks: MaskIndex, progress: Any = None) -> Iterator[Observation]:
    supported = set(supported_scenes())
    from simulator.calibration.check import alfred_simulator

    sim = alfred_simulator()
    for trajectory in trajectories:
        if progress is not None:
            progress.update(1)
        if trajectory.floor_plan not in supported:
            continue
        recorded = masks.get(trajectory.task_id)
        if not recorded:
            continue
        by_step = {r.low_idx: r for r in recorded}
        sim.reset(trajectory.start_state())
        poses = _poses(trajectory)
        start = {oid: o.position for oid, o in sim.world.objects.items()}
        touched: set[str] = set()
        for i, step in enumerate(trajectory.expert_low_actions):
            rec = by_step.get(i)
            if rec is not None:
                obj = lookup(sim.world, rec.target_id)
                if obj is not None:
                    yield _observation(trajectory, i, rec, obj, sim, poses, start, touched)
            args = {k: step[k] for k in ("objectId", "receptacleObjectId") if k in step}
            if sim.step(FOLLOWER, step["action"], **args).success and "objectId" in step:
                held = sim.world.agents[FOLLOWER].held
                if held:
                    touched.add(held)


def _observation(trajectory, i, rec, obj, sim, poses, start, touched) -> Observation:
    mask = rec.mask(FRAME)
    rows, cols = np.nonzero(mask)
    whole = piece_whole(obj.object_id)
    name, rotation = poses.get(whole or obj.object_id, (None, (0.0, 0.0, 0.0)))
    if whole is not None:
        name = None
    moved = obj.object_id in touched or start.get(obj.object_id) != obj.position
    agent = sim.world.agents[FOLLOWER]
    return Observation(
        task_id=trajectory.task_id, floor_plan=trajectory.floor_plan, low_idx=i, action=rec.action,
        target_id=obj.object_id, object_type=obj.object_type, asset=name, fixed=obj.fixed,
        moved=bool(moved), pivot=id_position(obj.object_id), rotation=rotation, is_open=obj.is_open,
        camera=agent.pose(), bbox=rec.bbox, point=rec.point, pixels=int(len(rows)),
        centroid=(float(cols.mean()), float(rows.mean())) if len(rows) else (-1.0, -1.0),
        on_border=(bool(mask[:, 0].any()), bool(mask[0].any()), bool(mask[:, -1].any()), bool(mask[-1].any())),
        whole_moved=whole is not None and (whole in touched or obj.object_id in touched),
        recorded_id=rec.target_id,
    )


def piece_whole(object_id: str) -> str | None:
    """The whole object's id of a sliced piece ('Apple|x|y|z|AppleSliced_2' -> 'Apple|x|y|z'),
    else None."""
    parts = object_id.split("|")
    return "|".join(parts[:4]) if len(parts) > 4 else None


def write_observations(path: Path, items: Iterable[Observation]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w") as out:
        for item in items:
            out.write(json.dumps(asdict(item)) + "\n")
            n += 1
    return n


def read_observations(path: Path) -> list[dict[str, Any]]:
    with path.open() as handle:
        return [json.loads(line) for line in handle if line.strip()]
