"""Hardening of the run folder (issue 11): two runs never share a folder (a lock names the
other process), a summary says whether its run is complete and does not outlive an
extension, and corrupt or misplaced run files are one clear line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent.cli import main
from agent.evaluation.harness import EvalError, EvalRequest, run_evaluation
from agent.evaluation.report import load_run
from agent.evaluation.results import read_rows

ROOT = Path(__file__).resolve().parents[1]
BASELINE = str(ROOT / "configs" / "teach-baseline.yaml")


def eval_args(out, *extra) -> list[str]:
    return ["eval", BASELINE, "--suite", "tatc", "--split", "valid_unseen", "--out", str(out), *extra]


def one_line_error(capsys, command: str) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"nesy {command}: error:"), err[0]
    return err[0]


def wait_for_lines(path: Path, process: subprocess.Popen, count: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if path.is_file() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"{path} did not reach {count} lines (exit code {process.poll()})")


def test_a_second_run_into_the_same_folder_is_refused_naming_the_first(tmp_path, capsys):
    out = tmp_path / "run"
    first = subprocess.Popen([sys.executable, "-m", "agent.cli", *eval_args(out)], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_lines(out / "episodes.jsonl", first, 1)
        # the same config (it would rerun every episode) and another one (it would mix them)
        for extra in ((), ("seed=1",)):
            assert main(eval_args(out, *extra)) == 2
            line = one_line_error(capsys, "eval")
            assert f"pid {first.pid}" in line and "in use" in line
        assert main(eval_args(out, "--fresh")) == 2  # --fresh does not pull the folder from under it
        assert f"pid {first.pid}" in one_line_error(capsys, "eval")
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    rows = read_rows(out / "episodes.jsonl", repair=False)
    assert len({r["episode_id"] for r in rows}) == len(rows) > 0
    # a killed holder leaves no stale lock: the next run resumes the folder
    assert main(eval_args(out, "--episodes", str(len(rows) + 1))) == 0


def test_an_extended_then_interrupted_run_is_reported_as_incomplete(tmp_path):
    out = tmp_path / "run"
    run = run_evaluation(EvalRequest(BASELINE, "tatc", "valid_unseen", out, episodes=2, progress=False))
    summary = json.loads((out / "summary.json").read_text())
    assert run.complete and summary["complete"] is True and summary["episodes_selected"] == 2

    def interrupt_after_one(row):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # extend to 6, interrupted after one more episode
        run_evaluation(EvalRequest(BASELINE, "tatc", "valid_unseen", out, episodes=6, progress=False,
                                   on_episode=interrupt_after_one))
    assert len(read_rows(out / "episodes.jsonl", repair=False)) == 3
    assert not (out / "summary.json").exists()  # the 2-episode summary no longer stands for the folder
    loaded = load_run(out)
    assert not loaded.complete
    assert loaded.summary["complete"] is False
    assert (loaded.summary["episodes"], loaded.summary["episodes_selected"]) == (3, 6)
    assert main(["report", str(out)]) == 0
    report = (out / "report.md").read_text()
    assert "unfinished" in report and "3 of 6" in report
    # a stale summary of an older nesy (no completeness marker) is not taken for the run's
    older = {k: v for k, v in summary.items() if k not in ("complete", "episodes_selected")}
    (out / "summary.json").write_text(json.dumps(older))
    assert not load_run(out).complete
    # resuming finishes the run and writes a complete summary again
    run_evaluation(EvalRequest(BASELINE, "tatc", "valid_unseen", out, episodes=6, progress=False))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True and summary["episodes"] == summary["episodes_selected"] == 6
    assert load_run(out).complete


def test_corrupt_run_files_are_one_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(eval_args(out, "--episodes", "1")) == 0
    capsys.readouterr()
    good_run = (out / "run.json").read_text()
    (out / "run.json").write_text("{bad")
    assert main(eval_args(out, "--episodes", "1")) == 2
    assert "run.json" in one_line_error(capsys, "eval")
    (out / "run.json").write_text("[1, 2]")
    assert main(eval_args(out, "--episodes", "1")) == 2
    assert "run.json" in one_line_error(capsys, "eval")
    (out / "run.json").write_text(good_run)
    for text in ("{bad", "[]", '{"episodes": 1}'):
        (out / "summary.json").write_text(text)
        assert main(["report", str(out)]) == 2
        assert "summary.json" in one_line_error(capsys, "report")
    (out / "summary.json").unlink()
    (out / "run.json").write_text("{bad")
    assert main(["report", str(out)]) == 2
    assert "run.json" in one_line_error(capsys, "report")


def test_out_must_be_a_folder(tmp_path, capsys):
    a_file = tmp_path / "results.txt"
    a_file.write_text("not a folder\n")
    assert main(eval_args(a_file, "--episodes", "1")) == 2
    assert "results.txt" in one_line_error(capsys, "eval")
    assert a_file.read_text() == "not a folder\n"
    with pytest.raises(EvalError, match="--out .*sub"):
        run_evaluation(EvalRequest(BASELINE, "tatc", "valid_unseen", a_file / "sub", episodes=1, progress=False))
