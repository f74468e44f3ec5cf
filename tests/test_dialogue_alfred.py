"""ALFRED data reading, the by-trial split, the parse-eval benchmark, the trained parser and the CLI."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from agent.cli import main
from contracts.errors import NesyError
from contracts.language import ALFRED_FIELDS
from dialogue.alfred_data import DataFormatError, load_annotations, trial_split
from dialogue.evaluate import evaluate
from dialogue.rules import RulesParser
from dialogue.trained import TrainedParser

RECORD = {
    "trial": "trial_T0001", "task_type": "pick_clean_then_place_in_recep",
    "pddl_params": {"object_target": "Mug", "parent_target": "CoffeeMachine", "toggle_target": "",
                    "mrecep_target": "", "object_sliced": False},
    "high_pddl": [{"action": "GotoLocation", "args": ["countertop"]}, {"action": "PickupObject", "args": ["mug"]},
                  {"action": "NoOp", "args": []}],
    "annotations": [{"task_desc": "Put a clean mug in the coffee machine.",
                     "high_descs": ["Go to the counter.", "Pick up the mug."]},
                    {"task_desc": "Rinse a mug and put it in the coffee maker.", "high_descs": []}],
}


@pytest.fixture()
def jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        fh.write(json.dumps(RECORD) + "\n")
    return path


def test_reads_our_jsonl_and_alfred_traj_data(jsonl: Path, tmp_path: Path) -> None:
    anns = load_annotations(jsonl)
    assert len(anns) == 2 and anns[0].gold["object_target"] == "Mug" and anns[0].steps
    traj = dict(RECORD)
    traj.pop("annotations")
    traj["turk_annotations"] = {"anns": RECORD["annotations"]}
    path = tmp_path / "traj_data.json"
    path.write_text(json.dumps(traj))
    assert load_annotations(path) == anns


@pytest.mark.parametrize("content", ["", "{not json", "[1, 2]", json.dumps({"task_type": "x"}),
                                     json.dumps({**RECORD, "annotations": "nope"})])
def test_malformed_files_give_one_clear_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(DataFormatError, match="bad.json"):
        load_annotations(path)
    with pytest.raises(NesyError, match="does not exist"):
        load_annotations(tmp_path / "missing.jsonl")


def test_split_is_by_trial_and_deterministic() -> None:
    splits = [trial_split(f"trial_{i}") for i in range(2000)]
    assert splits == [trial_split(f"trial_{i}") for i in range(2000)]
    assert 0.1 < splits.count("dev") / len(splits) < 0.2
    assert splits != [trial_split(f"trial_{i}", seed=1) for i in range(2000)]


def test_evaluate_reports_every_field(jsonl: Path) -> None:
    result = evaluate(RulesParser(), load_annotations(jsonl))
    assert result["annotations"] == 2
    for key in (*ALFRED_FIELDS, "all_fields"):
        assert 0.0 <= result[key] <= 1.0
    assert result["task_type"] == 1.0 and result["utterances_per_second"] > 0


def test_trained_parser_parses_goals_and_steps() -> None:
    parser = TrainedParser()
    spec = parser.parse_goal("Put a clean mug in the coffee machine.", ["Pick up the mug.", "Rinse the mug in the sink.",
                                                                      "Put the mug in the coffee machine."])
    assert (spec.task_type, spec.object_target, spec.parent_target) == ("pick_clean_then_place_in_recep", "Mug", "CoffeeMachine")
    assert parser.parse_step("Pick up the apple from the table.")[0].action == "PickupObject"
    assert parser.parse_goal("florp wuzzle").task_type  # never an exception
    with pytest.raises(NesyError, match="not found"):
        TrainedParser(TrainedParser.Params(model="/nonexistent/model.pt"))


def test_cli_parse_and_parse_eval(jsonl: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "Rinse the dirty mug in the sink.", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["intents"][0]["subgoals"][0]["action"] == "CleanObject"
    assert main(["parse", "Hello! Where is the knife?"]) == 0
    assert "where" in capsys.readouterr().out
    for parser in ("rules", "trained"):
        assert main(["parse-eval", str(jsonl), "--json", "--parser", parser]) == 0
        result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert set(ALFRED_FIELDS) | {"annotations", "all_fields"} <= set(result)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")
    assert main(["parse-eval", str(bad), "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.jsonl" in err[0]
