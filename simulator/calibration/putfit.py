"""Where AI2-THOR's PutObject left things in each fixed receptacle: per-instance put offsets.

    python -m simulator.calibration.putfit ../shared/data/alfred_train.jsonl.gz \\
        ../shared/data/alfred_train_masks.jsonl.gz [--every K --skip R] [--out FILE]

Run after ``python -m simulator.calibration.fit`` (our landing depends on the fitted world).
Our puts onto open receptacles land by a rule (``simulator.placement``): where the agent
looks, inside the footprint. AI2-THOR's land at a spawn point of the receptacle's own, and
where they landed is seen when the expert takes the thing out again (a sink basin's, in
every clean task). So the experts are replayed with rendering on and our put offsets off;
at every pickup of a thing the expert put onto a fixed open receptacle earlier in the
trajectory, the centroids of AI2-THOR's recorded mask and of our instance mask are each cut
with the horizontal plane through our thing's centre; their difference (x, z) is how far
AI2-THOR's spawn point lies from our landing, where AI2-THOR's cut lies inside the
receptacle's footprint (elsewhere its thing rests at another height). A receptacle with at
least ``MIN_PUTS`` such pickups whose median difference predicts each held-out one better
than no offset does (leave one out, as ``supports.held_out_median``) gets that median as
its put offset (``simulator/data/put_offsets.json``, read by
``calibration.table.put_offset``), for puts from where the experts stood: they put into
nearly every receptacle from one position (the one most put from is fitted), and AI2-THOR
takes the spawn point nearest the agent, so the offset says nothing about puts from elsewhere. Those, enclosures (fridges, microwaves:
docs/calibration.md, stop 88, says why), the other receptacles and every floor plan without
data keep the rule. ``--every K --skip R`` leaves out every K-th trajectory from the R-th
(a held-out check). Deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from simulator.calibration.fixedfit import _rays

MIN_PUTS = 3  # pickups of put things per receptacle for an offset of its own
MIN_PIXELS = 10  # of either mask for a centroid to count
MARGIN = 0.05  # metres outside a receptacle's footprint that AI2-THOR's cut may lie
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "put_offsets.json"


def plane_point(camera: tuple[float, float, int, float], pixel: tuple[float, float], height: float, fov: float,
                plane: float) -> np.ndarray | None:
    """(x, z) where the ray through ``pixel`` (x, y) meets the plane y = ``plane``; None if it
    does not look down at it."""
    origins, dirs = _rays([{"camera": camera}], height, fov, np.array([pixel], dtype=float) - 0.5)
    if dirs[0, 1] > -1e-3 or plane >= height:
        return None
    cut = origins[0] + dirs[0] * (plane - origins[0, 1]) / dirs[0, 1]
    return cut[[0, 2]]


def inside(point: np.ndarray, receptacle: Any) -> bool:
    """Does the (x, z) point lie in the receptacle's footprint (within ``MARGIN``)? Where
    AI2-THOR's cut does not, its thing rests at another height than ours and the cut says
    nothing about where on the receptacle it lies."""
    (cx, _, cz), (sx, _, sz) = receptacle.position, receptacle.size
    return abs(point[0] - cx) <= sx / 2 + MARGIN and abs(point[1] - cz) <= sz / 2 + MARGIN


def _centroid(mask: np.ndarray) -> tuple[float, float] | None:
    rows, cols = np.nonzero(mask)
    return None if len(rows) < MIN_PIXELS else (float(cols.mean()) + 0.5, float(rows.mean()) + 0.5)


def residuals(trajectories, masks, fov: float, height: float) -> dict[tuple[str, str, tuple[float, float]], list[list[float]]]:
    """(floor plan, receptacle id, (x, z) the expert put from) -> the (x, z) differences,
    AI2-THOR's centroid's cut minus ours, of every pickup of a thing the expert put there."""
    from simulator.calibration.check import alfred_simulator
    from simulator.calibration.masks import FRAME
    from simulator.objects import encloses
    from simulator.render.world_view import WorldRenderer
    from simulator.scenes import supported_scenes
    from simulator.sim import FOLLOWER
    from simulator.targeting import lookup

    supported = set(supported_scenes())
    sim, view = alfred_simulator(), WorldRenderer(FRAME, FRAME)
    found: dict[tuple[str, str, tuple[float, float]], list[list[float]]] = defaultdict(list)
    try:
        for trajectory in trajectories:
            recorded = masks.get(trajectory.task_id) if trajectory.floor_plan in supported else None
            if recorded is None:
                continue
            by_step = {r.low_idx: r for r in recorded}
            sim.reset(trajectory.start_state())
            put_into: dict[str, tuple[str, tuple[float, float]]] = {}  # thing -> (fixed receptacle, where the expert stood)
            for i, step in enumerate(trajectory.expert_low_actions):
                world, rec = sim.world, by_step.get(i)
                obj = lookup(world, rec.target_id) if rec is not None and rec.action == "PickupObject" else None
                if obj is not None and obj.parent is not None and put_into.get(obj.object_id, ("",))[0] == obj.parent:
                    theirs, ours = _centroid(rec.mask(FRAME)), _centroid(view.frames(world, FOLLOWER).mask(obj.object_id))
                    camera = world.agents[FOLLOWER].pose()
                    cuts = [None if c is None else plane_point(camera, c, height, fov, obj.position[1]) for c in (theirs, ours)]
                    if cuts[0] is not None and cuts[1] is not None and inside(cuts[0], world.objects[obj.parent]):
                        found[(trajectory.floor_plan, obj.parent, put_into[obj.object_id][1])].append(
                            [round(float(v), 4) for v in cuts[0] - cuts[1]])
                held, camera_at = world.agents[FOLLOWER].held, world.agents[FOLLOWER].pose()[:2]
                sim.step(FOLLOWER, step["action"], **{k: step[k] for k in ("objectId", "receptacleObjectId") if k in step})
                if step["action"] == "PutObject" and held is not None and sim.world.agents[FOLLOWER].held is None:
                    parent = sim.world.objects[held].parent
                    if parent is not None and sim.world.objects[parent].fixed and not encloses(sim.world.objects[parent]):
                        put_into[held] = (parent, (round(camera_at[0], 2), round(camera_at[1], 2)))
    finally:
        view.release()
    return found


def offset(differences: list[list[float]]) -> dict[str, Any] | None:
    """The receptacle's put offset: {'offset': median (x, z), 'puts', 'error' (leave one out:
    median distance of each difference from the others' median), 'rule_error' (median
    distance from no offset)}, if at least ``MIN_PUTS`` and it predicts held-out ones better."""
    v = np.asarray(differences, dtype=float)
    if len(v) < MIN_PUTS:
        return None
    loo = float(np.median([np.linalg.norm(v[i] - np.median(np.delete(v, i, axis=0), axis=0)) for i in range(len(v))]))
    rule = float(np.median(np.linalg.norm(v, axis=1)))
    if loo >= rule:
        return None
    return {"offset": [round(float(x), 4) for x in np.median(v, axis=0)], "puts": len(v),
            "error": round(loo, 4), "rule_error": round(rule, 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trajectories")
    parser.add_argument("masks")
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--every", type=int, default=0, help="leave out every K-th trajectory (held-out checks)")
    parser.add_argument("--skip", type=int, default=0, help="... starting from this one")
    args = parser.parse_args(argv)
    from simulator.alfred.trajectories import load_trajectories
    from simulator.calibration.fit import CAMERA_HEIGHT
    from simulator.calibration.masks import MaskIndex
    from simulator.calibration.table import field_of_view, put_offsets_off

    trajectories = load_trajectories(args.trajectories)
    if args.every:
        trajectories = (t for k, t in enumerate(trajectories) if k % args.every != args.skip % args.every)
    with put_offsets_off():
        found = residuals(trajectories, MaskIndex(args.masks), field_of_view(), CAMERA_HEIGHT)
    plans: dict[str, dict[str, Any]] = defaultdict(dict)
    considered: set[tuple[str, str]] = set()
    for (plan, receptacle, pose), differences in sorted(found.items(), key=lambda kv: -len(kv[1])):
        if (plan, receptacle) in considered:  # only the position most put from (in train, the only one)
            continue
        considered.add((plan, receptacle))
        entry = offset(differences)
        if entry is not None:
            plans[plan][receptacle] = {**entry, "pose": list(pose)}
    fitted = [e for p in plans.values() for e in p.values()]
    table = {"about": "fitted by python -m simulator.calibration.putfit (docs/calibration.md): floor plan -> "
                      "fixed receptacle -> (x, z) metres added to where a put into it from the agent position "
                      "'pose' (x, z) lands",
             "left_out": {"every": args.every, "skip": args.skip} if args.every else None,
             "floor_plans": dict(sorted(plans.items()))}
    Path(args.out).write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"{args.out}: {len(fitted)} of {len(considered)} receptacles with put offsets "
          f"({sum(len(v) for v in found.values())} pickups); median held-out error "
          f"{np.median([e['error'] for e in fitted]) if fitted else 0:.3f} m against the rule's "
          f"{np.median([e['rule_error'] for e in fitted]) if fitted else 0:.3f} m", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
