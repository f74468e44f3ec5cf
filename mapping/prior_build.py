"""Builds the search prior ``mapping/data/search_prior.json`` and the size prior
``mapping/data/object_sizes.json`` from ALFRED train data (an offline tool: it uses the
simulator to place objects; no Follower-run module imports it).

For every ALFRED train trajectory of our train split (not the dev floor plans of
``simulator.episodes.alfred.dev_split``; ALFRED train has no unseen floor plans) the start
state is built in the simulator, and each pickupable object's receptacle type is counted. Objects without a receptacle are left out:
the simulator cannot tell an object on the floor from one on a surface it has no box for,
and the floor is searched by frontier exploration anyway. The table is
``{object type: {receptacle type: count}}`` with a provenance header, and ``fixed`` lists
the types never pickupable in any of those worlds (furniture, fixtures, appliances): never
inside a container, so the searcher opens none to look for one.

The size prior is, per object type, the largest side of any of its objects' boxes in those
worlds, pickupable types and the others apart (``mapping.size_prior``: a detection whose
points span far more than that is not one; a box grown past it is capped).

The room kinds table ``mapping/data/room_kinds.json`` is, per object type, the kinds of room
(kitchen, living room, bedroom, bathroom) whose worlds held one (``mapping.room_kinds``: in a
room believed a kitchen, a toilet seen is a phantom).

    python -m mapping.prior_build ../shared/data/alfred_train.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from mapping.room_kinds import ROOM_KINDS_PATH
from mapping.search_prior import PRIOR_PATH
from mapping.size_prior import SIZES_PATH
from simulator.alfred.trajectories import load_trajectories
from simulator.episodes.alfred import dev_split
from simulator.scenes import UnsupportedSceneError, load_scene
from simulator.start_state import build_world
from simulator.world import World


def count_placements(path: Path) -> tuple[dict[str, Counter], list[str], dict[str, float], dict[str, set[str]], int]:
    """The counts, the fixed types (in some world, pickupable in none), the largest side per
    type, the room kinds per type and the worlds used."""
    counts: dict[str, Counter] = defaultdict(Counter)
    kinds: dict[str, set[str]] = defaultdict(set)
    largest: dict[str, float] = defaultdict(float)  # largest side of the type's pickupable objects
    largest_any: dict[str, float] = defaultdict(float)  # ... of all its objects (what a fixed type returns)
    movable: set[str] = set()
    used = 0
    for trajectory in load_trajectories(path):
        if dev_split(trajectory.floor_plan) != "train":
            continue
        try:
            world = build_world(trajectory.start_state())
        except UnsupportedSceneError:
            continue
        used += 1
        count_world(world, counts)
        room = load_scene(trajectory.floor_plan).room_type
        for obj in world.objects.values():
            kinds[obj.object_type].add(room)  # every type seen, with its rooms
            largest_any[obj.object_type] = max(largest_any[obj.object_type], max(obj.size))
            if obj.pickupable:
                movable.add(obj.object_type)
                largest[obj.object_type] = max(largest[obj.object_type], max(obj.size))
    fixed = sorted(set(kinds) - movable)
    return counts, fixed, {**largest, **{t: largest_any[t] for t in fixed}}, dict(kinds), used


def count_world(world: World, counts: dict[str, Counter]) -> None:
    """Adds each pickupable object's receptacle type in one world to ``counts``."""
    for obj in world.objects.values():
        if obj.pickupable and obj.parent in world.objects:
            counts[obj.object_type][world.objects[obj.parent].object_type] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trajectories", type=Path, help="ALFRED train trajectories (alfred_train.jsonl.gz)")
    parser.add_argument("--out", type=Path, default=PRIOR_PATH)
    parser.add_argument("--sizes-out", type=Path, default=SIZES_PATH)
    parser.add_argument("--kinds-out", type=Path, default=ROOM_KINDS_PATH)
    args = parser.parse_args(argv)
    counts, fixed, largest, kinds, used = count_placements(args.trajectories)
    sides = {t: round(v, 3) for t, v in sorted(largest.items())}
    table = {t: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for t, c in sorted(counts.items())}
    args.out.write_text(json.dumps({"source": "ALFRED train trajectories, our train split (dev floor plans held out)",
                                    "trajectories": used, "counts": table, "fixed": fixed},
                                   indent=0, sort_keys=False) + "\n")
    args.sizes_out.write_text(json.dumps({"source": "ALFRED train trajectories, our train split (dev floor plans held out)",
                                          "trajectories": used, "unit": "metres, the largest side of the type's boxes",
                                          "largest_side": {t: v for t, v in sides.items() if t not in fixed},
                                          "largest_side_fixed": {t: v for t, v in sides.items() if t in fixed}},
                                         indent=0) + "\n")
    args.kinds_out.write_text(json.dumps({"source": "ALFRED train trajectories, our train split (dev floor plans held out)",
                                          "trajectories": used, "kinds": {t: sorted(k) for t, k in sorted(kinds.items())}},
                                         indent=0) + "\n")
    print(f"{args.out}: {len(table)} object types from {used} trajectories, {len(fixed)} fixed types; "
          f"{args.sizes_out}: sizes of {len(largest)} types ({len(fixed)} fixed); {args.kinds_out}: room kinds of {len(kinds)} types")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
