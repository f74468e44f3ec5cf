"""ALFRED episodes: one evaluation instance per (trajectory, human annotation).

Each carries the recorded start state and pose, the goal (task type + PDDL params), the
expert's low-level action count (for path-length weighting) and the annotation's goal
sentence and step instructions. The split is by floor plan (ALFRED's unseen plans are
held out of train); the official validation/test trajectories are not in our data, so
``dev`` (one trial in ten of train, by a stable hash) is our development split.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

from simulator.alfred.trajectories import Trajectory
from simulator.episodes.model import Episode
from simulator.episodes.splits import TEST_UNSEEN, VALID_UNSEEN

DEV_FRACTION = 10  # one trial in ten (by a stable hash of its id) forms our dev split


def alfred_split(floor_plan: str, task_id: str) -> str:
    """valid_unseen/test_unseen by floor plan; otherwise our own dev split of train by trial."""
    if floor_plan in VALID_UNSEEN:
        return "valid_unseen"
    if floor_plan in TEST_UNSEEN:
        return "test_unseen"
    return "dev" if zlib.crc32(task_id.encode()) % DEV_FRACTION == 0 else "train"


def alfred_episodes(trajectories: Iterable[Trajectory]) -> Iterator[Episode]:
    for trajectory in trajectories:
        start = trajectory.start_state()
        annotations = trajectory.annotations or ({"task_desc": "", "high_descs": []},)
        for index, annotation in enumerate(annotations):
            yield Episode(
                episode_id=f"{trajectory.task_id}:{index}",
                suite="alfred",
                split=alfred_split(trajectory.floor_plan, trajectory.task_id),
                task_type=trajectory.task_type,
                start=start,
                expert_actions=len(trajectory.expert_low_actions),
                pddl_params=dict(trajectory.pddl_params),
                goal_text=annotation.get("task_desc", ""),
                step_texts=tuple(annotation.get("high_descs", ())),
            )
