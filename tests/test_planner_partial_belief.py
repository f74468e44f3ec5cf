"""Planning on a partial Belief, as a Follower that maps from its own view has: tools not
seen yet are searched for, an "all X" task looks for one more while every X seen is done,
cleanliness not seen counts as dirty, parameters a task statement leaves out take their
least meaning, the Commander's later steps are followed once the task holds as far as the
Belief tells."""

from __future__ import annotations

import pytest
from planner_scenes import CONTEXT, belief, kitchen

from contracts.language import Subgoal, TaskSpec
from contracts.planning import Goal, LowLevelAction, PlannerState
from planner.history import History
from planner.pddl_planner import PddlPlanner
from planner.symbolic import symbolic_state

COUNTER = ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {})
BOIL = Goal(TaskSpec(teach_task="Boil X", teach_params={"X": "Potato"}))


def planner() -> PddlPlanner:
    p = PddlPlanner()
    p.reset(CONTEXT)
    return p


def searched(plan) -> list[str]:
    return [s.subgoal.object for s in plan.steps if s.search]


def test_tools_not_seen_yet_are_searched_for():
    scene = belief([COUNTER, ("Potato", "Potato", (0.2, 1.0, 1.0), "Counter", {})])
    plan = planner().plan(BOIL, scene)
    assert plan.status.state == PlannerState.SEARCHING
    assert {"SinkBasin", "Faucet", "StoveBurner", "Pot"} <= set(searched(plan))
    p = planner()
    p.history.not_found.add("StoveBurner")  # searched everywhere in vain: no plan, and the planner says so
    assert p.plan(BOIL, scene).status.state == PlannerState.FAILING


def test_a_faucet_not_seen_yet_feeds_the_basin_that_is_known():
    scene = belief([COUNTER, ("Mug", "Mug", (0.3, 1.0, 1.0), "Counter", {"is_dirty": True}),
                    ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {})])
    plan = planner().plan(Goal(TaskSpec(teach_task="Clean All X", teach_params={"X": "Mug"})), scene)
    assert searched(plan) == ["Faucet"]
    assert ("PutObject", "Mug", "Basin") in [(s.subgoal.action, s.object_key, s.receptacle_key) for s in plan.steps]


def test_a_faucet_believed_far_from_every_basin_is_none_and_the_basins_own_is_searched_for():
    # TATC valid_unseen, FloorPlan10: the top of the fridge handle, 2.5 m from the sink, was
    # detected as a faucet and took 28 switch clicks that found nothing
    clean_mugs = Goal(TaskSpec(teach_task="Clean All X", teach_params={"X": "Mug"}))
    sink = [COUNTER, ("Mug", "Mug", (0.3, 1.0, 1.0), "Counter", {"is_dirty": True}),
            ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {})]
    plan = planner().plan(clean_mugs, belief([*sink, ("Handle", "Faucet", (1.7, 1.2, 1.0), None, {})]))
    assert searched(plan) == ["Faucet"]
    assert "Handle" not in [s.object_key for s in plan.steps]
    plan = planner().plan(clean_mugs, belief([*sink, ("Tap", "Faucet", (-0.8, 1.1, 1.3), None, {})]))
    assert ("ToggleObjectOn", "Tap") in [(s.subgoal.action, s.object_key) for s in plan.steps]


def test_a_water_carrier_searched_in_vain_gives_way_to_the_next_kind():
    p = planner()
    p.history.not_found.add("Cup")
    scene = belief([COUNTER, ("Plant", "HousePlant", (1.0, 0.5, 1.0), None, {}),
                    ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}), ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {})])
    plan = p.plan(Goal(TaskSpec(teach_task="Water Plant")), scene)
    assert searched(plan) == ["Mug"]


def test_all_x_with_none_seen_searches_for_one_and_holds_once_none_is_to_be_found():
    goal = Goal(TaskSpec(teach_task="Put All X On Y", teach_params={"X": "Pencil", "Y": "CounterTop"}))
    p = planner()
    assert searched(p.plan(goal, belief([COUNTER]))) == ["Pencil"]
    after = planner()  # the search failed: everywhere a pencil could be was searched
    after.history.not_found.add("Pencil")
    assert after.plan(goal, belief([COUNTER])).status.state == PlannerState.IDLE


def test_all_x_with_every_one_known_done_searches_for_another_until_none_is_to_be_found():
    clean_pot = ("Pot", "Pot", (0.3, 1.0, 1.0), "Counter", {"is_dirty": False})
    clean_all = Goal(TaskSpec(teach_task="Clean All X", teach_params={"X": "Cookware"}))
    assert "Pan" in searched(planner().plan(clean_all, belief([COUNTER, clean_pot])))  # not a Kettle: not washed
    dirty_pot = (*clean_pot[:4], {"is_dirty": True})
    plan = planner().plan(clean_all, belief([COUNTER, dirty_pot, ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}),
                                             ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {})]))
    assert searched(plan) == [] and "Pot" in [s.object_key for s in plan.steps]  # the one known first
    p = planner()
    p.history.not_found.add("Pan")
    assert p.plan(clean_all, belief([COUNTER, clean_pot])).status.state == PlannerState.IDLE
    put_all = Goal(TaskSpec(teach_task="Put All X On Y", teach_params={"X": "Pencil", "Y": "CounterTop"}))
    on_counter = ("Pencil", "Pencil", (0.3, 1.0, 1.0), "Counter", {})
    assert searched(planner().plan(put_all, belief([COUNTER, on_counter]))) == ["Pencil"]


def test_cleanliness_not_seen_counts_as_dirty():
    unknown = belief([COUNTER, ("Mug", "Mug", (0.3, 1.0, 1.0), "Counter", {})])
    clean = belief([COUNTER, ("Mug", "Mug", (0.3, 1.0, 1.0), "Counter", {"is_dirty": False})])
    assert symbolic_state(unknown, History()).holds("dirty", "Mug")
    assert not symbolic_state(clean, History()).holds("dirty", "Mug")
    assert not symbolic_state(unknown, History()).holds("dirty", "Counter")  # not dirtyable


def test_parameters_a_statement_leaves_out_take_their_least_meaning():
    scene = belief(kitchen(more=[("Lettuce", "Lettuce", (0.1, 1.0, 1.1), "Counter", {}),
                                 ("Tomato", "Tomato", (0.0, 1.0, 1.1), "Counter", {}),
                                 ("Potato", "Potato", (0.2, 1.0, 1.1), "Counter", {})]))
    salad = planner().plan(Goal(TaskSpec(teach_task="Salad")), scene)
    assert salad.status.state in (PlannerState.ACTING, PlannerState.SEARCHING) and salad.steps
    slices = planner().plan(Goal(TaskSpec(teach_task="N Slices Of X In Y", teach_params={"X": "Apple", "Y": "Plate"})), scene)
    assert any(s.subgoal.action == "SliceObject" for s in slices.steps)
    breakfast = planner().plan(Goal(TaskSpec(teach_task="Breakfast")), scene)  # too little said to plan
    assert breakfast.status.state == PlannerState.FAILING and "lacks parameter" in breakfast.status.reason


def test_the_commanders_later_steps_are_followed_once_the_task_holds_as_far_as_the_belief_tells():
    scene = belief([(k, t, pos, c, {**s, "is_dirty": False}) for k, t, pos, c, s in kitchen()])
    task = TaskSpec(teach_task="Clean All X", teach_params={"X": "Mug"})
    p = planner()
    assert searched(p.plan(Goal(task), scene)) == ["Mug"]  # every mug it knows is clean: one more?
    told = p.plan(Goal(task, (Subgoal("PickupObject", "Apple"),)), scene)  # "Pick up the apple."
    assert [(s.subgoal.action, s.object_key) for s in told.steps] == [("PickupObject", "Apple")]
    p = planner()
    p.history.not_found.add("Mug")  # no other mug anywhere
    assert p.plan(Goal(task), scene).status.state == PlannerState.IDLE
    # steps that came with the task (ALFRED's step instructions) only describe it
    briefed = planner()
    alfred = Goal(TaskSpec(task_type="pick_and_place_simple", object_target="Apple", parent_target="Counter"),
                  (Subgoal("PickupObject", "Apple"),))
    assert briefed.plan(alfred, scene).status.state == PlannerState.IDLE


def test_a_search_stands_while_the_only_instance_of_its_type_is_one_left_out():
    p = planner()
    p.history.missing["Apple"] = 2  # not where believed, twice
    goal = Goal(TaskSpec(task_type="pick_and_place_simple", object_target="Apple", parent_target="Fridge"))
    scene = belief(kitchen())
    first = p.plan(goal, scene)
    assert searched(first) == ["Apple"]
    solved = len(p.records)
    assert p.plan(goal, scene).steps == first.steps and len(p.records) == solved  # not solved again


def test_an_instance_no_goal_pose_showed_is_left_out_at_once():
    history = History()
    history.failed("", "Desk#1", "Desk#1 is unreachable: not seen from 3 poses")
    assert history.gone("Desk#1")
    history.failed("", "Desk#2", "Desk#2 is unreachable: no path to it over the map")
    assert not history.gone("Desk#2")
    # what the Follower has acted on is there: the detector missed it from those poses
    history.actions.append(("toggle_on", "Microwave#1", "Microwave#1"))
    history.failed("", "Microwave#1", "Microwave#1 is unreachable: not seen from 3 poses")
    assert not history.gone("Microwave#1")
    history.failed("", "Microwave#1", "Microwave#1 is unreachable: not seen from 4 poses")
    assert history.gone("Microwave#1")  # but not for ever


def test_a_pot_put_under_a_running_tap_holds_water_for_a_belief_that_cannot_see_liquid():
    """The semantic map does not see water: what the Follower did tells it (else it puts the
    pot into the sink again and again)."""
    scene = belief([COUNTER, ("Pot", "Pot", (0.3, 1.0, 1.0), "Counter", {}),
                    ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}),
                    ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {"is_toggled": True})])
    history = History()
    assert not symbolic_state(scene, history).holds("water", "Pot")
    history.record(LowLevelAction("Place", object_key="Pot", receptacle_key="Basin"), scene)
    assert symbolic_state(scene, history).holds("water", "Pot")
    fill = Goal(subgoals=(Subgoal("FillObject", "Pot"),))
    p = planner()
    p.history = history
    assert p.plan(fill, scene).status.state == PlannerState.IDLE  # it holds: nothing more to do
    history.record(LowLevelAction("Pour", object_key="Pot", receptacle_key="Basin"), scene)
    assert not symbolic_state(scene, history).holds("water", "Pot")
    scene.memory.instances["Pot"].states["is_filled"] = False  # a Belief that sees it empty wins
    history.record(LowLevelAction("Place", object_key="Pot", receptacle_key="Basin"), scene)
    assert not symbolic_state(scene, history).holds("water", "Pot")


def test_the_commander_speaking_of_a_type_again_undoes_what_was_given_up_on_it():
    p = planner()
    p.history.not_found.update({"Pencil", "Mug"})
    p.history.missing.update({"Pencil#1": 2, "?Pencil#1": 2, "Mug#1": 2})
    p.history.flags.update({"Pot#1": {"water"}, "Mug#1": {"coffee"}})
    p.told(frozenset({"Pencil"}))
    assert p.history.not_found == {"Mug"} and set(p.history.missing) == {"Mug#1"}
    assert p.history.has("Pot#1", "water")  # a type only spoken of: what was done to it stands
    p.told(frozenset({"Pot"}), doubted=frozenset({"Pot"}))  # "Fill the pot." again, while believed done
    assert not p.history.has("Pot#1", "water") and p.history.has("Mug#1", "coffee")
    goal = Goal(TaskSpec(teach_task="Put All X On Y", teach_params={"X": "Pencil", "Y": "CounterTop"}))
    assert searched(p.plan(goal, belief([COUNTER]))) == ["Pencil"]  # searched for again


def test_a_clean_step_said_again_while_believed_done_is_done_again():
    """The Belief's "clean" is the Follower's own doing (a tap it believed it turned on):
    when the Commander asks again to rinse the mug, the mug is dirty until cleaned since."""
    scene = belief([COUNTER, ("Mug#1", "Mug", (0.3, 1.0, 1.0), "Counter", {"is_dirty": False}),
                    ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}),
                    ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {"is_toggled": True})])
    rinse = Goal(subgoals=(Subgoal("CleanObject", "Mug"),))
    p = planner()
    assert p.plan(rinse, scene).status.state == PlannerState.IDLE  # believed clean: nothing to do
    p.told(frozenset({"Mug"}), doubted=frozenset({"Mug"}))
    assert symbolic_state(scene, p.history).holds("dirty", "Mug#1")
    assert p.plan(rinse, scene).status.state != PlannerState.IDLE  # washed again
    p.history.record(LowLevelAction("Place", object_key="Mug#1", receptacle_key="Basin"), scene)  # under the running tap
    assert not symbolic_state(scene, p.history).holds("dirty", "Mug#1")


def test_a_thing_washed_and_told_again_twice_is_not_what_is_to_be_washed():
    """A wash step said again after each wash of one instance: that instance is not the one
    meant (a detection took something else for the mug); another mug is washed instead."""
    scene = belief([COUNTER, ("Mug#1", "Mug", (-0.8, 0.9, 1.0), "Basin", {}),
                    ("Mug#2", "Mug", (1.5, 1.0, 1.0), "Counter", {}),
                    ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}),
                    ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {"is_toggled": False})])
    rinse = Goal(subgoals=(Subgoal("CleanObject", "Mug", "SinkBasin"),))
    p = planner()

    def objects(plan) -> set[str]:
        return {s.object_key for s in plan.steps if s.subgoal.action in ("PickupObject", "PutObject")}

    for told in range(2):
        p.history.record(LowLevelAction("ToggleOn", object_key="Faucet"), scene)  # Mug#1 in the basin: washed
        assert p.history.has("Mug#1", "cleaned")
        p.told(frozenset({"Mug"}), doubted=frozenset({"Mug"}))  # "Rinse the mug." again
        assert p.history.gone("Mug#1") == (told == 1)
    assert not p.history.gone("Mug#2")
    assert "Mug#2" in objects(p.plan(rinse, scene))  # the other mug, carried to the basin


def test_what_the_follower_heated_or_cooled_is_hot_or_cold_for_a_belief_without_temperature():
    scene = belief([COUNTER, ("Slice", "PotatoSliced", (0.3, 1.0, 1.0), "Oven", {}),
                    ("Oven", "Microwave", (0.5, 1.0, 1.0), None, {"is_open": False})])
    history = History()
    assert not symbolic_state(scene, history).holds("hot", "Slice")
    history.record(LowLevelAction("ToggleOn", object_key="Oven"), scene)
    assert symbolic_state(scene, history).holds("hot", "Slice")
    heat = Goal(subgoals=(Subgoal("HeatObject", "PotatoSliced", "Microwave"),))
    p = planner()
    p.history = history
    assert p.plan(heat, scene).status.state == PlannerState.IDLE  # done: not switched off and on again


def test_a_step_binds_an_instance_it_is_not_done_to_yet():
    """"Rinse the dirty bowl.": with a clean bowl nearer, the step is not already done."""
    scene = belief([COUNTER, ("Clean", "Bowl", (0.1, 1.0, 1.0), "Counter", {"is_dirty": False}),
                    ("Dirty", "Bowl", (1.5, 1.0, 1.0), "Counter", {"is_dirty": True}),
                    ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}), ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {})])
    plan = planner().plan(Goal(subgoals=(Subgoal("CleanObject", "Bowl", "SinkBasin"),)), scene)
    assert plan.status.state == PlannerState.ACTING
    assert "Dirty" in {s.object_key for s in plan.steps} and "Clean" not in {s.object_key for s in plan.steps}


def test_an_instance_given_up_as_missing_is_tried_again_once_seen_elsewhere():
    """Given up where it was believed (a put believes an apple at the fridge's middle), it is
    tried again once memory has it more than ``MOVED`` away (seen on a shelf inside), and
    not for a sighting where it was believed."""
    from contracts.belief import ObjectMemory
    from planner.history import MOVED

    memory = ObjectMemory()
    apple = memory.add("Apple", (1.0, 1.5, 2.0))
    history = History()
    history.missing[apple.key] = 2
    history.seen_elsewhere(memory.instances)  # where it was believed when given up
    assert history.gone(apple.key)
    apple.position = (1.0 + MOVED / 2, 1.5, 2.0)
    history.seen_elsewhere(memory.instances)
    assert history.gone(apple.key)  # about where it was believed: still given up
    apple.position = (1.0, 1.0, 2.1)
    history.seen_elsewhere(memory.instances)
    assert not history.gone(apple.key) and apple.key not in history.missing_at
    history.missing[apple.key] = 2  # given up again, here: measured from here, not from the first place
    history.seen_elsewhere(memory.instances)
    assert history.gone(apple.key) and history.missing_at[apple.key] == apple.position
    history.reconsider(frozenset({"Apple"}))  # the Commander spoke of apples
    history.seen_elsewhere(memory.instances)
    assert not history.missing_at


def test_a_phantom_whose_clicks_found_nothing_twice_is_not_tried_again_when_its_position_wanders():
    """TATC 0264: a "knife" on the counter whose clicks found nothing to act on in two skills
    was re-estimated 0.28 m away and tried again after each give-up (24 failed pickups, to
    the failed-action limit). After ``IN_VAIN_LIMIT`` such skills a move frees it no more
    than a retelling does; after one, it still does."""
    from contracts.belief import ObjectMemory
    from planner.history import IN_VAIN_LIMIT, MOVED

    memory = ObjectMemory()
    knife = memory.add("Knife", (-0.3, 1.1, 2.24))
    history = History()
    for skills in range(1, IN_VAIN_LIMIT + 1):
        history.failed("pickup", knife.key, "nothing to act on: not where believed")
        history.seen_elsewhere(memory.instances)
        knife.position = (-0.3 - 2 * MOVED * (skills % 2), 1.0, 2.24)  # re-estimated elsewhere
        history.seen_elsewhere(memory.instances)
        assert history.gone(knife.key) == (skills >= IN_VAIN_LIMIT)


def test_a_phantom_detected_again_as_a_new_instance_is_given_up_like_the_first():
    """Clicks on a "knife" in the toaster's slots found nothing to act on; the detector sees
    it there again, as a new instance: it is the same phantom. A knife elsewhere is not,
    nor one that was in memory already (TATC valid_unseen 0265)."""
    from contracts.belief import ObjectMemory
    from planner.history import SAME_PHANTOM

    memory = ObjectMemory()
    phantom = memory.add("Knife", (1.0, 1.0, 2.0))
    earlier = memory.add("Knife", (1.0 + SAME_PHANTOM / 2, 1.0, 2.0))
    history = History()
    history.seen_elsewhere(memory.instances)
    history.failed("pickup", phantom.key, "nothing to act on: not where believed")
    history.seen_elsewhere(memory.instances)
    del memory.instances[phantom.key]
    again = memory.add("Knife", (1.0, 1.05, 2.0 + SAME_PHANTOM / 2))
    elsewhere = memory.add("Knife", (1.0, 1.0, 2.0 + 2 * SAME_PHANTOM))
    tomato = memory.add("Tomato", (1.0, 1.0, 2.0))
    history.seen_elsewhere(memory.instances)
    assert history.gone(again.key) and history.clicked_in_vain[again.key] == 1
    assert not any(history.gone(i.key) for i in (earlier, elsewhere, tomato))
    history.reconsider(frozenset({"Knife"}))  # retold, it is tried once more, as the first would be
    assert not history.gone(again.key)


@pytest.mark.parametrize("moved, step, held", [
    ("Pot", Subgoal("PickupObject", "Pot"), None),  # 0097: the pot the pickup was about to take
    ("Plate", Subgoal("PutObject", "Apple", "Plate"), "Apple"),  # 0148: the plate the held lettuce goes onto
])
def test_a_plan_whose_next_step_needs_a_thing_now_believed_in_a_closed_cabinet_is_made_again(moved, step, held):
    # a hint followed on moved it from the cabinet the Follower had opened to a closed one
    scene = belief([COUNTER, ("Open", "Cabinet", (0.5, 0.5, 1.0), None, {"is_open": True}),
                    ("Shut", "Cabinet", (-0.5, 1.9, 1.0), None, {"is_open": False}),
                    ("Pot", "Pot", (0.5, 0.5, 1.0), "Open", {}),
                    ("Plate", "Plate", (0.5, 0.5, 1.0), "Open", {"is_dirty": False}),
                    ("Apple", "Apple", (0.3, 1.0, 1.0), None, {})], held=held)
    p = planner()
    goal = Goal(subgoals=(step,))
    assert p.plan(goal, scene).steps[0].subgoal == step
    thing = scene.memory.instances[moved]
    thing.position, thing.container = (-0.5, 1.9, 1.0), "Shut"
    again = p.plan(goal, scene).steps[0]
    assert (again.subgoal.action, again.object_key) == ("OpenObject", "Shut")


def test_a_thing_seen_in_one_frame_only_is_chosen_after_one_seen_more_often():
    """Most things the Mask R-CNN map holds from a single frame are phantoms: the plan takes
    the apple seen four times, though a glimpsed one (or a hint's guess) lies nearer; alone,
    a glimpsed one is taken."""
    goal = Goal(TaskSpec(task_type="pick_and_place_simple", object_target="Apple", parent_target="Fridge"))
    scene = belief([item for item in kitchen() if item[0] != "Apple"]
                   + [("Near", "Apple", (0.1, 1.0, 0.5), "Counter", {}), ("Far", "Apple", (0.3, 1.0, 1.0), "Counter", {})])
    scene.memory.instances["Far"].times_seen = 4
    picked = [s.object_key for s in planner().plan(goal, scene).steps if s.subgoal.action == "PickupObject"]
    assert picked == ["Far"] and symbolic_state(scene, History()).glimpsed >= {"Near"}
    scene.memory.instances["Near"].times_seen = 0  # a hint's guess, never seen: no better
    assert "Near" in symbolic_state(scene, History()).glimpsed
    scene.memory.instances["Near"].states["inferred"] = True  # believed from the Follower's own doing: trusted
    assert "Near" not in symbolic_state(scene, History()).glimpsed
    scene.memory.instances["Near"].states.pop("inferred")
    scene.memory.instances.pop("Far")
    picked = [s.object_key for s in planner().plan(goal, scene).steps if s.subgoal.action == "PickupObject"]
    assert picked == ["Near"]


def test_a_receptacle_seen_in_one_frame_only_is_left_out_while_one_seen_more_often_will_do():
    goal = Goal(TaskSpec(task_type="pick_and_place_simple", object_target="Apple", parent_target="Fridge"))
    scene = belief(kitchen() + [("Phantom", "Fridge", (0.1, 0.9, 0.4), None, {"is_open": True})])
    scene.memory.instances["Fridge"].times_seen = 9
    puts = [s.receptacle_key for s in planner().plan(goal, scene).steps if s.subgoal.action == "PutObject"]
    assert puts == ["Fridge"]  # the nearer, open one was seen once
    scene.memory.instances["Fridge"].times_seen = 1
    puts = [s.receptacle_key for s in planner().plan(goal, scene).steps if s.subgoal.action == "PutObject"]
    assert puts == ["Phantom"]  # both glimpsed: the open one, no door to open
