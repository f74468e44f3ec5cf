"""A faucet feeds the nearest basin only if it stands over it: in every iTHOR floor plan a
faucet's nearest basin lies within 0.54 m. A "faucet" far from every basin (FloorPlan10's
toaster, taken for one) feeds none, and a plan to wash looks for the basin's own faucet
instead of switching the phantom on (TATC valid_unseen 0147)."""

from __future__ import annotations

from planner_scenes import CONTEXT, belief, kitchen

from contracts.belief import ObjectMemory
from contracts.language import TaskSpec
from contracts.planning import Goal, PlannerState
from planner.pddl_planner import PddlPlanner
from planner.taps import FEEDS_WITHIN, fed_basins

COFFEE = Goal(TaskSpec(teach_task="Coffee", teach_params={}))


def test_a_faucet_far_from_every_basin_feeds_none():
    memory = ObjectMemory()
    memory.add("SinkBasin", (0.0, 0.9, 0.0), times_seen=5)
    near = memory.add("Faucet", (0.2, 1.0, 0.3), times_seen=1)
    far = memory.add("Faucet", (FEEDS_WITHIN + 0.5, 1.0, 0.0), times_seen=2)
    assert [b.key for b in fed_basins(near, memory.instances)] == ["SinkBasin#1"]
    assert fed_basins(far, memory.instances) == []


def test_a_plan_to_wash_does_not_switch_on_a_faucet_far_from_the_basin():
    phantom = ("Toaster?", "Faucet", (1.2, 1.0, 1.0), "Counter", {"is_toggled": False})  # 2 m from the basin
    scene = [o for o in kitchen(more=[phantom]) if o[0] != "Faucet"]
    planner = PddlPlanner(PddlPlanner.Params())
    planner.reset(CONTEXT)
    plan = planner.plan(COFFEE, belief(scene))
    steps = [(s.subgoal.action, s.object_key) for s in plan.steps]
    assert ("ToggleObjectOn", "Toaster?") not in steps
    assert plan.status.state == PlannerState.SEARCHING and ("ToggleObjectOn", "?Faucet") in steps
