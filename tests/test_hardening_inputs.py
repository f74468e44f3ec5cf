"""Hardening against bad input files (issue 11): folders where files are expected,
trajectories with wrong-typed or non-finite fields, a closed stdin in `nesy play` and a
parser model file without models are each one clear line (exit 2), never "internal error"."""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path

import pytest

from agent.cli import main
from simulator.alfred.trajectories import TrajectoryFileError, load_trajectories

ROOT = Path(__file__).resolve().parents[1]
BASELINE = str(ROOT / "configs" / "teach-baseline.yaml")
ALFRED_DATA = ROOT.parent / "shared" / "data" / "alfred_train.jsonl.gz"


def one_line_error(capsys, command: str) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"nesy {command}: error:"), err[0]
    return err[0]


def test_a_folder_given_where_a_file_is_expected(tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    assert main(["episodes", "verify", "--split", "valid_unseen", "--file", str(folder)]) == 2
    assert "is a folder" in one_line_error(capsys, "episodes")
    assert main(["replay", str(folder)]) == 2
    assert "is a folder" in one_line_error(capsys, "replay")
    assert main(["eval", BASELINE, "--suite", "tatc", "--split", "valid_unseen", "--data", str(folder),
                 "--out", str(tmp_path / "run")]) == 2
    line = one_line_error(capsys, "eval")
    assert "is a folder" in line and "does not exist" not in line


def trajectory() -> dict:
    """A minimal ALFRED trajectory of our extract's shape."""
    return {
        "task_id": "trial_T0_probe", "task_type": "pick_and_place_simple", "floor_plan": "FloorPlan1",
        "pddl_params": {"object_target": "Mug", "parent_target": "CounterTop", "toggle_target": "",
                        "mrecep_target": "", "object_sliced": False},
        "init_action": {"action": "TeleportFull", "x": -1.0, "y": 0.9, "z": 1.0, "rotation": 90, "horizon": 30},
        "object_poses": [{"objectName": "Mug_2a940808", "position": {"x": -1.5, "y": 0.9, "z": 0.5},
                          "rotation": {"x": 0.0, "y": 90.0, "z": 0.0}}],
        "object_toggles": [{"objectType": "DeskLamp", "isOn": False}],
        "dirty_and_empty": False,
        "high_pddl": [{"action": "GotoLocation", "args": ["countertop"]}],
        "expert_low_actions": [{"action": "MoveAhead", "high_idx": 0}],
        "annotations": [{"task_desc": "Put a mug on the counter.", "high_descs": ["Go to the counter."]}],
    }


def broken(**changes) -> dict:
    record = trajectory()
    for dotted, value in changes.items():
        node = record
        *path, last = dotted.split("__")
        for part in path:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[last] = value
    return record


BAD_TRAJECTORIES = {
    "object_poses": broken(object_poses="Mug at the counter"),
    "object_poses[0].position": broken(object_poses__0__position=[1, 2, 3]),
    "object_poses[0].position.x": broken(object_poses__0__position__x="far"),
    "object_poses[0].position.y": broken(object_poses__0__position__y=math.nan),
    "object_poses[0].objectName": broken(object_poses__0__objectName=7),
    "object_poses[0].rotation.y": broken(object_poses__0__rotation__y=math.inf),
    "init_action": broken(init_action=[1, 2]),
    "init_action.rotation": broken(init_action__rotation="north"),
    "init_action.x": broken(init_action__x=math.nan),
    "pddl_params": broken(pddl_params=["Mug"]),
    "object_toggles[0].isOn": broken(object_toggles__0__isOn="yes"),
    "expert_low_actions": broken(expert_low_actions={"action": "MoveAhead"}),
    "annotations[0].high_descs": broken(annotations__0__high_descs="Go."),
    "floor_plan": broken(floor_plan=1),
    "dirty_and_empty": broken(dirty_and_empty="no"),
}


def test_the_minimal_trajectory_is_valid(tmp_path):
    path = tmp_path / "ok.jsonl"
    path.write_text(json.dumps(trajectory()) + "\n")
    (loaded,) = load_trajectories(path)
    (placement,) = loaded.start_state().objects
    assert placement.object_type == "Mug" and all(math.isfinite(v) for v in placement.position)


@pytest.mark.parametrize("field", sorted(BAD_TRAJECTORIES))
def test_wrong_typed_or_non_finite_trajectory_fields_name_the_field(field, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(trajectory()) + "\n" + json.dumps(BAD_TRAJECTORIES[field]) + "\n")
    with pytest.raises(TrajectoryFileError, match=rf"bad.jsonl:2: .*{re.escape(field)}\b"):
        list(load_trajectories(path))


def test_bad_trajectories_through_the_cli_are_one_line(tmp_path, capsys):
    path = tmp_path / "bad.jsonl.gz"
    with gzip.open(path, "wt") as handle:
        handle.write(json.dumps(BAD_TRAJECTORIES["object_poses[0].position.y"]) + "\n")
    assert main(["eval", BASELINE, "--suite", "alfred", "--split", "train", "--data", str(path),
                 "--out", str(tmp_path / "run")]) == 2
    line = one_line_error(capsys, "eval")
    assert "bad.jsonl.gz:1" in line and "position.y" in line and "finite" in line


def test_non_finite_positions_in_an_episode_file_are_refused(tmp_path, capsys):
    from simulator.episodes.model import load_episodes, save_episodes, shipped_path

    episodes, _ = load_episodes(shipped_path("valid_unseen"))
    path = save_episodes(episodes[:1], tmp_path / "one.json")
    payload = json.loads(path.read_text())
    payload["episodes"][0]["start"]["objects"][0]["position"][0] = math.nan
    path.write_text(json.dumps(payload))
    assert main(["episodes", "verify", "--split", "valid_unseen", "--file", str(path)]) == 2
    line = one_line_error(capsys, "episodes")
    assert "one.json" in line and "finite" in line


def test_a_closed_stdin_in_play_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", None)  # what Python sets when started with stdin closed (0<&-)
    assert main(["play", BASELINE, "--episode", "0", "--out", str(tmp_path), "--no-egocentric"]) == 2
    assert "stdin" in one_line_error(capsys, "play")


def test_a_parser_model_file_without_models_is_one_line(tmp_path, capsys):
    import torch

    from dialogue.model import FORMAT

    for name, blob in (("none", {"format": FORMAT, "meta": {}}),
                       ("empty", {"format": FORMAT, "meta": {}, "models": {}}),
                       ("list", {"format": FORMAT, "meta": {}, "models": []}),
                       ("hollow", {"format": FORMAT, "meta": {}, "models": {"goal0": {}, "step": {}}})):
        model = tmp_path / f"{name}.pt"
        torch.save(blob, model)
        out = tmp_path / f"run-{name}"
        assert main(["eval", "oracle", "--suite", "tatc", "--split", "valid_unseen", "--episodes", "1",
                     "--out", str(out), "modules.parser.name=trained", f"modules.parser.params.model={model}"]) == 2
        line = one_line_error(capsys, "eval")
        assert f"{name}.pt" in line and "parser model" in line
