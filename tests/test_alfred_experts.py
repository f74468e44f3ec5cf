"""ALFRED fidelity: recorded expert trajectories succeed in the simulator; file errors are clear."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest

from agent.cli import main
from simulator.alfred.experts import check_experts
from simulator.alfred.trajectories import TrajectoryFileError, load_trajectories

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "alfred_train.jsonl.gz"
needs_data = pytest.mark.skipif(not DATA.is_file(), reason=f"ALFRED train data not found at {DATA}")


@needs_data
def test_expert_trajectories_succeed_in_the_simulator():
    # every 20th trajectory: all 7 task types, many floor plans, a few seconds
    sample = list(itertools.islice(load_trajectories(DATA), 0, None, 20))
    summary = check_experts(sample).summary()
    assert summary["trajectories"] > 300
    assert len(summary["per_task_type"]) == 7
    assert summary["success_rate"] >= 0.95, summary["first_failures"]
    assert summary["navigation_action_success_rate"] >= 0.999


@needs_data
def test_check_experts_cli_prints_json_last(capsys):
    assert main(["alfred", "check-experts", str(DATA), "--limit", "20", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for key in ("trajectories", "success_rate", "action_success_rate", "navigation_action_success_rate", "first_failures"):
        assert key in summary


def test_corrupt_and_wrong_files_give_one_clear_error(tmp_path, capsys):
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(gzip.compress(b'{"task_type": "pick_and_place_simple", '))
    with pytest.raises(TrajectoryFileError, match="corrupt"):
        list(load_trajectories(broken))
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(json.dumps({"task_type": "fly_to_moon"}) + "\n")
    with pytest.raises(TrajectoryFileError, match="missing"):
        list(load_trajectories(wrong))
    assert main(["alfred", "check-experts", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_bench_sim_reports_steps_per_second(capsys):
    assert main(["bench", "sim", "--steps", "400", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["steps_per_second"] > 0 and result["steps"] == 400


MASKS = DATA.parent / "alfred_train_masks.jsonl.gz"


@pytest.mark.skipif(not MASKS.is_file(), reason=f"ALFRED masks not found at {MASKS}")
def test_click_replay_clicks_the_recorded_points_through_the_instance_buffer(capsys):
    from simulator.alfred.experts import _alfred_rendered, replay
    from simulator.calibration.masks import MaskIndex

    assert main(["alfred", "check-experts", str(DATA), "--render", "egl", "--click", "recorded-point",
                 "--limit", "6", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["trajectories"] == 6 and summary["clicked_interactions"] >= 6
    assert summary["unclicked_interactions"] == 0
    trajectory = next(t for t in load_trajectories(DATA) if replay(t).success)
    points = {r.low_idx: r.point for r in MaskIndex(MASKS).get(trajectory.task_id)}
    sim = _alfred_rendered()
    corner = replay(trajectory, sim, {i: (0, 0) for i in points})  # the frame's corner: floor or wall
    assert corner.clicked == len(points) and not corner.success
    assert "at (x, y)" in corner.first_failure


def test_click_replay_needs_rendering_and_says_so(capsys):
    assert main(["alfred", "check-experts", str(DATA), "--click", "recorded-point"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--render egl" in err
