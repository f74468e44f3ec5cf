"""The task definition language: loading folders (ours, TEACh's listings unchanged), schema
errors that name the problem, parameter macros, and ``nesy tasks``."""

from __future__ import annotations

import json

import pytest
from test_tasks_definitions import Kitchen, plate_of_toast

from agent.cli import main
from simulator.tasks import (
    TaskDefinitionError,
    instantiate,
    load_task_library,
    parse_definition,
    progress_check,
)
from simulator.tasks.tdl import substitute

# TEACh's definitions as printed in the TEACh paper (appendix F, listings 2-6), unchanged
# (listing 4 and 5 use the paper's "objectClass" spelling of TEACh's "simbotObjectClass").
TEACH_LISTINGS = {
    "plate_of_toast.json": {
        "task_id": 106, "task_name": "Plate Of Toast", "task_nparams": 0, "task_anchor_object": "plate",
        "desc": "Make a plate of toast.",
        "components": {
            "toast": {"determiner": "a", "task_name": "Toast", "task_params": []},
            "plate": {"determiner": "a", "task_name": "Clean X", "task_params": ["Plate"]},
        },
        "relations": [{
            "property": "parentReceptacles", "tail_entity_list": ["plate"], "tail_determiner_list": ["the"],
            "head_entity_list": ["toast"], "head_determiner_list": ["a"],
            "failure_desc": "The toast needs to be on a clean plate.",
        }],
    },
    "toast.json": {
        "task_id": 101, "task_name": "Toast", "task_nparams": 0, "task_anchor_object": "toast",
        "desc": "Make a slice of toast.",
        "components": {
            "toast": {
                "determiner": "a", "primary_condition": "objectType", "instance_shareable": False,
                "conditions": {"objectType": "BreadSliced", "isCooked": 1},
                "condition_failure_descs": {"objectType": "The bread needs to be sliced using a knife.",
                                            "isCooked": "The bread needs to be toasted."},
            },
            "knife": {
                "determiner": "a", "primary_condition": "objectType", "instance_shareable": True,
                "conditions": {"objectType": "Knife"}, "condition_failure_descs": {},
            },
        },
        "relations": [],
    },
    "clean_x.json": {
        "task_id": 103, "task_name": "Clean X", "task_nparams": 1, "task_anchor_object": "#0",
        "desc": "Clean a #0.",
        "components": {
            "#0": {
                "determiner": "a", "primary_condition": "objectClass", "instance_shareable": False,
                "conditions": {"objectClass": "#0", "isDirty": 0},
                "condition_failure_descs": {"isDirty": "The #0 is dirty. Rinse with water."},
            },
            "sink": {
                "determiner": "a", "primary_condition": "objectType", "instance_shareable": True,
                "conditions": {"objectType": "Sink", "receptacle": 1}, "condition_failure_descs": {},
            },
        },
        "relations": [],
    },
    **{
        f"put_all_{suffix}.json": {
            "task_id": task_id, "task_name": name, "task_nparams": 3, "task_anchor_object": None, "desc": desc,
            "components": {
                "#0": {"determiner": "all", "primary_condition": "objectClass", "instance_shareable": False,
                       "conditions": {"objectClass": "#0"}, "condition_failure_descs": {}},
                "#2": {"determiner": "a", "primary_condition": "objectClass", "instance_shareable": True,
                       "conditions": {"objectClass": "#2", "receptacle": 1}, "condition_failure_descs": {}},
            },
            "relations": [{
                "property": "parentReceptacles", "tail_entity_list": ["#2"], "tail_determiner_list": [tail],
                "head_entity_list": ["#0"], "head_determiner_list": ["all"], "failure_desc": failure,
            }],
        }
        for suffix, task_id, name, desc, tail, failure in (
            ("on", 110, "Put All X On Y", "Put all #0 #1 any #2.", "a", "The #0 needs to be put #1to a #2"),
            ("one", 111, "Put All X In One Y", "Put all #0 #1 one #2.", "the", "The #0 needs to be put #1to a single #2"),
        )
    },
}


def write(folder, files: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (folder / name).write_text(content if isinstance(content, str) else json.dumps(content, indent=2))


def test_shipped_library_loads_cleanly():
    library = load_task_library()
    assert not library.errors
    assert len(library.tasks) == 16
    assert library.get("Clean X").task_nparams == 1
    assert library.by_id(301).task_name == "Breakfast"


def test_teach_listings_load_unchanged_and_work(tmp_path):
    write(tmp_path, TEACH_LISTINGS)
    library = load_task_library(tmp_path)
    assert library.errors == {}
    assert sorted(library.tasks) == ["Clean X", "Plate Of Toast", "Put All X In One Y", "Put All X On Y", "Toast"]
    task = instantiate(library, "Plate Of Toast")
    assert task.desc == "Make a plate of toast."
    assert progress_check(plate_of_toast().world, task)["success"] == 1
    start = progress_check(Kitchen(Bread=1, Knife=1, Plate=1).world, task)
    descs = [step["desc"] for sub in start["subgoals"] for step in sub["steps"]]
    assert descs[:2] == ["The bread needs to be sliced using a knife.", "The bread needs to be toasted."]
    put = instantiate(library, "Put All X On Y", ["Mug", "on", "CounterTop"])
    assert put.desc == "Put all Mug on any CounterTop."
    assert put.relations[0].failure_desc == "The Mug needs to be put onto a CounterTop"


def test_parameters_are_macros_highest_index_first_and_numbers_become_numbers():
    params = tuple(str(i * 10) for i in range(14))
    assert substitute("#13 and #1 and #10", params) == "130 and 10 and 100"
    out = substitute({"conditions": {"isToggled": "#1"}, "determiner": "#1", "#2": "x"}, ("on", "1", "key"))
    assert out == {"conditions": {"isToggled": 1}, "determiner": "1", "key": "x"}


def test_breakfast_parameters_reach_nested_sub_tasks():
    library = load_task_library()
    params = ("1", "0", "1", "Bowl", "0", "Plate", "2", "1", "0", "0", "1", "1", "1", "DiningTable")
    task = instantiate(library, "Breakfast", params)
    assert task.desc == "Make breakfast and serve it on the DiningTable."
    potatoes = task.components["potatoes"]
    assert potatoes.determiner == "1" and potatoes.task.params == ("2", "Potato", "on", "Bowl")
    assert set(potatoes.task.components) == {"Potato", "Bowl"} and potatoes.task.anchor == "Bowl"
    sandwich = task.components["sandwich"].task
    assert task.components["sandwich"].determiner == "2" and sandwich.components["tomato"].determiner == "0"
    assert task.components["table"].conditions == {"simbotObjectClass": "DiningTable", "receptacle": 1}
    assert task.relations[0].head_determiners == ("1", "0", "1", "0", "2", "0")


BAD_FILES = {
    "not_json.json": ("{ nope", "not valid JSON"),
    "a_list.json": ("[1, 2]", "expected a JSON object"),
    "no_desc.json": ({"task_id": 901, "task_name": "No Desc", "task_nparams": 0, "task_anchor_object": None,
                      "components": {}, "relations": []}, "missing key(s) desc"),
    "half_component.json": ({"task_id": 902, "task_name": "Half", "task_nparams": 0, "task_anchor_object": None,
                             "desc": "d", "components": {"x": {"determiner": "a", "conditions": {}}},
                             "relations": []}, "is missing primary_condition"),
    "bad_primary.json": ({"task_id": 903, "task_name": "Bad Primary", "task_nparams": 0, "task_anchor_object": None,
                          "desc": "d", "components": {"x": {"determiner": "a", "primary_condition": "objectType",
                                                            "instance_shareable": False, "conditions": {"isDirty": 0},
                                                            "condition_failure_descs": {}}},
                          "relations": []}, "primary_condition 'objectType' is not one of its conditions"),
    "bad_param.json": ({"task_id": 904, "task_name": "Bad Param", "task_nparams": 1, "task_anchor_object": None,
                        "desc": "#1", "components": {"x": {"determiner": "a", "task_name": "Good", "task_params": []}},
                        "relations": []}, "uses parameter #1 but task_nparams is 1"),
    "bad_relation.json": ({"task_id": 905, "task_name": "Bad Relation", "task_nparams": 0, "task_anchor_object": None,
                           "desc": "d", "components": {"x": {"determiner": "a", "task_name": "Good", "task_params": []}},
                           "relations": [{"property": "parentReceptacles", "head_entity_list": ["x"],
                                          "head_determiner_list": ["a"], "tail_entity_list": ["y"],
                                          "tail_determiner_list": ["a"], "failure_desc": "f"}]},
                          "names 'y', which is not a component"),
    "unknown_sub.json": ({"task_id": 906, "task_name": "Unknown Sub", "task_nparams": 0, "task_anchor_object": None,
                          "desc": "d", "components": {"x": {"determiner": "a", "task_name": "Nope", "task_params": []}},
                          "relations": []}, "refers to unknown task 'Nope'"),
    "wrong_count.json": ({"task_id": 907, "task_name": "Wrong Count", "task_nparams": 0, "task_anchor_object": None,
                          "desc": "d", "components": {"x": {"determiner": "a", "task_name": "Good", "task_params": ["1"]}},
                          "relations": []}, "passes 1 parameter(s) to 'Good', which takes 0"),
    "uses_broken.json": ({"task_id": 908, "task_name": "Uses Broken", "task_nparams": 0, "task_anchor_object": None,
                          "desc": "d", "components": {"x": {"determiner": "a", "task_name": "Unknown Sub", "task_params": []}},
                          "relations": []}, "sub-task 'Unknown Sub' does not load (component 'x' refers to unknown task 'Nope')"),
    "cycle_a.json": ({"task_id": 909, "task_name": "Cycle A", "task_nparams": 0, "task_anchor_object": None,
                      "desc": "d", "components": {"x": {"determiner": "a", "task_name": "Cycle B", "task_params": []}},
                      "relations": []}, "circular sub-task reference"),
    "cycle_b.json": ({"task_id": 910, "task_name": "Cycle B", "task_nparams": 0, "task_anchor_object": None,
                      "desc": "d", "components": {"x": {"determiner": "a", "task_name": "Cycle A", "task_params": []}},
                      "relations": []}, "circular sub-task reference"),
    "same_name.json": ({"task_id": 911, "task_name": "Good", "task_nparams": 0, "task_anchor_object": None,
                        "desc": "d", "components": {"x": {"determiner": "a", "task_name": "Good", "task_params": []}},
                        "relations": []}, "duplicate task_name 'Good'"),
}
GOOD = {"task_id": 900, "task_name": "Good", "task_nparams": 0, "task_anchor_object": "x", "desc": "good",
        "components": {"x": {"determiner": "a", "primary_condition": "objectType", "instance_shareable": False,
                             "conditions": {"objectType": "Mug"}, "condition_failure_descs": {}}},
        "relations": []}


def test_broken_files_are_reported_with_the_reason_and_the_rest_loads(tmp_path):
    write(tmp_path, {"00_good.json": GOOD, **{name: content for name, (content, _) in BAD_FILES.items()}})
    library = load_task_library(tmp_path)
    assert list(library.tasks) == ["Good"]
    assert set(library.errors) == set(BAD_FILES)
    for name, (_, expected) in BAD_FILES.items():
        assert expected in library.errors[name], (name, library.errors[name])


def test_unknown_folder_and_schema_errors_are_nesy_errors(tmp_path):
    with pytest.raises(TaskDefinitionError, match="does not exist"):
        load_task_library(tmp_path / "missing")
    with pytest.raises(TaskDefinitionError, match="task_id must be an integer"):
        parse_definition({**GOOD, "task_id": "one"})


def test_instantiate_errors_name_the_problem():
    library = load_task_library()
    with pytest.raises(TaskDefinitionError, match=r"unknown task 'Clean All Y'; did you mean 'Clean All X'"):
        instantiate(library, "Clean All Y", ["Mug"])
    with pytest.raises(TaskDefinitionError, match=r"takes 4 parameter\(s\), got 1.*#0: number of slices"):
        instantiate(library, "N Slices Of X In Y", ["Tomato"])
    with pytest.raises(TaskDefinitionError, match="determiner 'two'"):
        instantiate(library, "N Slices Of X In Y", ["two", "Tomato", "on", "Plate"])


def test_determiner_all_on_a_task_component_is_refused(tmp_path):
    outer = {"task_id": 920, "task_name": "Outer", "task_nparams": 0, "task_anchor_object": None, "desc": "d",
             "components": {"g": {"determiner": "all", "task_name": "Good", "task_params": []}}, "relations": []}
    write(tmp_path, {"good.json": GOOD, "outer.json": outer})
    with pytest.raises(TaskDefinitionError, match="'all' is not supported for task component 'g'"):
        instantiate(load_task_library(tmp_path), "Outer")


def test_cli_tasks_list_json(capsys, tmp_path):
    assert main(["tasks", "list", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["loaded"] == 16 and out["errors"] == {} and "Breakfast" in out["tasks"]
    write(tmp_path, {"good.json": GOOD, "not_json.json": "{ nope"})
    assert main(["tasks", "list", "--definitions", str(tmp_path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["loaded"] == 1 and out["tasks"] == ["Good"] and list(out["errors"]) == ["not_json.json"]


def test_cli_tasks_variants_json(capsys):
    assert main(["tasks", "variants", "--type", "Prepare Salad", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["Prepare Salad"]["task_name"] == "Salad" and len(out["Prepare Salad"]["variants"]) == 9
    assert main(["tasks", "variants", "--type", "Make Tea"]) == 2
    assert "unknown TEACh task type 'Make Tea'" in capsys.readouterr().err
