"""``nesy bench sim``: symbolic simulator speed on a fixed, seeded mix of actions.

An episode loop as an agent drives it: every step is one action (about 70% navigation,
30% interaction with a visible object chosen by id), followed by the agent's observation
and the list of visible objects (what an oracle perception module reads). A second run
adds the full AI2-THOR-style metadata every step. Timings are single-process, one core.
"""

from __future__ import annotations

import random
import time

from simulator.sim import FOLLOWER, Simulator
from simulator.spawn import random_start

NAVIGATION = ("MoveAhead", "RotateLeft", "RotateRight", "LookUp", "LookDown", "MoveAhead", "MoveAhead")
INTERACTION = ("PickupObject", "PutObject", "OpenObject", "CloseObject", "ToggleObjectOn", "ToggleObjectOff")
SCENES = ("FloorPlan1", "FloorPlan201", "FloorPlan301", "FloorPlan401")


def random_step(sim: Simulator, rng: random.Random):
    """One step of the benchmark mix: navigation, or an interaction with a visible object."""
    if rng.random() < 0.7:
        return sim.step(FOLLOWER, rng.choice(NAVIGATION))
    visible = sim.world.visible_ids(FOLLOWER)
    target = rng.choice(visible) if visible else "Nothing|+00.00|+00.00|+00.00"
    return sim.step(FOLLOWER, rng.choice(INTERACTION), objectId=target, receptacleObjectId=target)


def _run(steps: int, seed: int, with_metadata: bool) -> tuple[float, int]:
    rng = random.Random(seed)
    sim = Simulator()
    succeeded = 0
    elapsed = 0.0
    per_scene = steps // len(SCENES)
    for index, scene in enumerate(SCENES):
        sim.reset(random_start(scene, seed + index))
        start = time.perf_counter()
        for _ in range(per_scene):
            result = random_step(sim, rng)
            sim.world.visible_ids(FOLLOWER)
            if with_metadata:
                sim.metadata(FOLLOWER)
            succeeded += result.success
        elapsed += time.perf_counter() - start
    return elapsed, succeeded


def benchmark(steps: int = 20000, seed: int = 0) -> dict:
    """Steps per second, without and with full metadata each step."""
    elapsed, succeeded = _run(steps, seed, with_metadata=False)
    elapsed_md, _ = _run(steps // 4, seed, with_metadata=True)
    return {
        "steps": steps,
        "steps_per_second": round(steps / elapsed, 1),
        "steps_per_second_with_metadata": round((steps // 4) / elapsed_md, 1),
        "action_success_fraction": round(succeeded / steps, 3),
        "scenes": list(SCENES),
    }
