"""ALFRED data reading, the by-floor-plan split, the parse-eval benchmark, the trained parser and the CLI."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest

from agent.cli import main
from contracts.errors import NesyError
from contracts.language import ALFRED_FIELDS, TaskSpec
from dialogue.alfred_data import DataFormatError, load_annotations, val_floor_plans
from dialogue.evaluate import evaluate
from dialogue.model import features, program_features
from dialogue.rules import RulesParser
from dialogue.trained import TrainedParser
from simulator.episodes.alfred import DEV_FLOOR_PLANS, ROOM_KINDS, dev_floor_plans, dev_split
from simulator.episodes.splits import TEST_UNSEEN, VALID_UNSEEN

RECORD = {
    "trial": "trial_T0001", "floor_plan": "FloorPlan1", "task_type": "pick_clean_then_place_in_recep",
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


def test_dev_split_holds_out_whole_floor_plans_and_is_stable() -> None:
    assert DEV_FLOOR_PLANS == ("FloorPlan5", "FloorPlan13", "FloorPlan16", "FloorPlan25", "FloorPlan204", "FloorPlan213",
                               "FloorPlan214", "FloorPlan218", "FloorPlan306", "FloorPlan309", "FloorPlan319",
                               "FloorPlan328", "FloorPlan403", "FloorPlan413", "FloorPlan415", "FloorPlan422")
    assert dev_floor_plans() == DEV_FLOOR_PLANS and dev_floor_plans(seed=1) != DEV_FLOOR_PLANS
    for base in ROOM_KINDS.values():  # stratified: 4 of the 27 train floor plans of each room kind
        assert sum(base < int(f.removeprefix("FloorPlan")) <= base + 30 for f in DEV_FLOOR_PLANS) == 4
    assert not set(DEV_FLOOR_PLANS) & (set(VALID_UNSEEN) | set(TEST_UNSEEN))
    val = val_floor_plans()  # the tuning split is carved from train floor plans only
    assert len(val) == 12 and not set(val) & set(DEV_FLOOR_PLANS)
    assert all(dev_split(f) == "train" for f in val)


def test_no_floor_plan_in_both_parts(tmp_path: Path) -> None:
    path = tmp_path / "plans.jsonl"
    plans = [f"FloorPlan{base + i}" for base in ROOM_KINDS.values() for i in range(1, 31)]
    path.write_text("".join(json.dumps({**RECORD, "trial": f"t{k}", "floor_plan": plan}) + "\n"
                            for k, plan in enumerate(plans * 2)))
    parts = {split: {a.floor_plan for a in load_annotations(path, split)} for split in ("train", "dev", "fit", "val")}
    assert parts["dev"] == set(DEV_FLOOR_PLANS) and not parts["train"] & parts["dev"]
    assert parts["fit"] | parts["val"] == parts["train"] and not parts["fit"] & parts["val"]
    assert len(load_annotations(path, "all")) == 4 * len(plans)
    missing = tmp_path / "noplan.jsonl"
    missing.write_text(json.dumps({k: v for k, v in RECORD.items() if k != "floor_plan"}) + "\n")
    assert len(load_annotations(missing)) == 2
    with pytest.raises(DataFormatError, match="floor_plan"):
        load_annotations(missing, "dev")


def test_evaluate_reports_every_field(jsonl: Path) -> None:
    result = evaluate(RulesParser(), load_annotations(jsonl))
    assert result["annotations"] == 2
    for key in (*ALFRED_FIELDS, "all_fields"):
        assert 0.0 <= result[key] <= 1.0
    assert result["task_type"] == 1.0 and result["utterances_per_second"] > 0


def test_evaluate_counts_misparses_whose_gold_type_the_words_never_name(jsonl: Path) -> None:
    class Fixed(RulesParser):  # always the same spec
        def __init__(self, spec: TaskSpec) -> None:
            super().__init__()
            self.spec = spec

        def parse_goals(self, items):  # type: ignore[no-untyped-def]
            return [self.spec for _ in items]

    anns = load_annotations(jsonl)  # a mug for a coffee machine, both named in both annotations
    right = TaskSpec("pick_clean_then_place_in_recep", "Mug", "CoffeeMachine")
    named = evaluate(Fixed(replace(right, parent_target="Fridge")), anns)
    assert (named["misparsed"], named["misparsed_gold_type_unnamed"]) == (2, 0)
    ladle = [replace(a, gold={**a.gold, "object_target": "Ladle"}) for a in anns]  # the words say "mug"
    unnamed = evaluate(Fixed(right), ladle)
    assert (unnamed["misparsed"], unnamed["misparsed_gold_type_unnamed"]) == (2, 2)
    assert evaluate(Fixed(right), anns)["misparsed"] == 0


def test_trained_parser_parses_goals_and_steps() -> None:
    parser = TrainedParser()
    spec = parser.parse_goal("Put a clean mug in the coffee machine.", ["Pick up the mug.", "Rinse the mug in the sink.",
                                                                      "Put the mug in the coffee machine."])
    assert (spec.task_type, spec.object_target, spec.parent_target) == ("pick_clean_then_place_in_recep", "Mug", "CoffeeMachine")
    assert parser.parse_step("Pick up the apple from the table.")[0].action == "PickupObject"
    assert parser.parse_goal("florp wuzzle").task_type  # never an exception
    with pytest.raises(NesyError, match="not found"):
        TrainedParser(TrainedParser.Params(model="/nonexistent/model.pt"))


def test_the_step_models_reading_of_the_steps_is_a_feature_of_the_task() -> None:
    two = [("GotoLocation", "sofa", ""), ("PickupObject", "remotecontrol", ""), ("GotoLocation", "armchair", ""),
           ("PutObject", "remotecontrol", "armchair"), ("PickupObject", "remotecontrol", ""),
           ("PutObject", "remotecontrol", "armchair")]
    feats = program_features(two)
    assert "a:seq=PickupObject_PutObject_PickupObject_PutObject" in feats
    assert {"a:npick=2", "a:nput=2", "a:pick1=remotecontrol", "a:putL=armchair", "a:gotoL=armchair"} <= set(feats)
    heat = program_features([("PickupObject", "mug", ""), ("HeatObject", "mug", ""), ("PutObject", "mug", "coffeemachine")])
    assert "a:HeatObject=mug" in heat and "a:PickupObject>HeatObject" in heat and "a:npick=1" in heat
    assert features("Put a mug away.")["a"] == [] and features("x", ["y"], [("PickupObject", "mug", "")])["a"]


def test_a_tiny_parser_trains_on_step_readings_from_other_floor_plans(tmp_path: Path) -> None:
    from dialogue.training import TrainConfig, crossfit_programs, train

    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps({**RECORD, "floor_plan": plan}) + "\n" for plan in ("FloorPlan1", "FloorPlan2")))
    anns = load_annotations(path)
    cfg = TrainConfig(data=path, out=tmp_path / "tiny.pt", split="all", epochs=2, ensemble=1, min_count=1, folds=2)
    readings = crossfit_programs(anns, cfg, log=lambda _: None)
    assert [len(r) for r in readings] == [len(a.steps) for a in anns] == [2, 0, 2, 0]
    assert all(action for r in readings for action, _, _ in r)
    train(cfg, log=lambda _: None)
    spec = TrainedParser(TrainedParser.Params(model=str(cfg.out))).parse_goal("Put a clean mug in the coffee machine.",
                                                                             ["Go to the counter.", "Pick up the mug."])
    assert spec.task_type == "pick_clean_then_place_in_recep"


def test_an_old_or_foreign_parser_model_file_gives_one_clear_message(tmp_path: Path) -> None:
    import torch

    old, other = tmp_path / "old.pt", tmp_path / "other.pt"
    torch.save({"format": "nesy-parser-v2", "models": {}, "meta": {}}, old)
    torch.save({"weights": [1, 2]}, other)
    with pytest.raises(NesyError, match="format 'nesy-parser-v2'.*nesy parser train"):
        TrainedParser(TrainedParser.Params(model=str(old)))
    with pytest.raises(NesyError, match="not a nesy parser model"):
        TrainedParser(TrainedParser.Params(model=str(other)))


def test_trained_parser_keeps_its_other_readings_of_a_loose_word() -> None:
    spec = TrainedParser().parse_goal("Grab magazine from bed, place onto desk.")
    assert spec.parent_target == "Desk" and "Dresser" in spec.alternatives["parent_target"]
    assert all(spec.parent_target not in others and "" not in others for others in spec.alternatives.values())
    assert "toggle_target" not in spec.alternatives and "mrecep_target" not in spec.alternatives  # empty fields
    assert spec == replace(spec, alternatives={})  # not part of the meaning


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
