"""Progress Check: TEACh's output structure, determiner arithmetic (a, all, N, nested,
instance_shareable, 0), the a/the difference, and problem keys an expert can act on."""

from __future__ import annotations

import json

import pytest
from test_tasks_definitions import COUNTER, COUNTER_B, FRIDGE, Kitchen
from test_tasks_tdl import write

from simulator.sim import Simulator
from simulator.spawn import random_start
from simulator.tasks import (
    TEACH_TASK_TYPES,
    instantiate,
    load_task_library,
    progress_check,
    teach_task_variants,
)

LIBRARY = load_task_library()
KEY_FIELDS = {"objectId", "objectType", "determiner", "property_name", "desired_property_value"}
SUBGOAL_FIELDS = {"representative_obj_id", "step_successes", "success", "description", "steps", "problem_keys",
                  "goal_conditions_total", "goal_conditions_satisfied"}


def validate(result: dict) -> None:
    """TEACh's Progress Check structure, with every failed step carrying its problem keys."""
    assert set(result) == {"task_desc", "success", "subgoals", "goal_conditions_total", "goal_conditions_satisfied"}
    assert isinstance(result["task_desc"], str) and result["task_desc"]
    assert result["success"] in (0, 1) and isinstance(result["subgoals"], list)
    assert 0 <= result["goal_conditions_satisfied"] <= result["goal_conditions_total"]
    assert result["goal_conditions_total"] == sum(s["goal_conditions_total"] for s in result["subgoals"])
    assert result["goal_conditions_satisfied"] == sum(s["goal_conditions_satisfied"] for s in result["subgoals"])
    assert result["success"] == int(all(s["success"] for s in result["subgoals"]))
    for subgoal in result["subgoals"]:
        assert set(subgoal) == SUBGOAL_FIELDS
        assert subgoal["success"] in (0, 1) and all(s in (0, 1) for s in subgoal["step_successes"])
        assert isinstance(subgoal["representative_obj_id"], str) and isinstance(subgoal["description"], str)
        assert 0 <= subgoal["goal_conditions_satisfied"] <= subgoal["goal_conditions_total"]
        for step in subgoal["steps"]:
            assert set(step) == {"success", "objectId", "objectType", "desc", "problem_keys"}
            assert step["success"] in (0, 1) and step["desc"] and step["objectId"]
            if not step["success"]:
                assert step["problem_keys"], step
            for key in step["problem_keys"]:
                assert KEY_FIELDS <= set(key) and key["objectId"] == step["objectId"]
                assert key in subgoal["problem_keys"][step["objectId"]]
        for object_id, keys in subgoal["problem_keys"].items():
            assert keys and all(KEY_FIELDS <= set(k) and k["objectId"] == object_id for k in keys)
            for key in keys:
                if key["property_name"] == "parentReceptacles":
                    assert key["receptacle_objectId"] in key["receptacle_candidates"]
    json.dumps(result)


ROOMS = {"kitchen": "FloorPlan1", "living_room": "FloorPlan201", "bedroom": "FloorPlan301", "bathroom": "FloorPlan401"}


@pytest.mark.parametrize("room", list(ROOMS))
def test_every_benchmark_variant_instantiates_and_its_progress_check_is_well_formed(room):
    sim = Simulator()
    sim.reset(random_start(ROOMS[room], seed=3))
    variants = [v for v in teach_task_variants() if room in v.room_types]
    assert variants
    for variant in variants:
        validate(progress_check(sim.world, instantiate(LIBRARY, variant.task_name, variant.params)))


def test_benchmark_task_types_are_teachs_twelve():
    assert list(TEACH_TASK_TYPES) == [
        "Water Plant", "Make Coffee", "Clean All X", "Put All X On Y", "Boil Potato", "Make Plate Of Toast",
        "N Slices Of X In Y", "Put All X In One Y", "N Cooked Slices Of X In Y", "Prepare Sandwich",
        "Prepare Salad", "Prepare Breakfast",
    ]
    for task_type, (name, params) in TEACH_TASK_TYPES.items():
        variants = teach_task_variants(task_type)
        assert variants and all(v.task_name == name and v.room_types for v in variants)
        assert len({v.params for v in variants}) == len(variants)
        instantiate(LIBRARY, name, params)
    assert len(teach_task_variants("N Slices Of X In Y")) == 16
    assert len(teach_task_variants("N Cooked Slices Of X In Y")) == 10


# ------------------------------------------------------------------------------- determiners
NESTED = {
    "mugs.json": {
        "task_id": 951, "task_name": "Mugs", "task_nparams": 1, "task_anchor_object": "mug", "desc": "#0 clean mugs",
        "components": {
            "mug": {"determiner": "#0", "primary_condition": "objectType", "instance_shareable": False,
                    "conditions": {"objectType": "Mug", "isDirty": 0},
                    "condition_failure_descs": {"isDirty": "Wash the mug."}},
            "machine": {"determiner": "#0", "primary_condition": "objectType", "instance_shareable": True,
                        "conditions": {"objectType": "CoffeeMachine"}, "condition_failure_descs": {}},
        },
        "relations": [],
    },
    "outer.json": {
        "task_id": 952, "task_name": "Outer", "task_nparams": 2, "task_anchor_object": None, "desc": "outer",
        "components": {"inner": {"determiner": "#0", "task_name": "Mugs", "task_params": ["#1"]}},
        "relations": [],
    },
}


@pytest.fixture(scope="module")
def nested(tmp_path_factory):
    folder = tmp_path_factory.mktemp("defs")
    write(folder, NESTED)
    return load_task_library(folder)


def _check(library, mugs: int, name: str, params, dirty: int = 0) -> dict:
    k = Kitchen(Mug=mugs)
    for mug in k.ids.get("Mug", [])[:dirty]:
        k.dirty(mug)
    result = progress_check(k.world, instantiate(library, name, params))
    validate(result)
    return result


def test_determiners_multiply_down_the_hierarchy_except_instance_shareable(nested):
    # Outer with 3 x Mugs(2): 6 clean mugs (2 conditions each); one coffee machine (shareable)
    short = _check(nested, 5, "Outer", ["3", "2"])
    enough = _check(nested, 6, "Outer", ["3", "2"])
    assert short["success"] == 0 and enough["success"] == 1
    assert enough["goal_conditions_total"] == 2 * 6 + 1 == short["goal_conditions_total"]
    assert short["goal_conditions_satisfied"] == 2 * 5 + 1
    assert short["subgoals"][0]["description"] == "3 x 2 clean mugs"


def test_determiner_a_is_one_and_dirty_candidates_become_problem_keys(nested):
    result = _check(nested, 2, "Mugs", ["1"], dirty=2)
    assert result["success"] == 0 and result["goal_conditions_total"] == 2 + 1
    failed = [s for sub in result["subgoals"] for s in sub["steps"] if not s["success"]]
    assert len(failed) == 1 and failed[0]["desc"] == "Wash the mug."
    assert failed[0]["problem_keys"][0]["property_name"] == "isDirty"
    assert failed[0]["problem_keys"][0]["desired_property_value"] == 0
    assert _check(nested, 2, "Mugs", ["1"], dirty=1)["success"] == 1


def test_determiner_zero_skips_the_component(nested):
    result = _check(nested, 0, "Outer", ["0", "5"])
    assert result["success"] == 1 and result["subgoals"] == [] and result["goal_conditions_total"] == 0


def test_determiner_all_counts_every_instance():
    task = instantiate(LIBRARY, "Clean All X", ["Mug"])
    k = Kitchen(Mug=3)
    k.dirty(k.ids["Mug"][1])
    result = progress_check(k.world, task)
    validate(result)
    mugs = result["subgoals"][0]
    assert mugs["goal_conditions_total"] == 2 * 3 and mugs["goal_conditions_satisfied"] == 2 * 3 - 1
    assert list(mugs["problem_keys"]) == [k.ids["Mug"][1]]
    # 'all' over nothing is satisfied
    assert progress_check(Kitchen().world, task)["success"] == 1


def test_instance_shareable_knife_is_needed_once_for_many_slices():
    task = instantiate(LIBRARY, "N Slices Of X In Y", ["3", "Tomato", "on", "Plate"])
    k = Kitchen(Tomato=1, Knife=1, Plate=1)
    for piece in k.slice("Tomato")[:3]:
        k.put(piece, k["Plate"])
    result = progress_check(k.world, task)
    assert result["success"] == 1
    sliced = result["subgoals"][0]
    assert sliced["description"] == "3 x Cut a slice of Tomato."
    assert sliced["goal_conditions_total"] == 3 * 1 + 1  # three slices, one knife
    assert result["subgoals"][2]["goal_conditions_total"] == 3  # three slices on the plate
    k.put(k.ids["TomatoSliced"][2], COUNTER_B)
    assert progress_check(k.world, task)["success"] == 0


def test_nested_breakfast_needs_every_sandwich_on_its_own_plate():
    params = ("0", "0", "0", "Plate", "0", "Plate", "2", "0", "0", "0", "0", "0", "0", "CounterTop")
    task = instantiate(LIBRARY, "Breakfast", params)
    k = Kitchen(Bread=1, Knife=1, Plate=2)
    toasts = k.slice("Bread")[:4]
    for i, piece in enumerate(toasts):
        k.cook(piece)
        k.put(piece, k.ids["Plate"][i // 2])
    result = progress_check(k.world, task)
    validate(result)
    assert result["success"] == 1
    sandwiches = result["subgoals"][0]
    assert sandwiches["description"].startswith("2 x ")
    # 2 sandwiches x 2 toasts: 4 toasts x 2 conditions + knife + toaster; 2 plates x 2 + sink 2; relation 2 x 2
    assert sandwiches["goal_conditions_total"] == (4 * 2 + 1 + 1) + (2 * 2 + 2) + 4
    k.put(toasts[3], k.ids["Plate"][0])  # three toasts on one plate, one on the other
    assert progress_check(k.world, task)["success"] == 0


# ------------------------------------------------------------------------------- a versus the
def test_put_all_on_any_y_versus_in_one_y():
    on_any = instantiate(LIBRARY, "Put All X On Y", ["Mug", "on", "CounterTop"])
    in_one = instantiate(LIBRARY, "Put All X In One Y", ["Mug", "on", "CounterTop"])
    k = Kitchen(Mug=2)
    first, second = k.ids["Mug"]
    assert progress_check(k.world, on_any)["success"] == progress_check(k.world, in_one)["success"] == 1
    k.put(second, COUNTER_B)  # x1 on y1, x2 on y2
    assert progress_check(k.world, on_any)["success"] == 1
    result = progress_check(k.world, in_one)
    validate(result)
    assert result["success"] == 0
    relation = result["subgoals"][-1]
    assert relation["goal_conditions_total"] == 2 and relation["goal_conditions_satisfied"] == 1
    (key,) = [key for keys in relation["problem_keys"].values() for key in keys]
    # one mug must join the other on the same counter
    moved = key["objectId"]
    assert key["property_name"] == "parentReceptacles" and key["desired_property_value"] == "CounterTop"
    other = first if moved == second else second
    assert key["receptacle_objectId"] == k.world.container_chain(other)[0]
    assert key["receptacle_candidates"] == [key["receptacle_objectId"]]


def test_relation_problem_keys_name_the_target_receptacles():
    task = instantiate(LIBRARY, "Put All X On Y", ["Mug", "on", "CounterTop"])
    k = Kitchen(Mug=2)
    k.put(k.ids["Mug"][0], FRIDGE)
    k.hold(k.ids["Mug"][1])  # in the hand: in no receptacle
    result = progress_check(k.world, task)
    validate(result)
    keys = result["subgoals"][-1]["problem_keys"]
    assert set(keys) == set(k.ids["Mug"])
    counters = {oid for oid, o in k.world.objects.items() if o.object_type == "CounterTop"}
    for (key,) in keys.values():
        assert key["receptacle_objectType"] == "CounterTop" and set(key["receptacle_candidates"]) == counters
    assert COUNTER in counters


def test_slicing_problem_key_points_at_the_whole_object():
    k = Kitchen(Bread=1, Knife=1, Plate=1)
    result = progress_check(k.world, instantiate(LIBRARY, "Plate Of Toast"))
    validate(result)
    toast = result["subgoals"][0]
    assert toast["representative_obj_id"] == k["Bread"]
    assert [(p["property_name"], p["desired_property_value"]) for p in toast["problem_keys"][k["Bread"]]] == [
        ("objectType", "BreadSliced"), ("isCooked", 1)]
    assert result["subgoals"][1]["success"] == 1  # the plate is already clean


def test_preconditions_count_objects_slices_and_shareables():
    from simulator.tasks import missing_objects

    salad = instantiate(LIBRARY, "Salad", ["2", "1", "1"])
    assert missing_objects(Kitchen(Lettuce=1, Tomato=1, Potato=1, Knife=1, Plate=1).world, salad) == []
    lacking = missing_objects(Kitchen(Lettuce=1, Tomato=1, Plate=1).world, salad)
    assert any("Potato" in m for m in lacking) and any("Knives" in m for m in lacking)
    sandwiches = instantiate(LIBRARY, "Breakfast", ("0", "0", "0", "Plate", "0", "Plate", "6", "0", "0", "0", "0",
                                                    "0", "0", "CounterTop"))
    # 6 sandwiches need 12 toasts (one bread gives 10 slices) and 6 plates
    one_bread = missing_objects(Kitchen(Bread=1, Knife=1, Plate=6).world, sandwiches)
    assert len(one_bread) == 1 and "needs 12 object(s)" in one_bread[0]
    assert missing_objects(Kitchen(Bread=2, Knife=1, Plate=6).world, sandwiches) == []
    assert missing_objects(Kitchen().world, instantiate(LIBRARY, "Clean All X", ["Mug"]))  # 'all' needs one


def test_suggested_receptacle_can_take_the_object():
    from simulator.object_types import can_contain

    k = Kitchen(Pot=1, Bread=1)
    for name, params in (("Put All X On Y", ["Pot", "on", "Appliances"]), ("Put All X In One Y", ["Bread", "in", "Appliances"])):
        result = progress_check(k.world, instantiate(LIBRARY, name, params))
        validate(result)
        (keys,) = result["subgoals"][-1]["problem_keys"].values()
        target = k.world.objects[keys[0]["receptacle_objectId"]]
        assert can_contain(target.object_type, keys[0]["objectType"]), (name, target.object_type)
