"""TATC episodes: the generator is seeded and validated; the shipped sets are balanced and solvable."""

from __future__ import annotations

import json

import pytest

from agent.cli import main
from simulator.episodes.model import episode_to_dict, load_episodes, shipped_path
from simulator.episodes.splits import VALID_UNSEEN
from simulator.episodes.tatc import generate, verify
from simulator.tasks import TEACH_TASK_TYPES

SHIPPED_SPLITS = ("train", "valid_seen", "valid_unseen")


def test_generator_is_deterministic_for_a_seed():
    types = ["Make Coffee", "Put All X In One Y", "Prepare Salad"]
    first = generate("valid_unseen", 1, seed=7, task_types=types)
    second = generate("valid_unseen", 1, seed=7, task_types=types)
    assert [episode_to_dict(e) for e in first] == [episode_to_dict(e) for e in second]
    other = generate("valid_unseen", 1, seed=8, task_types=types)
    assert [e.seed for e in other] != [e.seed for e in first]
    assert all(e.floor_plan in VALID_UNSEEN for e in first)


@pytest.mark.parametrize("split", SHIPPED_SPLITS)
def test_shipped_sets_are_balanced_over_the_12_task_types(split, capsys):
    assert main(["episodes", "list", "--split", split, "--json"]) == 0
    listing = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert listing["split"] == split and listing["episodes"] >= 200
    assert set(listing["per_task"]) == set(TEACH_TASK_TYPES)
    assert len(set(listing["per_task"].values())) == 1


def test_shipped_splits_use_their_floor_plans():
    train = {e.floor_plan for e in load_episodes(shipped_path("train"))[0]}
    unseen = {e.floor_plan for e in load_episodes(shipped_path("valid_unseen"))[0]}
    assert unseen <= set(VALID_UNSEEN) and not train & set(VALID_UNSEEN)


def test_oracle_expert_solves_a_sample_of_shipped_episodes():
    episodes, _ = load_episodes(shipped_path("valid_unseen"))
    report = verify(episodes[::12])
    assert report["expert_success_rate"] == 1.0, report["failures"]


@pytest.mark.bench
@pytest.mark.parametrize("split", SHIPPED_SPLITS)
def test_oracle_expert_solves_every_shipped_episode(split):
    episodes, _ = load_episodes(shipped_path(split))
    report = verify(episodes)
    assert report["expert_success_rate"] == 1.0, report["failures"]
