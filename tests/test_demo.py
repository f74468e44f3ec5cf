"""`nesy demo` runs end to end, saves its effective config and results, and is seeded."""

from __future__ import annotations

import json

import yaml

from agent.cli import main
from agent.demo import rearrange
from simulator.navigation import path_to
from simulator.scenes import load_scene


def test_demo_runs_and_writes_results(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path)]) == 0
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(r["oracles"] for r in rows)
    assert sum(r["moves_done"] for r in rows) >= 8
    assert yaml.safe_load((tmp_path / "config.yaml").read_text())["seed"] == 0
    assert "floor plan" in capsys.readouterr().out


def test_demo_is_deterministic():
    assert rearrange("FloorPlan201", 5) .moves_done == rearrange("FloorPlan201", 5).moves_done
    assert rearrange("FloorPlan201", 5).steps == rearrange("FloorPlan201", 5).steps


def test_shortest_path_reaches_the_goal_pose():
    scene = load_scene("FloorPlan1")
    start, goal = (-1.25, -1.25, 270, 30.0), (0.75, -1.75, 180, 45.0)
    actions = path_to(scene, start, goal)
    assert actions is not None and actions[-1] == "LookDown"
    assert path_to(scene, start, start) == []
