"""Builds the search prior ``mapping/data/search_prior.json`` from ALFRED train data (an
offline tool: it uses the simulator to place objects; no Follower-run module imports it).

For every ALFRED train trajectory of our train split (not the dev floor plans of
``simulator.episodes.alfred.dev_split``; ALFRED train has no unseen floor plans) the start
state is built in the simulator, and each pickupable object's receptacle type is counted. Objects without a receptacle are left out:
the simulator cannot tell an object on the floor from one on a surface it has no box for,
and the floor is searched by frontier exploration anyway. The table is
``{object type: {receptacle type: count}}`` with a provenance header, and ``fixed`` lists
the types never pickupable in any of those worlds (furniture, fixtures, appliances): never
inside a container, so the searcher opens none to look for one.

    python -m mapping.prior_build ../shared/data/alfred_train.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from mapping.search_prior import PRIOR_PATH
from simulator.alfred.trajectories import load_trajectories
from simulator.episodes.alfred import dev_split
from simulator.scenes import UnsupportedSceneError
from simulator.start_state import build_world
from simulator.world import World


def count_placements(path: Path) -> tuple[dict[str, Counter], set[str], int]:
    counts: dict[str, Counter] = defaultdict(Counter)
    seen: set[str] = set()  # every type in the worlds
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
        seen.update(obj.object_type for obj in world.objects.values())
    return counts, seen, used


def count_world(world: World, counts: dict[str, Counter]) -> None:
    """Adds each pickupable object's receptacle type in one world to ``counts``."""
    for obj in world.objects.values():
        if obj.pickupable:
            movable = counts[obj.object_type]  # a pickupable type has a row, even with no receptacle
            if obj.parent in world.objects:
                movable[world.objects[obj.parent].object_type] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trajectories", type=Path, help="ALFRED train trajectories (alfred_train.jsonl.gz)")
    parser.add_argument("--out", type=Path, default=PRIOR_PATH)
    args = parser.parse_args(argv)
    counts, seen, used = count_placements(args.trajectories)
    table = {t: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for t, c in sorted(counts.items()) if c}
    fixed = sorted(seen - set(counts))
    args.out.write_text(json.dumps({"source": "ALFRED train trajectories, our train split (dev floor plans held out)",
                                    "trajectories": used, "counts": table, "fixed": fixed},
                                   indent=0, sort_keys=False) + "\n")
    print(f"{args.out}: {len(table)} object types from {used} trajectories, {len(fixed)} fixed types")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
