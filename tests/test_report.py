"""`nesy report`: markdown tables of several runs side by side, and PNG plots."""

from __future__ import annotations

import json
import re
from pathlib import Path

from agent.cli import main
from agent.evaluation.report import sign_test

BASELINE = str(Path(__file__).resolve().parents[1] / "configs" / "teach-baseline.yaml")


def run(out: Path, *extra: str) -> None:
    assert main(["eval", BASELINE, "--suite", "tatc", "--split", "valid_unseen", "--out", str(out), *extra]) == 0


def test_report_puts_runs_side_by_side_with_plots(tmp_path, capsys):
    run(tmp_path / "a", "--episodes", "3")
    run(tmp_path / "b", "--episodes", "2", "evaluation.max_steps=3")  # runs out of steps: failures
    target = tmp_path / "out" / "cmp.md"
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(target)]) == 0
    assert str(target) in capsys.readouterr().out
    text = target.read_text()
    assert "| | a | b |" in text.replace("|  |", "| |")
    assert "## Per task type" in text and "Boil Potato" in text
    assert "max_steps 2" in text  # failure causes of run b
    assert "## Episodes every run solves" in text and "None." in text  # b solves none
    paired = text[text.index("## Paired episodes against a"):]
    assert re.search(r"\| b \| 2 \| 2 -> 0 \| 0 \| 2 \(\d{4}, \d{4}\) \| 0\.50 \|", paired)
    steps = text[text.index("## Where the steps go"):]  # from the episode logs
    assert "| episodes with a log | 3 | 2 |" in steps and "| episodes ended at the step limit | 0 | 2 |" in steps
    for plot in ("cmp_per_task.png", "cmp_steps.png"):
        data = (target.parent / plot).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 5000


def test_report_of_one_run_defaults_into_its_folder_and_marks_unfinished_runs(tmp_path):
    run(tmp_path, "--episodes", "2")
    (tmp_path / "summary.json").unlink()  # as if the run had been interrupted
    assert main(["report", str(tmp_path)]) == 0
    text = (tmp_path / "report.md").read_text()
    assert "(unfinished)" in text and (tmp_path / "report_steps.png").is_file()


def test_report_of_a_folder_that_is_not_a_run_is_a_clear_error(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "not an evaluation run" in capsys.readouterr().err


def test_report_compares_steps_on_the_episodes_every_run_solves(tmp_path):
    run(tmp_path / "a", "--episodes", "3")
    run(tmp_path / "b", "--episodes", "2")
    target = tmp_path / "cmp.md"
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(target)]) == 0
    text = target.read_text()
    section = text[text.index("## Episodes every run solves"):]
    assert "the 2 episodes every run solves" in section and "(baseline)" in section and "+0.0%" in section


def test_the_steps_a_modular_follower_spent_searching_are_counted_and_reported(tmp_path):
    semantic = str(Path(BASELINE).parent / "ablations" / "semantic-map.yaml")
    for name in ("a", "b"):
        assert main(["eval", semantic, "--suite", "tatc", "--split", "valid_unseen", "--episodes", "1",
                     "--out", str(tmp_path / name), "modules.dialogue_manager.name=never"]) == 0
    row = json.loads((tmp_path / "a" / "episodes.jsonl").read_text().splitlines()[0])
    assert row["success"] and 0 < row["metrics"]["search_steps"] < row["steps"]  # the plant had to be found
    target = tmp_path / "cmp.md"
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(target)]) == 0
    assert f"| of them searching | {row['metrics']['search_steps']:.1f} |" in target.read_text()
    run(tmp_path / "c", "--episodes", "1")  # an action executor counts nothing: no such row
    assert main(["report", str(tmp_path / "c"), str(tmp_path / "c"), "--out", str(target)]) == 0
    assert "of them searching" not in target.read_text()


def test_the_sign_test_is_exact_and_two_sided():
    assert sign_test(0, 0) == 1.0 and sign_test(3, 3) == 1.0
    assert sign_test(0, 2) == 0.5 and sign_test(5, 0) == 0.0625
    assert abs(sign_test(9, 1) - 22 / 1024) < 1e-12 and sign_test(1, 9) == sign_test(9, 1)
