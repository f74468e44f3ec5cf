"""Symbolic vs rendered visibility: how often the simulator's ``visible_ids`` and the
instance buffer agree, over random poses in real floor plans.

Owns the measurement only. Symbolic visibility (``World.visible_ids``) is: within the
interaction distance, not hidden or held, and either (``--no-occlusion``, the world's
default, and ``measure``'s) box in the view frustum, or (the command's default) a sample point or screen ray of
the object's drawn parts reached unoccluded (``simulator.occlusion``). Rendered visibility is: at least ``k`` pixels
in the instance buffer, and within the same interaction distance. For every pose we
count, per threshold ``k``:

- precision: rendered-visible in-reach objects that are also symbolically visible;
- recall: symbolically visible objects that are rendered with >= k pixels;
- the misses, explained: an object drawn alone (room, no other objects) from the same
  camera with >= k pixels was *occluded* (by other objects or walls); otherwise it was
  *outside*: either its shape is smaller than its box (a chair's legs, a thin faucet)
  and only the empty part of the box is in view (*shape*: its box drawn alone has >= k
  pixels), or even the box has fewer than k pixels (*frustum*: the conservative frustum
  test passes boxes near the frustum's edges and corners, or the box is thinner than k
  pixels there).

    python -m simulator.render.agreement [--poses 100] [--size 300] [FloorPlan1 ...]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

SCENES = (
    "FloorPlan1", "FloorPlan5", "FloorPlan201", "FloorPlan205",
    "FloorPlan301", "FloorPlan305", "FloorPlan401", "FloorPlan405",
)  # fmt: skip
THRESHOLDS = (1, 10, 50)
HORIZONS = (-30.0, -15.0, 0.0, 15.0, 30.0, 45.0, 60.0)
OPEN_FRACTION = 0.3


BOUNDING_BOX = "_BoundingBox"  # not an AI2-THOR type: drawn as a plain box


def _pixels_alone(sim: Any, renderer: Any, object_id: str, agent: int) -> tuple[int, int]:
    """(pixels of the object drawn alone, pixels of its bounding box drawn alone)."""
    from .world_view import camera_pose, render_objects, room_geometry

    world = sim.world
    obj = next(o for o in render_objects(world) if o.object_id == object_id)
    room, camera = room_geometry(world.scene), camera_pose(world, agent)
    shape = int((renderer.render(room, [obj], camera).instance == 1).sum())
    box = replace(obj, object_type=BOUNDING_BOX)
    return shape, int((renderer.render(room, [box], camera).instance == 1).sum())


def measure(
    scenes: Sequence[str] = SCENES,
    poses: int = 100,
    seed: int = 0,
    size: int = 300,
    thresholds: Sequence[int] = THRESHOLDS,
    occlusion: bool = False,
) -> dict[str, Any]:
    """Agreement statistics over ``poses`` random Follower poses per floor plan (a seeded
    random start each, with about a third of the openable objects opened)."""
    from simulator.actions import set_open
    from simulator.scenes import cell_center
    from simulator.sim import FOLLOWER, Simulator
    from simulator.spawn import random_start

    from .renderer import Renderer

    settings = argparse.Namespace(render="egl", width=size, height=size)
    sim = Simulator(settings)
    alone = Renderer(size, size)
    rng = random.Random(seed)
    ks = sorted(thresholds)
    n = {k: Counter() for k in ks}
    extra_types: Counter = Counter()  # rendered, in reach, not symbolically visible (k = 1)
    missed_types: Counter = Counter()  # symbolically visible, not rendered (k = 1)
    frames_seen = 0
    try:
        for s, scene in enumerate(scenes):
            sim.reset(random_start(scene, seed + s))
            world = sim.world
            world.occlusion = occlusion
            for obj in world.objects.values():
                if obj.openable and rng.random() < OPEN_FRACTION:
                    set_open(world, obj, True)
            agent = world.agents[FOLLOWER]
            cells = sorted(world.scene.navigable)
            for _ in range(poses):
                agent.x, agent.z = cell_center(rng.choice(cells))
                agent.rotation = rng.choice((0, 90, 180, 270))
                agent.horizon = rng.choice(HORIZONS)
                frames = sim.instance_frame(FOLLOWER)
                frames_seen += 1
                ids, distances, _ = world.view(FOLLOWER)
                reach = {oid for oid, d in zip(ids, distances, strict=True) if d <= world.interaction_distance}
                symbolic = set(world.visible_ids(FOLLOWER))
                pixels = frames.visible_ids(1)
                missing_alone: dict[str, tuple[int, int]] = {}
                for k in ks:
                    rendered = {oid for oid, p in pixels.items() if p >= k and oid in reach}
                    c = n[k]
                    c["symbolic"] += len(symbolic)
                    c["rendered"] += len(rendered)
                    c["both"] += len(rendered & symbolic)
                    if k == ks[0]:
                        extra_types.update(world.objects[oid].object_type for oid in rendered - symbolic)
                        missed_types.update(world.objects[oid].object_type for oid in symbolic - rendered)
                    for oid in symbolic - rendered:
                        if oid not in missing_alone:
                            missing_alone[oid] = _pixels_alone(sim, alone, oid, FOLLOWER)
                        shape, box = missing_alone[oid]
                        c["occluded" if shape >= k else "shape" if box >= k else "frustum"] += 1
    finally:
        alone.release()
        sim.close()
    out: dict[str, Any] = {"scenes": list(scenes), "frames": frames_seen, "size": size, "by_min_pixels": {}}
    for k in ks:
        c = n[k]
        missed = c["symbolic"] - c["both"]
        out["by_min_pixels"][str(k)] = {
            "precision": round(c["both"] / max(c["rendered"], 1), 4),
            "recall": round(c["both"] / max(c["symbolic"], 1), 4),
            "occluded_fraction": round(c["occluded"] / max(c["symbolic"], 1), 4),
            "outside_fraction": round((c["shape"] + c["frustum"]) / max(c["symbolic"], 1), 4),
            "shape_fraction": round(c["shape"] / max(c["symbolic"], 1), 4),
            "frustum_fraction": round(c["frustum"] / max(c["symbolic"], 1), 4),
            "occluded_share_of_misses": round(c["occluded"] / max(missed, 1), 4),
            "symbolic": c["symbolic"],
            "rendered": c["rendered"],
            "both": c["both"],
        }
    out["rendered_not_symbolic_types"] = dict(extra_types.most_common(8))
    out["symbolic_not_rendered_types"] = dict(missed_types.most_common(8))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", nargs="*", default=list(SCENES))
    parser.add_argument("--poses", type=int, default=100, help="poses per floor plan")
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-occlusion", action="store_true", help="symbolic visibility without occlusion")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.scenes, args.poses, args.seed, args.size, occlusion=not args.no_occlusion)))


if __name__ == "__main__":
    main()
