"""The TATC episode generator: seeded, task-balanced, and validated by the oracle expert.

For each of TEACh's 12 benchmark task types (cycling through its parameter variants) it
draws a floor plan of the split that has what the task needs, a seeded random start state
(``simulator.spawn``: dirty dishes, empty cups, lights on or off), rejects start states in
which the task is already done, and keeps the episode only if the oracle expert
(``simulator.expert.solver``) completes it with no failed action, seeing only what the
renderer would draw (``VALIDATION``: the symbolic occlusion, the renderer's twin). TEACh's
sessions are the ones people completed; a start state with a pen on a shelf above the
eye, where no pose sees it, is not one. The expert's action count is stored for
path-length weighting. Same split, count and seed: same episodes.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable

from simulator.episodes.model import Episode
from simulator.episodes.splits import split_floor_plans
from simulator.expert.solver import TaskExpert
from simulator.object_types import all_types
from simulator.scenes import load_scene
from simulator.sim import Simulator, SimulatorSettings
from simulator.spawn import random_start
from simulator.tasks import (
    TEACH_TASK_TYPES,
    TEACH_TASK_VARIANTS,
    class_members,
    instantiate,
    load_task_library,
    progress_check,
)

ATTEMPTS_PER_EPISODE = 30
VALIDATION = SimulatorSettings(occlusion=True)  # what the expert may see when it validates


def _seed(*parts: object) -> int:
    return zlib.crc32(":".join(map(str, parts)).encode())


def fitting_floor_plans(variant, floor_plans: list[str]) -> list[str]:
    """Floor plans of the variant's room types that contain what each parameter names."""
    known = set(all_types())
    out = []
    for name in floor_plans:
        scene = load_scene(name)
        if scene.room_type not in variant.room_types:
            continue
        types = set(scene.object_types)
        if variant.task_type == "Water Plant" and "HousePlant" not in types:
            continue
        needed = [p for p in variant.params if p[:1].isupper() and p not in ("Sink",)]
        if all(_present(p, types, known) for p in needed):
            out.append(name)
    return out


def _present(name: str, types: set[str], known: set[str]) -> bool:
    if name in known:
        return name in types
    members = class_members(name)
    return not members or any(m in types for m in members)


def generate(
    split: str, per_task_type: int, seed: int = 0, progress: Callable[[], None] | None = None,
    task_types: list[str] | None = None,
) -> list[Episode]:
    """``per_task_type`` validated episodes for each TEACh task type, on the split's plans."""
    library = load_task_library()
    plans = split_floor_plans(split)
    sim = Simulator(VALIDATION)
    episodes: list[Episode] = []
    for task_type in task_types or list(TEACH_TASK_TYPES):
        variants = TEACH_TASK_VARIANTS[task_type]
        kept = attempts = 0
        order = random.Random(_seed(split, task_type, seed)).sample(range(len(variants)), len(variants))
        while kept < per_task_type and attempts < per_task_type * ATTEMPTS_PER_EPISODE:
            variant = variants[order[attempts % len(order)]]
            task_name, params = variant.task_name, variant.params
            episode_seed = _seed(split, task_type, seed, attempts)
            attempts += 1
            candidates = fitting_floor_plans(variant, plans)
            if not candidates:
                continue
            rng = random.Random(episode_seed)
            start = random_start(rng.choice(candidates), episode_seed)
            task = instantiate(library, task_name, params)
            sim.reset(start)
            if progress_check(sim.world, task)["success"]:
                continue  # already done at the start: not an episode
            result = TaskExpert(sim, task).solve()
            if not result.success or result.failed_actions:
                continue
            episodes.append(
                Episode(
                    episode_id=f"tatc-{split}-{len(episodes):04d}",
                    suite="tatc", split=split, task_type=task_type, start=start,
                    expert_actions=result.actions, task_name=task_name,
                    task_params=tuple(params), seed=episode_seed,
                )
            )
            kept += 1
            if progress is not None:
                progress()
    return episodes


def verify(episodes: list[Episode]) -> dict:
    """Replay the oracle expert on episodes: the fraction it completes, and failures."""
    library = load_task_library()
    sim = Simulator(VALIDATION)
    solved, failures = 0, {}
    for episode in episodes:
        sim.reset(episode.start)
        task = instantiate(library, episode.task_name, episode.task_params)
        result = TaskExpert(sim, task).solve()
        if result.success:
            solved += 1
        else:
            failures[episode.episode_id] = result.reason
    return {"episodes": len(episodes), "expert_success_rate": solved / len(episodes) if episodes else 0.0,
            "failures": failures}
