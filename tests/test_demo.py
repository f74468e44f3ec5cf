"""`nesy demo`: the config's Commander and Follower on a small unseen slice, with a report."""

from __future__ import annotations

import json

import yaml

from agent.cli import main
from agent.evaluation.summary import SUMMARY_KEYS
from simulator.navigation import path_to
from simulator.scenes import load_scene


def test_demo_runs_the_pairing_and_writes_results_and_a_report(tmp_path, capsys):
    assert main(["demo", "oracle", "--out", str(tmp_path), "--per-task", "1"]) == 0
    out = capsys.readouterr().out
    assert "| task type |" in out and "oracles in use" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert tuple(summary) == SUMMARY_KEYS
    assert summary["episodes"] == 12 and len(summary["per_task"]) == 12
    assert summary["oracles"]  # the rule-based Commander at least
    for name in ("report.md", "report_per_task.png", "report_steps.png", "replay.gif", "config.yaml"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert yaml.safe_load((tmp_path / "config.yaml").read_text())["seed"] == 0
    # the demo starts its folder over: a second run does not resume the first
    assert main(["demo", "oracle", "--out", str(tmp_path), "--per-task", "1"]) == 0
    assert len((tmp_path / "episodes.jsonl").read_text().splitlines()) == 12


def test_a_config_without_agents_gets_the_baseline_pairing(tmp_path, capsys):
    bare = tmp_path / "bare.yaml"
    bare.write_text("seed: 0\n")
    out = tmp_path / "run"
    assert main(["demo", str(bare), "--out", str(out), "--per-task", "1", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "teach-baseline.yaml's pairing" in printed
    assert "follower.name=action-executor" in printed and "commander.name=teach-lowlevel" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert summary["success_rate"] >= 0.9
    config = yaml.safe_load((out / "config.yaml").read_text())
    assert config["follower"]["name"] == "action-executor" and config["commander"]["name"] == "teach-lowlevel"


def test_shortest_path_reaches_the_goal_pose():
    scene = load_scene("FloorPlan1")
    start, goal = (-1.25, -1.25, 270, 30.0), (0.75, -1.75, 180, 45.0)
    actions = path_to(scene, start, goal)
    assert actions is not None and actions[-1] == "LookDown"
    assert path_to(scene, start, start) == []


def test_the_default_demo_replays_the_followers_own_map_beside_its_view():
    from agent.demo import follower_map
    from agent.settings import load_config

    assert follower_map(load_config("default").config) == ("maskrcnn", "semantic")
    assert follower_map(load_config("oracle").config) is None  # the oracle map: nothing of its own to draw
    assert follower_map(load_config("default", ["simulator.render=none"]).config) is None


def test_the_demo_replay_of_a_long_episode_shows_every_few_actions():
    from agent.demo import REPLAY_ACTION_FRAMES, replay_stride

    assert replay_stride(40) == 1 and replay_stride(REPLAY_ACTION_FRAMES) == 1
    assert replay_stride(1000) == 4 and 1000 / replay_stride(1000) <= REPLAY_ACTION_FRAMES
