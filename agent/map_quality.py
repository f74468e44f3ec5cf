"""Map quality and speed of a mapper on a scripted tour (an offline tool: it reads ground
truth to score the map, so it lives in ``agent``, never in a Follower).

Per episode (valid_unseen start states, rendering on): the configured perception and mapper
are reset as a Follower's would be; the Follower looks around at its start (four right
turns at two horizons), then walks with the mapper's own navigator to ``waypoints`` random
truly navigable points and looks around at each. Scored at the end, over the lattice
points the map has explored: IoU of "blocked" (the navigator's passability on the map vs
the simulator's navigable grid) and the explored share of the navigable area; and the
object memory against the scene's fixed objects (``_count_instances``): how many
instances the map holds per fixed object it found (1.0 = each seen as one) and how many of
its instances lie on no fixed object of their type, and how many of the other types' (what
can be picked up) lie on no object of their type. Timed: one mapper update plus one
navigation decision per step (``ms_per_step``).
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from agent.settings import ModuleConfig, build_module
from contracts.geometry import world_to_odometry
from contracts.navigation import NavigationGoal, NavigationState
from contracts.observation import FOLLOWER, ModuleContext
from contracts.registry import registry
from mapping.navigation import STEP, _Lattice
from simulator.oracle import OracleAccess
from simulator.scenes import GRID

MATCH_MARGIN = 0.15  # metres around a fixed object's box that a remembered instance's middle may lie in
LOOK_AROUND = ["Turn Right"] * 4 + ["Look Down"] + ["Turn Right"] * 4 + ["Look Up"]


def tour(sim: Any, episode: Any, perception_name: str, mapper_name: str = "semantic", mapper_params: dict | None = None,
         waypoints: int = 3, seed: int = 0, max_steps: int = 150) -> dict[str, float]:
    observation = sim.reset(episode.start)
    access = OracleAccess(sim, episode)
    context = ModuleContext(sim.camera_intrinsics(), sim.rendering, seed)
    perception = registry("perception").build(perception_name)
    mapper = build_module("mapper", ModuleConfig(mapper_name, dict(mapper_params or {})))
    for module in (perception, mapper):
        if hasattr(module, "attach_oracle"):
            module.attach_oracle(access)
        module.reset(context)
    navigator = mapper.navigator()
    truth = _true_navigable(sim)
    rng = random.Random(f"{seed}:{episode.episode_id}")
    plan = list(LOOK_AROUND)
    goals = [rng.choice(sorted(truth)) for _ in range(waypoints)]
    timings, steps = [], 0
    belief = None
    while steps < max_steps and (plan or goals):
        detections = perception.detect(observation)
        started = time.perf_counter()
        belief = mapper.update(observation, detections)
        action = plan.pop(0) if plan else None
        if action is None:
            step = navigator.step(observation, belief, NavigationGoal(point=(goals[0][0] * STEP, goals[0][1] * STEP)))
            if step.state != NavigationState.MOVING:
                goals.pop(0)
                plan = list(LOOK_AROUND)
                continue
            action = step.action
        timings.append(time.perf_counter() - started)
        observation = sim.step(FOLLOWER, action).observation
        steps += 1
    belief = mapper.update(observation, perception.detect(observation))
    return {**_score(belief.grid, truth, getattr(mapper.params, "clearance", 0.0)),
            **_count_instances(belief.memory, sim),
            "ms_per_step": 1000 * float(np.median(timings)) if timings else 0.0, "steps": steps}


def _boxes_by_type(objects: Any, sim: Any) -> dict[str, list[tuple[np.ndarray, np.ndarray, str]]]:
    """(centre, size, id) of each object in the odometry frame, by type."""
    origin = sim.odometry_origin(FOLLOWER)
    turned = round(origin[2] / 90) % 2 == 1  # the odometry frame's axes are the world's, or swapped
    boxes: dict[str, list[tuple[np.ndarray, np.ndarray, str]]] = {}
    for obj in objects:
        size = np.asarray(obj.size)[[2, 1, 0] if turned else [0, 1, 2]]
        boxes.setdefault(obj.object_type, []).append((world_to_odometry(np.asarray(obj.position), origin), size, obj.object_id))
    return boxes


def _holder(instance: Any, boxes: dict[str, list[tuple[np.ndarray, np.ndarray, str]]], margin: float) -> str | None:
    """The object of the instance's type whose box (grown by ``margin``) holds its middle,
    the nearest if several."""
    here = np.asarray(instance.position)
    holding = [(float(np.linalg.norm(here - centre)), object_id) for centre, size, object_id in boxes[instance.object_type]
               if np.all(np.abs(here - centre) <= size / 2 + margin)]
    return min(holding)[1] if holding else None


def _count_instances(memory: Any, sim: Any, margin: float = MATCH_MARGIN) -> dict[str, float]:
    """Each remembered instance of a fixed object's type matched to the fixed object of its
    type whose box (odometry frame, grown by ``margin``) holds its middle, the nearest if
    several: ``instances_per_object`` (matched instances / fixed objects matched),
    ``duplicated_objects`` (share of those matched by two or more) and ``stray_instances``
    (share of the instances matched to none); ``stray_movable``: the share of remembered
    instances of the other types (what can be picked up or moved, and fixed types the scene
    has none of) on no object of their type where it lies now (a spatula or a pan's handle
    taken for a knife), and the same among those seen in one frame at most
    (``stray_movable_glimpsed``) and those seen again (``stray_movable_seen_again``)."""
    fixed = _boxes_by_type(sim.world.scene.fixed_objects.values(), sim)
    movable = _boxes_by_type([o for o in sim.world.objects.values() if not o.fixed], sim)
    matches: dict[str, int] = {}
    stray = counted = 0
    movable_strays: dict[bool, list[bool]] = {True: [], False: []}  # seen in one frame at most -> stray or not
    for instance in memory.instances.values():
        if instance.states.get("inferred"):
            continue
        if instance.object_type not in fixed:
            movable_strays[instance.times_seen <= 1].append(
                instance.object_type not in movable or _holder(instance, movable, margin) is None)
            continue
        counted += 1
        object_id = _holder(instance, fixed, margin)
        if object_id is None:
            stray += 1
            continue
        matches[object_id] = matches.get(object_id, 0) + 1
    found = len(matches)
    return {"instances_per_object": sum(matches.values()) / found if found else 1.0,
            "duplicated_objects": sum(n > 1 for n in matches.values()) / found if found else 0.0,
            "stray_instances": stray / counted if counted else 0.0,
            "stray_movable": _share(movable_strays[True] + movable_strays[False]),
            "stray_movable_glimpsed": _share(movable_strays[True]), "stray_movable_seen_again": _share(movable_strays[False])}


def _share(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def _true_navigable(sim: Any) -> set[tuple[int, int]]:
    """The simulator's navigable cells as odometry lattice points."""
    cells = np.array([(i * GRID, 0.0, j * GRID) for i, j in sim.world.scene.navigable])
    odo = world_to_odometry(cells, sim.odometry_origin(FOLLOWER))
    return {(int(round(x / STEP)), int(round(z / STEP))) for x, _, z in odo}


def _score(grid: Any, truth: set[tuple[int, int]], clearance: float) -> dict[str, float]:
    lattice = _Lattice(grid, clearance, (0, 0), set())
    ii, jj = np.meshgrid(np.arange(lattice.shape[0]) + lattice.i0, np.arange(lattice.shape[1]) + lattice.j0,
                         indexing="ij")
    rows, cols = np.floor((jj * STEP - grid.origin[1]) / grid.resolution).astype(int), \
        np.floor((ii * STEP - grid.origin[0]) / grid.resolution).astype(int)
    explored = grid.explored[np.clip(rows, 0, grid.shape[0] - 1), np.clip(cols, 0, grid.shape[1] - 1)]
    navigable = np.vectorize(lambda i, j: (i, j) in truth)(ii, jj)
    near_truth = explored & (navigable | _dilate(navigable))  # the room around the navigable area
    predicted_blocked = ~lattice.free & near_truth
    true_blocked = ~navigable & near_truth
    union = (predicted_blocked | true_blocked).sum()
    return {
        "obstacle_iou": float((predicted_blocked & true_blocked).sum() / union) if union else 1.0,
        "free_precision": float((lattice.free & navigable & explored).sum() / max((lattice.free & explored).sum(), 1)),
        "explored_navigable": float((explored & navigable).sum() / max(navigable.sum(), 1)),
    }


def _dilate(mask: np.ndarray) -> np.ndarray:
    out = mask.copy()
    out[1:] |= mask[:-1]
    out[:-1] |= mask[1:]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out
