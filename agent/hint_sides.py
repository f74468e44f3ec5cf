"""How often a Follower that hears "the plate is in the cabinet left of the microwave"
picks the cabinet the Commander meant (an offline check: it reads ground truth, so it lives
in ``agent``, never in a Follower).

For every train floor plan and seed, a ``random_start`` world; for every pickupable object in
a cabinet or drawer that the Commander would describe from a landmark
(``agent.commanders.locations.describe``), three rules pick a place among the room's
receptacles of the hinted type:

- ``nearest``: the one nearest the landmark (the Follower's rule until stop 32);
- ``estimated_front``: the nearest on the hinted side, seen from the front the Follower
  estimates (``mapping.hints.landmark_front``, here on a map whose free cells are
  the floor plan's navigable ones);
- ``recorded_front``: the same with the landmark's recorded interaction pose (what the
  Commander uses: the best a Follower could do).

Each is scored as ``exact`` (the hinted receptacle) and ``column`` (one within 0.3 m of it
horizontally: the right column of drawers, or the cabinet above or below it).

The Follower's own ``mapping.hints.HintBook`` is then scored on the same places, with the
Follower at a random navigable pose: ``tries_*`` is the mean number of places it believes the
object in, one after another as each is opened without it, until the hinted one
(``MAX_TRIES`` + 1 when it never gets there), ``first_*`` how often the first is the one,
for the landmark hint alone (``landmark``), the Commander's second sentence alone
("... in the cabinet to your right": ``you``) and both, as the Commander says them (``both``).

    python -m agent.hint_sides [--seeds 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import Counter

import numpy as np

from agent.commanders.locations import describe, landmark_direction, place_of, relation, speakable
from contracts.belief import Cell, GridMap, ObjectMemory
from contracts.geometry import Pose, landmark_side, sector
from contracts.language import LocationHint
from mapping.hints import LOOKS, HintBook, landmark_front
from simulator.episodes.splits import split_floor_plans
from simulator.scenes import cell_center
from simulator.spawn import random_start
from simulator.start_state import build_world

PLACES = ("Cabinet", "Drawer")
COLUMN = 0.3  # metres
MAX_TRIES = 8  # places opened one after another before the HintBook is scored as not getting there


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


def tries(world, grid: GridMap, hints: list[LocationHint], pose: Pose, place_id: str) -> int:
    """Places the Follower's HintBook believes the object in, one after another as each is
    opened and looked into without it, until ``place_id`` (MAX_TRIES + 1: not within them)."""
    memory, ids = ObjectMemory(), {}
    for o in world.objects.values():
        kind = speakable(o.object_type)
        if o.fixed and kind in (hints[0].place, hints[0].anchor):
            ids[memory.add(kind, o.position, times_seen=1).key] = o.object_id
    book = HintBook()
    book.add(hints, pose)
    for n in range(1, MAX_TRIES + 1):
        book.resolve(memory, grid)
        trail = book.trails.get(hints[0].object)
        if trail is None or trail.place is None:
            break
        if ids[trail.place] == place_id:
            return n
        for _ in range(LOOKS):
            book.resolve(memory, grid, lambda place, key=trail.place: place.key == key)
    return MAX_TRIES + 1


def score(seeds: int) -> dict[str, float]:
    counts: Counter = Counter()
    for plan in split_floor_plans("train"):
        grid = None
        for seed in range(seeds):
            world = build_world(random_start(plan, seed))
            grid = grid or navigable_map(world.scene)
            rng = random.Random(f"{plan}/{seed}")
            cells = sorted(cell_center(c) for c in world.scene.navigable)
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
                pose = Pose(*rng.choice(cells), float(rng.choice((0, 90, 180, 270))), 0.0)
                you = LocationHint(hint.object, relation(hint.place), hint.place, sector(pose, obj.position), "you",
                                   hint.level)
                for rule, said in (("landmark", [hint]), ("you", [you]), ("both", [hint, you])):
                    n = tries(world, grid, said, pose, place_id)
                    counts[f"tries_{rule}"] += n
                    counts[f"first_{rule}"] += n == 1
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
