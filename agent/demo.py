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
from simulator.expert.actor import OracleActor, SkillFailed
from simulator.objects import encloses
from simulator.sim import Simulator
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


def rearrange(scene: str, seed: int, moves: int = 3) -> DemoRow:
    """Move ``moves`` random objects from open surfaces to other receptacles that take them."""
    sim = Simulator()
    sim.reset(random_start(scene, seed))
    actor = OracleActor(sim)
    rng = random.Random(seed)
    world = sim.world
    surfaces = sorted(
        oid for oid, o in world.objects.items()
        if o.fixed and o.receptacle and not encloses(o) and world.scene.fixed_objects[oid].interaction_pose
    )
    items = sorted(oid for oid, o in world.objects.items() if o.pickupable and o.parent in surfaces)
    rng.shuffle(items)
    done = 0
    start = time.perf_counter()
    for item_id in items[:moves]:
        item = world.objects[item_id]
        targets = [s for s in surfaces if s != item.parent and placement_allowed(world.objects[s].object_type, item.object_type)]
        if not targets:
            continue
        target = rng.choice(targets)
        try:
            actor.put(item_id, target)
            done += world.objects[item_id].parent == target
        except SkillFailed:
            continue
    elapsed = time.perf_counter() - start
    steps = len(actor.actions)
    return DemoRow(scene, min(moves, len(items)), done, steps, actor.failed, round(steps / elapsed, 1) if elapsed else 0.0)


def run_demo(config: NesyConfig, out_dir: str | Path) -> list[DemoRow]:
    rows = [rearrange(scene, config.seed + i) for i, scene in enumerate(DEMO_SCENES)]
    out = Path(out_dir)
    save_effective_config(config, out)
    with open(out / "results.jsonl", "w") as handle:
        for row in rows:
            handle.write(json.dumps({**asdict(row), "oracles": ORACLES}) + "\n")
    return rows
