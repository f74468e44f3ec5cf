"""Episode JSON round trip and errors, floor-plan splits, ALFRED episodes per annotation."""

from __future__ import annotations

import json

import pytest

from simulator.alfred.trajectories import Trajectory
from simulator.episodes.alfred import alfred_episodes, alfred_split
from simulator.episodes.model import (
    Episode,
    EpisodeFileError,
    episode_from_dict,
    episode_to_dict,
    load_episodes,
    save_episodes,
)
from simulator.episodes.splits import SplitError, split_floor_plans
from simulator.spawn import random_start


def _episode(seed: int = 1) -> Episode:
    return Episode(
        episode_id=f"e{seed}", suite="tatc", split="train", task_type="Make Coffee",
        start=random_start("FloorPlan1", seed), expert_actions=42, task_name="Coffee",
        task_params=(), seed=seed,
    )


def test_round_trip(tmp_path):
    episodes = [_episode(1), _episode(2)]
    path = save_episodes(episodes, tmp_path / "set.json", {"split": "train"})
    loaded, meta = load_episodes(path)
    assert loaded == episodes and meta["split"] == "train"


def test_bad_files_are_clear_errors(tmp_path):
    with pytest.raises(EpisodeFileError, match="no such episode file"):
        load_episodes(tmp_path / "missing.json")
    (tmp_path / "corrupt.json").write_text('{"episodes": [')
    with pytest.raises(EpisodeFileError, match="corrupt"):
        load_episodes(tmp_path / "corrupt.json")
    (tmp_path / "old.json").write_text(json.dumps({"format_version": 0, "episodes": []}))
    with pytest.raises(EpisodeFileError, match="version"):
        load_episodes(tmp_path / "old.json")


def test_splits_are_disjoint_by_floor_plan():
    train = set(split_floor_plans("train"))
    unseen = set(split_floor_plans("valid_unseen"))
    assert unseen == {"FloorPlan10", "FloorPlan219", "FloorPlan308", "FloorPlan424"}
    assert not train & unseen and len(train) == 103
    with pytest.raises(SplitError, match="cannot be built"):
        split_floor_plans("test_unseen")
    with pytest.raises(SplitError, match="unknown split"):
        split_floor_plans("tset")


def test_alfred_episode_per_annotation():
    trajectory = Trajectory(
        task_id="trial_X", task_type="pick_and_place_simple", floor_plan="FloorPlan1",
        pddl_params={"object_target": "Mug", "parent_target": "Fridge"},
        init_action={"x": -1.25, "z": -1.25, "rotation": 270, "horizon": 30},
        object_poses=({"objectName": "Mug_1", "position": {"x": -1.8, "y": 1.0, "z": -1.3}},),
        object_toggles=(), dirty_and_empty=False,
        expert_low_actions=({"action": "MoveAhead"},) * 7,
        annotations=({"task_desc": "Put a mug in the fridge.", "high_descs": ["Go.", "Take."]},
                     {"task_desc": "Chill the mug.", "high_descs": ["a", "b"]}),
    )
    episodes = list(alfred_episodes([trajectory]))
    assert [e.goal_text for e in episodes] == ["Put a mug in the fridge.", "Chill the mug."]
    assert all(e.expert_actions == 7 and e.start.scene == "FloorPlan1" for e in episodes)
    assert alfred_split("FloorPlan10") == "valid_unseen"
    assert alfred_split("FloorPlan1") == "train" and alfred_split("FloorPlan5") == "dev"


def test_an_alfred_start_survives_the_trip_to_a_worker_process():
    """Rotation, asset and pivot shape the world: a worker given the JSON of an ALFRED
    episode rebuilds the same world as the process that loaded it."""
    trajectory = Trajectory(
        task_id="trial_X", task_type="pick_and_place_simple", floor_plan="FloorPlan1",
        pddl_params={"object_target": "Mug", "parent_target": "Fridge"},
        init_action={"x": -1.25, "z": -1.25, "rotation": 270, "horizon": 30},
        object_poses=({"objectName": "Mug_2a940808", "position": {"x": -1.8, "y": 1.0, "z": -1.3},
                       "rotation": {"x": 0.0, "y": 90.0, "z": 0.0}},),
        object_toggles=(), dirty_and_empty=False, expert_low_actions=({"action": "MoveAhead"},),
        annotations=({"task_desc": "Put a mug in the fridge.", "high_descs": ["Go."]},),
    )
    episode = next(iter(alfred_episodes([trajectory])))
    mug = episode.start.objects[0]
    assert mug.asset == "Mug_2a940808" and mug.at_pivot and mug.rotation == (0.0, 90.0, 0.0)
    assert episode_from_dict(json.loads(json.dumps(episode_to_dict(episode)))) == episode
    with pytest.raises(ValueError, match=r"start.objects\[0\].rotation"):
        data = episode_to_dict(episode)
        data["start"]["objects"][0]["rotation"] = [0.0, "ninety"]
        episode_from_dict(data)
