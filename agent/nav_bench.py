"""``nesy bench nav``: find an object and reach it, with a perception module, the semantic map
and its navigator and searcher (an offline benchmark: it reads ground truth only to pick
the target, to compute the shortest path and to score).

An episode: a seeded random start state of a valid_unseen floor plan (objects on and in
receptacles, closed ones included), a random pickupable type present in it, and the
mapping package's find-and-reach driver (``mapping.find.FindAndReach``: stop when the
type is seen within reach; else go to the nearest remembered instance; else look around
where it starts, then follow the searcher's targets). Success: at the stop, an object of that type is
visible to the simulator, within reach and drawn in the frame. SPL weights success by the
oracle expert's shortest sequence (walk, open the closed container if any, look).
``ms_per_step``: one map update plus one decision (search and navigation), CPU time of the
thread (so a shared machine does not inflate it), the median over
the learned-prior episodes (perception not included). ``container_spl`` is the SPL of the
episodes whose object starts shut in a container (``container_episodes``): the expert opens
the right one of many first, a searcher cannot.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from contracts.observation import FOLLOWER, ModuleContext
from contracts.planning import ActionOutcome
from contracts.registry import registry
from mapping.find import FindAndReach
from mapping.semantic import SemanticMapper
from simulator.expert.actor import OracleActor, SkillFailed
from simulator.oracle import OracleAccess
from simulator.scenes import load_scene
from simulator.spawn import random_start

FLOOR_PLANS = ("FloorPlan10", "FloorPlan219", "FloorPlan308", "FloorPlan424")  # valid_unseen


@dataclass
class NavOutcome:
    floor_plan: str
    object_type: str
    success: bool
    steps: int
    shortest: int
    seconds: list[float] = field(default_factory=list)  # map update + decision, per step
    in_container: bool = False  # the expert's shortest sequence opens a closed container

    @property
    def spl(self) -> float:
        return float(self.success) * self.shortest / max(self.shortest, self.steps, 1)


def shortest_steps(sim: Any, object_type: str) -> tuple[int, bool] | None:
    """The oracle expert's fewest actions to see an object of the type within reach, and
    whether that sequence opens a closed container (None: no object of the type is seen)."""
    best = None
    for object_id, obj in sim.world.objects.items():
        if obj.object_type != object_type:
            continue
        actor = OracleActor(sim.fork(), vocabulary="teach")
        try:
            actor.look_at(object_id)
        except SkillFailed:
            continue
        found = (len(actor.actions), any(a[0] == "Open" for a in actor.actions))
        best = found if best is None else min(best, found)
    return best


def reached(sim: Any, object_type: str) -> bool:
    frame = sim.instance_frame(FOLLOWER)
    drawn = frame.visible_ids()
    return any(sim.world.objects[i].object_type == object_type and i in drawn for i in sim.world.visible_ids(FOLLOWER))


def nav_episode(sim: Any, floor_plan: str, seed: int, perception_name: str, prior: str,
                max_steps: int = 250) -> NavOutcome | None:
    observation = sim.reset(random_start(floor_plan, seed))
    rng = random.Random(f"{floor_plan}:{seed}")
    kinds = sorted({o.object_type for o in sim.world.objects.values() if o.pickupable})
    rng.shuffle(kinds)
    # a type already seen within reach at the start (0 actions) is no episode
    target, expert = next(((k, s) for k in kinds if (s := shortest_steps(sim, k)) and s[0]), (None, None))
    if target is None:
        return None
    shortest, in_container = expert
    context = ModuleContext(sim.camera_intrinsics(), True, seed)
    perception = registry("perception").build(perception_name)
    if hasattr(perception, "attach_oracle"):
        perception.attach_oracle(OracleAccess(sim, None))
    mapper = SemanticMapper(SemanticMapper.Params(search_prior=prior))
    for module in (perception, mapper):
        module.reset(context)
    driver = FindAndReach(mapper, target)
    steps, outcome, seconds = 0, None, []
    while steps < max_steps:
        detections = perception.detect(observation)
        started = time.thread_time()
        belief = mapper.update(observation, detections, outcome)
        action = driver.next_action(observation, belief, detections)
        seconds.append(time.thread_time() - started)
        if action is None:
            break
        observation = sim.step(FOLLOWER, action.action, **action.target).observation
        outcome = ActionOutcome(action, observation.last_action_success, observation.error_message)
        steps += 1
    return NavOutcome(floor_plan, target, driver.arrived and reached(sim, target), steps, shortest, seconds,
                      in_container)


def benchmark(sim: Any, episodes: int, perception: str, seed: int = 0,
              floor_plans: tuple[str, ...] = FLOOR_PLANS, per_episode: list[dict] | None = None,
              priors: tuple[str, ...] = ("learned", "uniform")) -> dict[str, float]:
    """Both priors on the same episodes; keys as ``nesy bench nav --json`` prints them
    (``container_episodes``, ``container_spl``: the episodes whose object starts in a closed
    container, and their SPL).
    ``floor_plans``: valid_unseen's by default (tune on train floor plans, report on these);
    ``per_episode``: a list that gets one row per episode and prior; ``priors``: the
    priors to run (``learned`` alone halves a tuning run)."""
    out: dict[str, float] = {"episodes": 0, "perception": perception}
    for prior, prefix in (("learned", ""), ("uniform", "uniform_")):
        if prior not in priors:
            continue
        rows = []
        for k in range(episodes):
            plan = floor_plans[k % len(floor_plans)]
            load_scene(plan)
            row = nav_episode(sim, plan, seed + k, perception, prior)
            if row is not None:
                rows.append(row)
                if per_episode is not None:
                    per_episode.append({"prior": prior, "floor_plan": plan, "seed": seed + k, "object_type": row.object_type,
                                        "success": row.success, "steps": row.steps, "shortest": row.shortest,
                                        "spl": round(row.spl, 4), "in_container": row.in_container})
        out["episodes"] = len(rows)
        out[f"{prefix}success_rate"] = round(sum(r.success for r in rows) / max(len(rows), 1), 4)
        out[f"{prefix}spl"] = round(sum(r.spl for r in rows) / max(len(rows), 1), 4)
        out[f"{prefix}mean_steps"] = round(sum(r.steps for r in rows) / max(len(rows), 1), 1)
        shut = [r for r in rows if r.in_container]  # where SPL goes: the expert opens the right one first
        out["container_episodes"] = len(shut)
        out[f"{prefix}container_spl"] = round(sum(r.spl for r in shut) / max(len(shut), 1), 4)
        if prefix == "":
            times = [t for r in rows for t in r.seconds]
            out["ms_per_step"] = round(1000 * float(np.median(times)), 2) if times else 0.0
    return out
