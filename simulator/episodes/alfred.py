"""ALFRED episodes: one evaluation instance per (trajectory, human annotation).

Each carries the recorded start state and pose, the goal (task type + PDDL params), the
expert's low-level action count (for path-length weighting) and the annotation's goal
sentence and step instructions. The split is by floor plan (ALFRED's unseen plans are
held out of train); the official validation/test trajectories are not in our data, so
``dev`` (15% of the trials of train, by a stable hash; the same split the parser uses) is
our development split.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator

from simulator.alfred.trajectories import Trajectory
from simulator.episodes.model import Episode
from simulator.episodes.splits import TEST_UNSEEN, VALID_UNSEEN

DEV_FRACTION = 0.15  # of the trials of ALFRED train form our dev split
SPLIT_SEED = 0


def trial_split(trial: str, seed: int = SPLIT_SEED, dev_fraction: float = DEV_FRACTION) -> str:
    """"train" or "dev" for a trial id: a stable hash of (seed, trial), so splits never drift.

    The project's one dev split of ALFRED train: the parser is trained and evaluated with it
    (``dialogue.alfred_data``) and the ALFRED episode suite uses it.
    """
    digest = hashlib.sha256(f"{seed}:{trial}".encode()).digest()
    return "dev" if int.from_bytes(digest[:8], "big") / 2**64 < dev_fraction else "train"


def alfred_split(floor_plan: str, task_id: str) -> str:
    """valid_unseen/test_unseen by floor plan; otherwise our own dev split of train by trial."""
    if floor_plan in VALID_UNSEEN:
        return "valid_unseen"
    if floor_plan in TEST_UNSEEN:
        return "test_unseen"
    return trial_split(task_id)


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
