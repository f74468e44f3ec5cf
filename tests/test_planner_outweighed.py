"""A fixture a kitchen has one of, seen far less often than another instance of its type,
is left out of the symbolic state: a phantom (FloorPlan10's toaster taken for a sink basin)
or a hint's guess, unless the Follower acted on it."""

from __future__ import annotations

from planner_scenes import CONTEXT, belief, kitchen

from contracts.belief import Belief, GridMap, ObjectMemory
from contracts.geometry import Pose
from contracts.language import TaskSpec
from contracts.planning import Goal, PlannerState
from planner.history import History
from planner.pddl_planner import PddlPlanner
from planner.symbolic import OUTWEIGH, OUTWEIGH_SEEN, symbolic_state


def _belief(memory: ObjectMemory) -> Belief:
    return Belief(GridMap.empty((-2.0, -2.0), (16, 16), 0.25), memory, Pose(0.0, 0.0, 0.0, 0.0), 1)


def test_a_fixture_seen_far_less_than_another_of_its_type_is_left_out():
    memory = ObjectMemory()
    real = memory.add("SinkBasin", (0.0, 0.9, 1.0), times_seen=OUTWEIGH_SEEN * 5)
    phantom = memory.add("SinkBasin", (2.0, 1.0, 2.0), times_seen=OUTWEIGH_SEEN * 5 // OUTWEIGH)  # the toaster
    guess = memory.add("Toaster", (1.0, 1.0, 0.0), times_seen=0)  # "the toaster is near the fridge"
    toaster = memory.add("Toaster", (2.0, 1.0, 2.2), times_seen=OUTWEIGH_SEEN)
    mugs = [memory.add("Mug", (0.5, 1.0, 1.0), times_seen=40), memory.add("Mug", (0.9, 1.0, 1.0), times_seen=1)]
    state = symbolic_state(_belief(memory), History())
    assert real.key in state.types and toaster.key in state.types
    assert phantom.key not in state.types and guess.key not in state.types
    assert all(m.key in state.types for m in mugs)  # a kitchen has many mugs


def test_a_fixture_seen_rarely_so_far_or_acted_on_is_kept():
    memory = ObjectMemory()
    memory.add("Microwave", (0.0, 1.0, 1.0), times_seen=OUTWEIGH_SEEN - 1)
    early = memory.add("Microwave", (2.0, 1.0, 1.0), times_seen=1)
    assert early.key in symbolic_state(_belief(memory), History()).types  # too little seen of either to tell
    memory.add("Microwave", (0.0, 1.0, 1.0), times_seen=OUTWEIGH_SEEN * 4)
    history = History()
    history.actions.append(("open", early.key, None))
    assert early.key in symbolic_state(_belief(memory), history).types
    assert early.key not in symbolic_state(_belief(memory), History()).types


def test_a_faucet_over_a_basin_left_out_gives_way_to_a_search_for_the_sink_s_own():
    """The faucet by FloorPlan10's toaster feeds the "basin" the toaster was taken for; with
    that basin left out, the real sink has no faucet known: one is searched for, rather than
    no plan."""
    scene = belief([o for o in kitchen(more=[("Phantom", "SinkBasin", (1.5, 1.0, 1.0), None, {}),
                                             ("ByIt", "Faucet", (1.5, 1.1, 1.2), None, {"is_toggled": False})])
                    if o[0] != "Faucet"])
    scene.memory.instances["Basin"].times_seen = OUTWEIGH_SEEN * OUTWEIGH
    planner = PddlPlanner(PddlPlanner.Params())
    planner.reset(CONTEXT)
    plan = planner.plan(Goal(TaskSpec(teach_task="Coffee", teach_params={})), scene)
    steps = [(s.subgoal.action, s.object_key) for s in plan.steps]
    assert plan.status.state == PlannerState.SEARCHING and ("ToggleObjectOn", "?Faucet") in steps
    assert ("ToggleObjectOn", "ByIt") not in steps
