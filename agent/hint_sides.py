"""How often a Follower that hears "the plate is in the cabinet left of the microwave"
picks the cabinet the Commander meant (an offline check: it reads ground truth, so it lives
in ``agent``, never in a Follower).

For every train floor plan and seed, a ``random_start`` world; for every pickupable object in
a cabinet or drawer that the Commander would describe from a landmark
(``agent.commanders.locations.describe``), three rules pick a place among the room's
receptacles of the hinted type:

- ``nearest``: the one nearest the landmark (the Follower's rule until stop 32);
- ``estimated_front``: the nearest on the hinted side, seen from the front the Follower
  estimates (``mapping.memory_updates.landmark_front``, here on a map whose free cells are
  the floor plan's navigable ones);
- ``recorded_front``: the same with the landmark's recorded interaction pose (what the
  Commander uses: the best a Follower could do).

Each is scored as ``exact`` (the hinted receptacle) and ``column`` (one within 0.3 m of it
horizontally: the right column of drawers, or the cabinet above or below it).

    python -m agent.hint_sides [--seeds 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter

import numpy as np

from agent.commanders.locations import describe, landmark_direction, place_of, speakable
from contracts.belief import Cell, GridMap
from contracts.geometry import Pose, landmark_side
from mapping.memory_updates import landmark_front
from simulator.episodes.splits import split_floor_plans
from simulator.scenes import cell_center
from simulator.spawn import random_start
from simulator.start_state import build_world

PLACES = ("Cabinet", "Drawer")
COLUMN = 0.3  # metres


def _xz(obj) -> tuple[float, float]:
    return obj.position[0], obj.position[2]


def navigable_map(scene, resolution: float = 0.05) -> GridMap:
    """A map whose free cells are the floor plan's navigable 0.25 m cells (what a Follower's
    map holds once it has explored the room)."""
    centres = np.array([cell_center(c) for c in scene.navigable])
    low = centres.min(axis=0) - 1.0
    shape = tuple(int(v) for v in np.ceil((centres.max(axis=0) + 1.0 - low) / resolution))[::-1]
    grid = GridMap.empty((float(low[0]), float(low[1])), shape, resolution)
    half = int(round(0.125 / resolution))
    for x, z in centres:
        row, col = grid.cell_of(x, z)
        grid.occupancy[row - half:row + half, col - half:col + half] = Cell.FREE
    return grid


def score(seeds: int) -> dict[str, float]:
    counts: Counter = Counter()
    for plan in split_floor_plans("train"):
        grid = None
        for seed in range(seeds):
            world = build_world(random_start(plan, seed))
            grid = grid or navigable_map(world.scene)
            for obj in world.objects.values():
                place_id = place_of(world, obj.object_id) if obj.pickupable else None
                if place_id is None or world.objects[place_id].object_type not in PLACES:
                    continue
                hint = describe(world, obj.object_id, "landmark")
                if hint is None or hint.anchor in (None, "you"):
                    continue
                anchor = min((a for a in world.objects.values() if a.fixed and speakable(a.object_type) == hint.anchor),
                             key=lambda a: math.dist(_xz(a), _xz(obj)))
                places = [p for p in world.objects.values() if p.fixed and p.object_type == world.objects[place_id].object_type]
                front = landmark_front(anchor.position, grid, Pose(*_xz(anchor), 0.0, 0.0))
                rules = {
                    "nearest": places,
                    "estimated_front": [p for p in places if landmark_side(_xz(anchor), front, _xz(p)) == hint.direction],
                    "recorded_front": [p for p in places if landmark_direction(world, _xz(p), anchor.object_id) == hint.direction],
                }
                counts["hints"] += 1
                for rule, kept in rules.items():
                    chosen = min(kept or places, key=lambda p: math.dist(_xz(p), _xz(anchor)))
                    counts[f"{rule}_exact"] += chosen.object_id == place_id
                    counts[f"{rule}_column"] += math.dist(_xz(chosen), _xz(world.objects[place_id])) < COLUMN
    out: dict[str, float] = {"hints": counts["hints"], "seeds": seeds}
    for key, value in sorted(counts.items()):
        if key != "hints":
            out[key] = round(value / max(counts["hints"], 1), 4)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="random_start seeds per train floor plan")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = score(args.seeds)
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
