"""ALFRED episodes: one evaluation instance per (trajectory, human annotation).

Each carries the recorded start state and pose, the goal (task type + PDDL params), the
expert's low-level action count (for path-length weighting) and the annotation's goal
sentence and step instructions.

Splits, all by floor plan: ALFRED's unseen floor plans (``splits.VALID_UNSEEN``,
``splits.TEST_UNSEEN``) are valid_unseen/test_unseen; the official validation/test
trajectories are not in our data, so our ``dev`` split holds out whole floor plans of ALFRED
train, as ALFRED's valid_unseen does: ``DEV_FLOOR_PLANS``, 4 of the 27 train floor plans of
each room kind (kitchens 1-30, living rooms 201-230, bedrooms 301-330, bathrooms 401-430),
the first by a stable hash of ``(seed 0, floor plan name)``. That is 16 floor plans and 986
of the 6,574 train trajectories (15.0%). ``dev_split`` is the one split function: the parser
is trained and evaluated with it (``dialogue.alfred_data``), the ALFRED episode suite and
the search prior (``mapping.prior_build``, train only) use it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from functools import lru_cache

from simulator.alfred.trajectories import Trajectory
from simulator.episodes.model import Episode
from simulator.episodes.splits import TEST_UNSEEN, VALID_UNSEEN

DEV_FRACTION = 0.15  # of each room kind's train floor plans form our dev split
SPLIT_SEED = 0
ROOM_KINDS = {"kitchen": 0, "living_room": 200, "bedroom": 300, "bathroom": 400}  # FloorPlan{base + 1..30}


def _rank(seed: int, name: str) -> bytes:
    return hashlib.sha256(f"{seed}:{name}".encode()).digest()


@lru_cache(maxsize=16)
def dev_floor_plans(seed: int = SPLIT_SEED, dev_fraction: float = DEV_FRACTION,
                    exclude: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The held-out floor plans: per room kind, ``round(dev_fraction * n)`` of its n train floor
    plans (ALFRED's unseen ones and ``exclude`` left out), those first by a hash of (seed, name).
    Fixed by the names alone, so the split never drifts with the data."""
    unseen = set(VALID_UNSEEN) | set(TEST_UNSEEN) | set(exclude)
    chosen: list[str] = []
    for base in ROOM_KINDS.values():
        names = [f"FloorPlan{base + i}" for i in range(1, 31) if f"FloorPlan{base + i}" not in unseen]
        chosen += sorted(names, key=lambda name: _rank(seed, name))[: round(dev_fraction * len(names))]
    return tuple(sorted(chosen, key=lambda name: int(name.removeprefix("FloorPlan"))))


DEV_FLOOR_PLANS = dev_floor_plans()
# = FloorPlan5, 13, 16, 25, 204, 213, 214, 218, 306, 309, 319, 328, 403, 413, 415, 422


def dev_split(floor_plan: str, seed: int = SPLIT_SEED, dev_fraction: float = DEV_FRACTION) -> str:
    """"train" or "dev" for an ALFRED train trajectory, by its floor plan (``dev_floor_plans``).

    The project's one dev split of ALFRED train: no floor plan is in both parts.
    """
    return "dev" if floor_plan in dev_floor_plans(seed, dev_fraction) else "train"


def alfred_split(floor_plan: str) -> str:
    """valid_unseen/test_unseen (ALFRED's unseen floor plans), else our dev/train split of train."""
    if floor_plan in VALID_UNSEEN:
        return "valid_unseen"
    if floor_plan in TEST_UNSEEN:
        return "test_unseen"
    return dev_split(floor_plan)


def alfred_episodes(trajectories: Iterable[Trajectory]) -> Iterator[Episode]:
    for trajectory in trajectories:
        start = trajectory.start_state()
        annotations = trajectory.annotations or ({"task_desc": "", "high_descs": []},)
        for index, annotation in enumerate(annotations):
            yield Episode(
                episode_id=f"{trajectory.task_id}:{index}",
                suite="alfred",
                split=alfred_split(trajectory.floor_plan),
                task_type=trajectory.task_type,
                start=start,
                expert_actions=len(trajectory.expert_low_actions),
                pddl_params=dict(trajectory.pddl_params),
                goal_text=annotation.get("task_desc", ""),
                step_texts=tuple(annotation.get("high_descs", ())),
                annotation=index,
            )
