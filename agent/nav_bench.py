"""``nesy bench nav``: find an object and reach it, with a perception module, the semantic map
and its navigator and searcher (an offline benchmark: it reads ground truth only to pick
the target, to compute the shortest path and to score).

An episode: a seeded random start state of a valid_unseen floor plan (objects on and in
receptacles, closed ones included), a random pickupable type present in it, and a
find-and-reach driver: it first turns, where it starts, towards where the map is still
unknown; while no instance of the type is in memory it follows the searcher's targets
(walks to a frontier and turns towards the unknown; walks to a receptacle and looks at it,
opening a closed one with a click inside its mask); then it walks to the nearest
remembered instance and stops when the navigator says it has arrived. Success: at the stop, an object of that type is
visible to the simulator, within reach and drawn in the frame. SPL weights success by the
oracle expert's shortest sequence (walk, open the closed container if any, look).
``ms_per_step``: one map update plus one decision (search and navigation), CPU time of the
thread (so a shared machine does not inflate it), the median over
the learned-prior episodes (perception not included).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from contracts.geometry import depth_to_points
from contracts.navigation import NavigationGoal, NavigationState, SearchTarget
from contracts.observation import FOLLOWER, ModuleContext
from contracts.planning import ActionOutcome, LowLevelAction
from contracts.registry import registry
from mapping.semantic import SemanticMapper
from simulator.expert.actor import OracleActor, SkillFailed
from simulator.oracle import OracleAccess
from simulator.scenes import load_scene
from simulator.spawn import random_start

FLOOR_PLANS = ("FloorPlan10", "FloorPlan219", "FloorPlan308", "FloorPlan424")  # valid_unseen
SEARCH_TRIES = 200  # search targets tried in one step (each found unreachable or reached without a move)


@dataclass
class NavOutcome:
    floor_plan: str
    object_type: str
    success: bool
    steps: int
    shortest: int
    seconds: list[float] = field(default_factory=list)  # map update + decision, per step

    @property
    def spl(self) -> float:
        return float(self.success) * self.shortest / max(self.shortest, self.steps, 1)


def shortest_steps(sim: Any, object_type: str) -> int | None:
    """The oracle expert's fewest actions to see an object of the type within reach."""
    best = None
    for object_id, obj in sim.world.objects.items():
        if obj.object_type != object_type:
            continue
        actor = OracleActor(sim.fork(), vocabulary="teach")
        try:
            actor.look_at(object_id)
        except SkillFailed:
            continue
        best = len(actor.actions) if best is None else min(best, len(actor.actions))
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
    target, shortest = next(((k, s) for k in kinds if (s := shortest_steps(sim, k))), (None, None))
    if target is None:
        return None
    context = ModuleContext(sim.camera_intrinsics(), True, seed)
    perception = registry("perception").build(perception_name)
    if hasattr(perception, "attach_oracle"):
        perception.attach_oracle(OracleAccess(sim, None))
    mapper = SemanticMapper(SemanticMapper.Params(search_prior=prior))
    for module in (perception, mapper):
        module.reset(context)
    driver = _Driver(mapper, target)
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
    return NavOutcome(floor_plan, target, driver.arrived and reached(sim, target), steps, shortest, seconds)


class _Driver:
    """Search, then go to the remembered instance; None when it stops."""

    def __init__(self, mapper: SemanticMapper, object_type: str) -> None:
        self.mapper, self.object_type = mapper, object_type
        self.navigator = mapper.navigator()
        self.target: SearchTarget | None = None
        self.looks: list[str] | None = None  # quarter turns still to make here (None: decide at the start)
        self.unreachable: set[str] = set()  # remembered instances with no path yet (tried again after each search target)
        self.arrived = False

    def next_action(self, observation, belief, detections) -> LowLevelAction | None:
        seen = [i for i in belief.memory.of_type(self.object_type) if i.times_seen > 0 and i.key not in self.unreachable]
        seen.sort(key=lambda i: math.hypot(i.position[0] - belief.pose.x, i.position[2] - belief.pose.z))
        if seen:
            step = self.navigator.step(observation, belief, NavigationGoal(instance=seen[0].key))
            if step.state == NavigationState.MOVING:
                return LowLevelAction(step.action)
            if step.state == NavigationState.ARRIVED:
                self.arrived = True
                return None
            self.unreachable.add(seen[0].key)
        if self.looks is None:  # first look around where it starts, where the view is still unknown
            self.looks = self.navigator.searcher.look_around(belief)
        if self.looks:
            return LowLevelAction(self.looks.pop(0))
        for _ in range(SEARCH_TRIES):
            if self.target is None:
                self.target = self.navigator.searcher.next_search(belief, self.object_type)
                if self.target is None:
                    return None  # searched everything
            step = self.navigator.step(observation, belief, self.target.goal)
            if step.state == NavigationState.MOVING:
                return LowLevelAction(step.action)
            done, self.target = self.target, None
            self.navigator.searcher.searched(done)
            self.unreachable.clear()  # the map has grown: try the remembered ones again
            if step.state == NavigationState.ARRIVED:
                if done.open_receptacle:
                    click = _click_on(observation, belief, detections, done.goal.instance, self.mapper)
                    if click is not None:
                        return LowLevelAction("Open", {"x": click[0], "y": click[1]}, done.goal.instance)
                elif done.goal.point is not None:  # a frontier: look where the map is still unknown
                    self.looks = self.navigator.searcher.look_around(belief)
                    if self.looks:
                        return LowLevelAction(self.looks.pop(0))
        return None


def _click_on(observation, belief, detections, key: str, mapper: SemanticMapper) -> tuple[float, float] | None:
    """A click inside the mask of the detection that is the remembered instance ``key``."""
    instance = belief.memory.instances[key]
    points = depth_to_points(observation.depth, observation.pose, mapper.context.camera)
    best, best_distance = None, math.inf
    for detection in detections:
        if detection.object_type != instance.object_type:
            continue
        hits = points[detection.mask]
        hits = hits[np.isfinite(hits[:, 0])]
        if len(hits):
            centre = np.median(hits, axis=0)
            distance = math.hypot(centre[0] - instance.position[0], centre[2] - instance.position[2])
            if distance < best_distance:
                best, best_distance = detection, distance
    return best.click_point() if best is not None and best_distance < 1.0 else None


def benchmark(sim: Any, episodes: int, perception: str, seed: int = 0,
              floor_plans: tuple[str, ...] = FLOOR_PLANS) -> dict[str, float]:
    """Both priors on the same episodes; keys as ``nesy bench nav --json`` prints them.
    ``floor_plans``: valid_unseen's by default (tune on train floor plans, report on these)."""
    out: dict[str, float] = {"episodes": 0, "perception": perception}
    for prior, prefix in (("learned", ""), ("uniform", "uniform_")):
        rows = []
        for k in range(episodes):
            plan = floor_plans[k % len(floor_plans)]
            load_scene(plan)
            row = nav_episode(sim, plan, seed + k, perception, prior)
            if row is not None:
                rows.append(row)
        out["episodes"] = len(rows)
        out[f"{prefix}success_rate"] = round(sum(r.success for r in rows) / max(len(rows), 1), 4)
        out[f"{prefix}spl"] = round(sum(r.spl for r in rows) / max(len(rows), 1), 4)
        out[f"{prefix}mean_steps"] = round(sum(r.steps for r in rows) / max(len(rows), 1), 1)
        if prefix == "":
            times = [t for r in rows for t in r.seconds]
            out["ms_per_step"] = round(1000 * float(np.median(times)), 2) if times else 0.0
    return out
