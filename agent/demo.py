"""The demo job: an oracle expert rearranges objects in one floor plan of each room type.

Until the Commander/Follower pairing exists, this is the project's main end-to-end job
on the built-in simulator: a seeded random start state per floor plan, then a scripted
oracle (it reads ground truth; named as such in the results) that walks to an object by
shortest path, picks it up, carries it to another receptacle and puts it there. It shows
navigation, visibility, containment and the action API working together, and reports
per-floor-plan success, steps, failed actions and simulator speed.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from agent.config import save_effective_config
from agent.settings import NesyConfig
from simulator.actions import placement_allowed
from simulator.navigation import path_to
from simulator.objects import encloses
from simulator.sim import FOLLOWER, Simulator
from simulator.spawn import random_start

DEMO_SCENES = ("FloorPlan1", "FloorPlan201", "FloorPlan301", "FloorPlan401")
ORACLES = ["oracle-expert (scripted from the simulator's full state)"]


@dataclass
class DemoRow:
    scene: str
    moves_tried: int
    moves_done: int
    steps: int
    failed_actions: int
    steps_per_second: float


def _open_surfaces(sim: Simulator) -> list:
    world = sim.world
    return [
        fixed for fixed in world.scene.fixed_objects.values()
        if fixed.receptacle and fixed.interaction_pose and not encloses(world.objects[fixed.object_id])
        and fixed.object_id in world.objects
    ]


def _walk_and_do(sim: Simulator, pose, action: str, **target) -> tuple[bool, int, int]:
    agent = sim.world.agents[FOLLOWER]
    actions = path_to(sim.world.scene, agent.pose(), pose)
    if actions is None:
        return False, 0, 0
    failed = 0
    for name in actions:
        failed += not sim.step(FOLLOWER, name).success
    result = sim.step(FOLLOWER, action, **target)
    return result.success, len(actions) + 1, failed + (not result.success)


def rearrange(scene: str, seed: int, moves: int = 3) -> DemoRow:
    sim = Simulator()
    sim.reset(random_start(scene, seed))
    rng = random.Random(seed)
    surfaces = _open_surfaces(sim)
    by_id = {s.object_id: s for s in surfaces}
    items = sorted(
        o.object_id for o in sim.world.objects.values()
        if o.pickupable and o.parent in by_id
    )
    rng.shuffle(items)
    done = steps = failed = 0
    start = time.perf_counter()
    for item_id in items[:moves]:
        item = sim.world.objects[item_id]
        source = by_id[item.parent]
        targets = [s for s in surfaces if s.object_id != source.object_id and placement_allowed(s.object_type, item.object_type)]
        if not targets:
            continue
        target = rng.choice(targets)
        ok, n, f = _walk_and_do(sim, source.interaction_pose, "PickupObject", objectId=item_id)
        steps, failed = steps + n, failed + f
        if not ok:
            continue
        ok, n, f = _walk_and_do(sim, target.interaction_pose, "PutObject", objectId=item_id, receptacleObjectId=target.object_id)
        steps, failed = steps + n, failed + f
        done += ok and sim.world.objects[item_id].parent == target.object_id
    elapsed = time.perf_counter() - start
    return DemoRow(scene, min(moves, len(items)), done, steps, failed, round(steps / elapsed, 1) if elapsed else 0.0)


def run_demo(config: NesyConfig, out_dir: str | Path) -> list[DemoRow]:
    rows = [rearrange(scene, config.seed + i) for i, scene in enumerate(DEMO_SCENES)]
    out = Path(out_dir)
    save_effective_config(config, out)
    with open(out / "results.jsonl", "w") as handle:
        for row in rows:
            handle.write(json.dumps({**asdict(row), "oracles": ORACLES}) + "\n")
    return rows
