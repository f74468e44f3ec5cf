"""From how far Mask R-CNN sees what lies in a container above the camera (an offline check:
it reads ground truth, so it lives in ``agent``, never in a Follower).

In every floor plan of the split whose microwave's box bottom lies less than ``HIGH`` below
the Follower's camera, or above it (a microwave over the stove, as in FloorPlan10), a
``random_start`` world; one thing
of each of ``TYPES`` that the world holds is put into the open microwave (where AI2-THOR's
PutObject would leave it, ``simulator.placement.landing``) and looked at from every free
lattice pose within 1.5 m, facing it, at the horizons -30 and 0. Per pose where at least
``MIN_PIXELS`` of it are drawn: does the shipped ``maskrcnn`` module (told to look for that
type, as a Follower's skill tells it) return a detection of that type on it (half of the
detection's mask on it)? Reported: the rate by horizontal distance from the camera to the
thing (``BINS``) and horizon -- what ``mapping.navigation.HIGH_NEAR`` is chosen from -- and
how many of the poses facing it draw at least ``SHOWN_PIXELS`` of it at all (``shown`` of
``facing``: does a farther pose show it more often? ``--drawn-only`` skips the detector).

    python -m agent.high_sight [--split train] [--seeds 1] [--drawn-only] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict

import numpy as np

from contracts.observation import FOLLOWER
from simulator.episodes.splits import split_floor_plans
from simulator.geometry import CAMERA_HEIGHT
from simulator.placement import landing
from simulator.scenes import to_cell
from simulator.sim import Simulator, SimulatorSettings
from simulator.spawn import random_start

TYPES = ("Apple", "Bread", "Tomato", "Potato", "Mug", "Egg")  # what TATC's tasks heat in a microwave
BINS = (0.5, 0.75, 1.0, 1.25, 1.5)  # upper edges, metres
MIN_PIXELS = 300
SHOWN_PIXELS = 10  # pixels of a thing drawn for a pose to show it at all (where a put landed)
HIGH = 0.1  # metres: a microwave whose box's bottom is higher than this below the camera counts
HORIZONS = (-30.0, 0.0)


def _bin(distance: float) -> str:
    edge = next((b for b in BINS if distance < b), None)
    return f"<{edge}" if edge is not None else f">={BINS[-1]}"


def _poses(world, near: tuple[float, float, float]):
    """Free lattice poses within 1.5 m of ``near`` (x, z), facing it."""
    x0, z0 = round(near[0] / 0.25) * 0.25, round(near[2] / 0.25) * 0.25
    for dx in np.arange(-1.5, 1.51, 0.25):
        for dz in np.arange(-1.5, 1.51, 0.25):
            x, z = float(x0 + dx), float(z0 + dz)
            distance = math.hypot(x - near[0], z - near[2])
            if distance > 1.5 or not world.free_cell(to_cell(x, z), FOLLOWER):
                continue
            heading = int(round(math.degrees(math.atan2(near[0] - x, near[2] - z)) / 90.0)) % 4 * 90
            yield x, z, heading, distance


def measure(split: str, seeds: int, detector=None) -> dict:
    """The rows by distance bin and horizon (``detector`` None: what is drawn only)."""
    counts: dict[tuple[str, float], list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # detected, poses, shown, facing
    plans = []
    for plan in split_floor_plans(split):
        for seed in range(seeds):
            sim = Simulator(SimulatorSettings(render="egl"))
            sim.reset(random_start(plan, seed))
            world = sim.world
            ovens = [o for o in world.objects.values() if o.object_type == "Microwave"
                     and o.position[1] - o.size[1] / 2 > CAMERA_HEIGHT - HIGH]
            spot = min(_poses(world, ovens[0].position), key=lambda p: abs(p[3] - 1.0), default=None) if ovens else None
            if spot is None:  # no microwave that high (or nowhere to stand at it): the next floor plan
                sim.close()
                break
            if seed == 0:
                plans.append(plan)
            oven = ovens[0]
            oven.is_open = True
            agent = world.agents[FOLLOWER]
            for kind in TYPES:
                item = next((o for o in world.objects.values() if o.object_type == kind and o.held_by is None), None)
                if item is None:
                    continue
                agent.x, agent.z, agent.rotation, agent.horizon = spot[0], spot[1], spot[2], 0.0
                was = item.parent, item.position
                world.put_in(item.object_id, oven.object_id, landing(world, oven, item, agent.camera(90.0)))
                if detector is not None:
                    detector.attend(frozenset({kind}))
                for x, z, heading, distance in _poses(world, item.position):
                    for horizon in HORIZONS:
                        agent.x, agent.z, agent.rotation, agent.horizon = x, z, heading, horizon
                        frame = sim.instance_frame()
                        index = next((k for k, v in frame.ids.items() if v == item.object_id), None)
                        drawn = frame.instance == index if index is not None else None
                        pixels = int(drawn.sum()) if drawn is not None else 0
                        row = counts[(_bin(distance), horizon)]
                        row[2] += int(pixels >= SHOWN_PIXELS)
                        row[3] += 1
                        if pixels < MIN_PIXELS or detector is None:
                            continue
                        found = any(d.object_type == kind and (d.mask & drawn).sum() * 2 >= d.mask.sum()
                                    for d in detector.detect(sim.observe(FOLLOWER)))
                        row[0] += int(found)
                        row[1] += 1
                if was[0] is not None:  # back where it was: one thing in the microwave at a time
                    world.put_in(item.object_id, was[0], was[1])
            sim.close()
    rows = [{"distance": d, "horizon": h, "detected": n, "poses": m, "rate": round(n / m, 3) if m else None,
             "shown": shown, "facing": facing}
            for (d, h), (n, m, shown, facing) in sorted(counts.items())]
    return {"split": split, "seeds": seeds, "floor_plans": plans, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    from perception.maskrcnn import MaskRCNNPerception

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="train", help="floor plans: train (default) or valid_unseen")
    parser.add_argument("--seeds", type=int, default=1, help="random_start seeds per floor plan")
    parser.add_argument("--drawn-only", action="store_true", help="count what is drawn; no detector")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(args.split, args.seeds, None if args.drawn_only else MaskRCNNPerception())
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.split}: microwaves above the camera in {', '.join(result['floor_plans']) or 'no floor plan'}")
    for row in result["rows"]:
        found = f"detected {row['detected']:3d}/{row['poses']:3d}" if row["rate"] is not None else "detected -"
        print(f"  distance {row['distance']:>6} horizon {row['horizon']:>5}: {found}; "
              f"shown from {row['shown']:3d}/{row['facing']:3d} facing it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
