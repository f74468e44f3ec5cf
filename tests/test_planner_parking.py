"""``planner.parking``: a put that only empties the hand goes to the surface on the way,
and nothing else a plan puts is moved."""

from __future__ import annotations

from planner_scenes import belief
from test_planner_problem import actions, planner

from contracts.language import Subgoal, TaskSpec
from contracts.planning import Goal, PlannedSubgoal
from planner.history import History
from planner.parking import repark
from planner.symbolic import symbolic_state

# the apple and a counter by the Follower; a far counter and a far basin (a phantom, say)
SCENE = [
    ("Near", "CounterTop", (0.0, 0.9, 1.0), None, {}),
    ("Far", "CounterTop", (4.0, 0.9, 4.0), None, {}),
    ("Tub", "BathtubBasin", (4.0, 0.5, -3.0), None, {}),
    ("Faucet", "Faucet", (4.0, 0.9, -3.3), None, {"is_toggled": False}),
    ("Apple", "Apple", (0.2, 1.0, 1.0), "Near", {}),
    ("Knife", "Knife", (-0.2, 1.0, 1.0), "Near", {}),
    ("Fridge", "Fridge", (0.8, 0.9, 1.0), None, {"is_open": True}),
]


def put(item: str, target: str, kind: str) -> PlannedSubgoal:
    return PlannedSubgoal(Subgoal("PutObject", "Knife", kind), item, target)


def plan_after_slicing(target: str, kind: str) -> list[PlannedSubgoal]:
    return [PlannedSubgoal(Subgoal("PickupObject", "Knife"), "Knife"),
            PlannedSubgoal(Subgoal("SliceObject", "Apple"), "Apple"),
            put("Knife", target, kind),
            PlannedSubgoal(Subgoal("PickupObject", "AppleSliced"), "Apple~0"),
            PlannedSubgoal(Subgoal("PutObject", "AppleSliced", "Fridge"), "Apple~0", "Fridge")]


def seen(scene=SCENE, held=None):
    """The scene's Belief, each instance seen in two frames (not a glimpse)."""
    b = belief(scene, held=held)
    for instance in b.memory.instances.values():
        instance.times_seen = 2
    return b


def state(scene=SCENE):
    s = symbolic_state(seen(scene), History())
    s.add_pieces("Apple", 1)
    return s


def test_a_knife_put_down_after_slicing_goes_on_the_counter_on_the_way():
    for target, kind in (("Far", "CounterTop"), ("Tub", "BathtubBasin")):
        steps = repark(plan_after_slicing(target, kind), state(), frozenset({"Apple~0", "Fridge"}), set())
        assert (steps[2].receptacle_key, steps[2].subgoal.receptacle) == ("Near", "CounterTop"), target
        assert steps[:2] + steps[3:] == plan_after_slicing(target, kind)[:2] + plan_after_slicing(target, kind)[3:]


def test_a_put_something_depends_on_stays():
    plan = plan_after_slicing("Far", "CounterTop")
    # the goal names the receptacle (or the thing put)
    assert repark(plan, state(), frozenset({"Far"}), set())[2].receptacle_key == "Far"
    assert repark(plan, state(), frozenset({"Knife"}), set())[2].receptacle_key == "Far"
    # another step acts on it
    later = [*plan, PlannedSubgoal(Subgoal("PickupObject", "Apple"), "Apple"),
             PlannedSubgoal(Subgoal("PutObject", "Apple", "CounterTop"), "Apple", "Far")]
    assert repark(later, state(), frozenset(), set())[2].receptacle_key == "Far"
    # a basin whose tap the plan turns on washes (or fills) what goes in
    washing = [*plan_after_slicing("Tub", "BathtubBasin"), PlannedSubgoal(Subgoal("ToggleObjectOn", "Faucet"), "Faucet")]
    assert repark(washing, state(), frozenset(), set())[2].receptacle_key == "Tub"
    # ... but not the tap of another basin (the sink's, rinsing a plate: TATC 0218's knife went to a phantom tub)
    sink = [*SCENE, ("Sink", "SinkBasin", (-1.0, 0.8, 1.0), None, {}), ("Tap", "Faucet", (-1.0, 1.1, 1.3), None, {})]
    rinsing = [*plan_after_slicing("Tub", "BathtubBasin"), PlannedSubgoal(Subgoal("ToggleObjectOn", "Faucet"), "Tap")]
    assert ("controls", "Tap", "Sink") in state(sink).facts and ("controls", "Tap", "Tub") not in state(sink).facts
    assert repark(rinsing, state(sink), frozenset(), set())[2].receptacle_key == "Near"
    # the near counter is full, or seen in one frame only: nothing else is on the way
    assert repark(plan, state(), frozenset(), {"Near"})[2].receptacle_key == "Far"
    glimpsed = state()
    glimpsed.glimpsed.add("Near")
    assert repark(plan, glimpsed, frozenset(), set())[2].receptacle_key == "Far"


def test_a_surface_no_nearer_than_the_gain_does_not_move_the_put():
    scene = [*SCENE, ("Table", "DiningTable", (0.0, 0.7, 1.5), None, {})]  # 0.5 m beyond the counter
    steps = repark(plan_after_slicing("Near", "CounterTop"), state(scene), frozenset(), set())
    assert steps[2].receptacle_key == "Near"


def test_the_planner_puts_a_held_knife_down_on_the_way():
    goal = Goal(TaskSpec(task_type="pick_and_place_simple", object_target="Apple", parent_target="Fridge"))
    steps = actions(planner().plan(goal, seen(held="Knife")))
    assert steps[0] == ("PutObject", "Knife", "Near"), steps
