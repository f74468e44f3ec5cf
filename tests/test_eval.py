"""`nesy eval`: exact summary keys, deterministic selection, parallel == serial, resume after
a kill and after a corrupt trailing line, refusing a folder of another run, Ray on a local
instance, crashing agents recorded as failures, the ALFRED suite."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from agent.cli import main
from agent.evaluation.results import read_rows
from agent.evaluation.suites import balanced_order, load_suite, select
from agent.evaluation.summary import SUMMARY_KEYS
from contracts.errors import NesyError

ROOT = Path(__file__).resolve().parents[1]
BASELINE = str(ROOT / "configs" / "teach-baseline.yaml")
ALFRED_DATA = ROOT.parent / "shared" / "data" / "alfred_train.jsonl.gz"
VOLATILE = ("wall_seconds", "timing")


def eval_args(out, *extra) -> list[str]:
    return ["eval", BASELINE, "--suite", "tatc", "--split", "valid_unseen", "--out", str(out), *extra]


def stable(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in VOLATILE}


def rows_by_id(out) -> dict[str, dict]:
    rows = read_rows(Path(out) / "episodes.jsonl", repair=False)
    return {r["episode_id"]: stable(r) for r in rows}


def test_summary_has_exactly_the_documented_keys(tmp_path, capsys):
    assert main(eval_args(tmp_path, "--episodes", "3", "--json")) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert printed == summary
    assert tuple(summary) == SUMMARY_KEYS
    assert summary["episodes"] == 3 and summary["suite"] == "tatc" and summary["split"] == "valid_unseen"
    for key in ("success_rate", "goal_condition_success", "plw_success_rate", "plw_goal_condition_success"):
        assert 0.0 <= summary[key] <= 1.0
    assert summary["oracles"] == ["commander:teach-lowlevel"]
    assert sum(t["episodes"] for t in summary["per_task"].values()) == 3
    for task in summary["per_task"].values():
        assert set(task) == {"episodes", "success_rate", "goal_condition_success"}
    assert summary["wall_seconds"] > 0 and summary["episodes_per_hour"] > 0
    rows = read_rows(tmp_path / "episodes.jsonl", repair=False)
    assert summary["plan_length_ratio"] == pytest.approx(
        sum(r["steps"] for r in rows) / sum(r["expert_actions"] for r in rows), abs=1e-4)
    assert (tmp_path / "config.yaml").read_text().startswith("seed: 0")
    logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert len(logs) == 3
    log = json.loads((tmp_path / "logs" / logs[0]).read_text())
    assert log["interactions"] and log["episode"]["start"]["scene"]


def test_selection_is_task_balanced_and_deterministic():
    episodes = load_suite("tatc", "valid_unseen")
    first = select(episodes, 12)
    assert len({e.task_type for e in first}) == 12
    assert [e.episode_id for e in first] == [e.episode_id for e in balanced_order(episodes)][:12]
    assert [e.episode_id for e in select(episodes, 30)][:12] == [e.episode_id for e in first]
    two = select(episodes, None, ["water_plant", "Make Coffee"], per_task=2)
    assert sorted(e.task_type for e in two) == ["Make Coffee", "Make Coffee", "Water Plant", "Water Plant"]
    with pytest.raises(NesyError, match="unknown task type"):
        select(episodes, None, ["Fly To The Moon"])


def test_a_per_task_sample_covers_distinct_alfred_trials_before_second_annotations():
    template = load_suite("tatc", "valid_unseen")[0]
    annotations = [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1), ("c", 0)]
    episodes = [replace(template, episode_id=f"{trial}:{k}", suite="alfred", task_type="pick_two", annotation=k)
                for trial, k in annotations]
    assert [e.episode_id for e in select(episodes, None, per_task=3)] == ["a:0", "b:0", "c:0"]
    assert [e.episode_id for e in select(episodes, 5)] == ["a:0", "b:0", "c:0", "a:1", "b:1"]


def test_parallel_and_serial_runs_give_identical_episodes(tmp_path):
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    assert main(eval_args(serial, "--episodes", "6", "--workers", "1")) == 0
    assert main(eval_args(parallel, "--episodes", "6", "--workers", "2")) == 0
    assert rows_by_id(serial) == rows_by_id(parallel) and len(rows_by_id(serial)) == 6
    for log in (serial / "logs").iterdir():
        a, b = json.loads(log.read_text()), json.loads((parallel / "logs" / log.name).read_text())
        assert a["interactions"] == b["interactions"]
    a, b = (json.loads((d / "summary.json").read_text()) for d in (serial, parallel))
    for key in ("wall_seconds", "episodes_per_hour"):
        a.pop(key), b.pop(key)
    assert a == b


def test_a_killed_run_resumes_with_the_same_command(tmp_path):
    out = tmp_path / "run"
    args = eval_args(out, "--episodes", "24", "--workers", "1")
    process = subprocess.Popen([sys.executable, "-m", "agent.cli", *args], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    lines = out / "episodes.jsonl"
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if lines.is_file() and lines.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.01)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    done_before = len(read_rows(lines, repair=False))
    assert 3 <= done_before < 24, "the run was not interrupted midway"
    assert not (out / "summary.json").exists()
    assert main(args) == 0
    rows = read_rows(lines, repair=False)
    ids = [r["episode_id"] for r in rows]
    assert len(ids) == 24 and len(set(ids)) == 24
    assert len(list((out / "logs").glob("*.json"))) == 24
    summary = json.loads((out / "summary.json").read_text())
    assert summary["episodes"] == 24
    assert {r["timing"]["session"] for r in rows} == {1, 2}


def test_a_corrupt_trailing_line_is_detected_and_redone(tmp_path, capsys):
    assert main(eval_args(tmp_path, "--episodes", "4")) == 0
    lines = tmp_path / "episodes.jsonl"
    before = rows_by_id(tmp_path)
    text = lines.read_bytes()
    lines.write_bytes(text[: len(text) - 25])  # the last line cut mid-write
    assert len(read_rows(lines, repair=False)) == 3
    assert main(eval_args(tmp_path, "--episodes", "4")) == 0
    assert "incomplete" in capsys.readouterr().err
    assert rows_by_id(tmp_path) == before
    assert len(lines.read_text().splitlines()) == 4
    # a corrupt line in the middle is not dropped silently
    good = lines.read_text().splitlines()
    lines.write_text("\n".join([good[0], "{not json", *good[1:]]) + "\n")
    assert main(eval_args(tmp_path, "--episodes", "4")) == 2
    assert "line 2 is not a valid episode result" in capsys.readouterr().err


def test_a_folder_of_another_run_is_refused(tmp_path, capsys):
    assert main(eval_args(tmp_path, "--episodes", "2")) == 0
    assert main(eval_args(tmp_path, "--episodes", "2", "seed=1")) == 2
    assert "another effective config" in capsys.readouterr().err
    assert main(eval_args(tmp_path, "--episodes", "1")) == 2
    assert "outside this selection" in capsys.readouterr().err
    assert main(eval_args(tmp_path, "--episodes", "3")) == 0  # extending a run is resuming it
    assert main(eval_args(tmp_path, "--episodes", "2", "seed=1", "--fresh")) == 0
    assert len(rows_by_id(tmp_path)) == 2


def test_ray_on_a_local_instance_matches_the_serial_run(tmp_path):
    try:
        import ray  # noqa: F401
    except ImportError:
        pytest.skip("ray is not installed: pip install -e '.[ray]' (CI installs it, so this runs there)")
    serial, distributed = tmp_path / "serial", tmp_path / "ray"
    assert main(eval_args(serial, "--episodes", "4")) == 0
    assert main(eval_args(distributed, "--episodes", "4", "--workers", "2", "--ray", "local")) == 0
    assert rows_by_id(serial) == rows_by_id(distributed)
    assert json.loads((distributed / "summary.json").read_text())["episodes"] == 4


def test_an_agent_that_raises_is_a_failed_episode(tmp_path, capsys):
    from contracts.registry import follower

    @follower.register("test-crashing-follower")
    class CrashingFollower:
        def reset(self, briefing, context):
            pass

        def act(self, observation):
            raise RuntimeError("boom")

    assert main(eval_args(tmp_path, "--episodes", "2", "follower.name=test-crashing-follower")) == 0
    assert "raised an exception" in capsys.readouterr().out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["success_rate"] == 0.0
    assert summary["failure_causes"] == {"exception:RuntimeError": 2}
    log = json.loads(next((tmp_path / "logs").iterdir()).read_text())
    assert "boom" in log["traceback"]


def test_errors_are_clear(tmp_path, capsys):
    assert main(eval_args(tmp_path, "--task-types", "Fly")) == 2
    assert "unknown task type" in capsys.readouterr().err
    assert main(["eval", BASELINE, "--suite", "tatc", "--split", "nope", "--out", str(tmp_path)]) == 2
    assert "no TATC episode set for split 'nope'" in capsys.readouterr().err
    assert main(["eval", BASELINE, "--suite", "alfred", "--split", "dev", "--out", str(tmp_path)]) == 2
    assert "evaluation.alfred_data" in capsys.readouterr().err
    # a misspelt module fails before any worker starts, with one clear line
    assert main(eval_args(tmp_path, "--workers", "2", "follower.name=nope")) == 2
    assert "unknown follower module 'nope'" in capsys.readouterr().err


@pytest.mark.skipif(not ALFRED_DATA.is_file(), reason=f"ALFRED data not found at {ALFRED_DATA}")
def test_alfred_suite_runs_from_a_trajectories_file(tmp_path):
    small = tmp_path / "alfred.jsonl.gz"
    from simulator.episodes.alfred import alfred_split

    kept: dict[str, str] = {}  # one train trajectory of each of three task types
    with gzip.open(ALFRED_DATA, "rt") as source:
        for line in itertools.islice(source, 0, None, 250):
            record = json.loads(line)
            if alfred_split(record["floor_plan"]) == "train":
                kept.setdefault(record["task_type"], line)
    with gzip.open(small, "wt") as target:
        target.writelines(list(kept.values())[:3])
    out = tmp_path / "run"
    args = ["eval", BASELINE, "--suite", "alfred", "--split", "train", "--episodes", "3", "--out", str(out),
            f"evaluation.alfred_data={small}"]
    assert main(args) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["suite"] == "alfred" and summary["episodes"] == 3
    assert len(summary["per_task"]) == 3  # balanced: three ALFRED task types, one episode each
    assert summary["oracles"] == []  # no Commander in ALFRED episodes
