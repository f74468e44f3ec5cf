"""A pour that finds the vessel empty doubts the tap that was to fill it: the faucets feeding
the basin it was last put into are believed off until switched on again, and a basin that
filled nothing ``DRY_LIMIT`` times is left out, so the plan fills elsewhere (TATC valid_unseen
0003: FloorPlan10's toaster, detected as a faucet and a sink basin, "filled" a mug 8 times)."""

from __future__ import annotations

from planner_scenes import CAMERA, ArrivedNavigator, belief, detection, observation

from contracts.language import Subgoal
from contracts.planning import LowLevelAction, PlannedSubgoal, SkillState
from planner.history import DRY_LIMIT, History
from planner.skills import InteractSkill
from planner.symbolic import symbolic_state

OBJECTS = [
    ("Plant", "HousePlant", (0.0, 1.0, 1.0), None, {}),
    ("Mug", "Mug", (0.0, 1.2, 0.3), None, {}),
    ("FakeFaucet", "Faucet", (2.0, 1.0, 1.0), None, {"is_toggled": True}),  # the toaster, switched on
    ("FakeBasin", "SinkBasin", (2.1, 0.9, 1.0), None, {}),
    ("Faucet", "Faucet", (-2.0, 1.0, 1.0), None, {"is_toggled": False}),
    ("Basin", "SinkBasin", (-2.0, 0.9, 0.8), None, {}),
]


def pour_in_vain(history: History) -> SkillState:
    """The mug put into the fake basin under its running "faucet", then poured: not filled."""
    scene = belief(OBJECTS, held="Mug")
    history.record(LowLevelAction("Place", {"x": 0.5, "y": 0.5}, "Mug", "FakeBasin"), scene)
    assert history.has("Mug", "water")  # believed filled by the running tap
    s = InteractSkill(PlannedSubgoal(Subgoal("PourObject", "Mug", "HousePlant"), "Mug", "Plant"),
                      ArrivedNavigator(), CAMERA, history)
    dets = [detection("HousePlant", (30, 30, 70, 70))]
    assert s.step(observation(), scene, dets).action.action == "Pour"
    return s.step(observation("Pour", False, "Mug|1 is not filled with liquid"), scene, dets).state


def test_a_pour_in_vain_doubts_the_faucet_then_leaves_the_basin_out():
    history = History()
    assert pour_in_vain(history) == SkillState.FAILED
    facts = symbolic_state(belief(OBJECTS, held="Mug"), history).facts
    assert not history.has("Mug", "water")
    assert ("on", "FakeFaucet") not in facts  # to be switched on again: the click may have missed
    assert ("controls", "FakeFaucet", "FakeBasin") in facts and not history.gone("FakeBasin")
    for _ in range(DRY_LIMIT - 1):
        pour_in_vain(history)
    state = symbolic_state(belief(OBJECTS, held="Mug"), history)
    assert "FakeBasin" not in state.types  # left out: the plan fills at the other basin
    assert ("controls", "Faucet", "Basin") in state.facts
    history.reconsider(frozenset({"SinkBasin"}))  # "Fill the mug in the sink." does not bring it back
    assert history.gone("FakeBasin")
    assert history.release_kept_out() and not history.gone("FakeBasin")  # but nothing planned without it does


def test_a_pour_in_vain_after_a_put_elsewhere_doubts_no_tap():
    history = History()
    scene = belief(OBJECTS + [("Counter", "CounterTop", (0.0, 0.9, 0.5), None, {})], held="Mug")
    history._set("Mug", "water")
    history.record(LowLevelAction("Place", {"x": 0.5, "y": 0.5}, "Mug", "FakeBasin"), scene)
    history.record(LowLevelAction("Place", {"x": 0.5, "y": 0.5}, "Mug", "Counter"), scene)
    history.emptied("Mug", scene.memory.instances)
    assert not history.has("Mug", "water") and not history.dry and "Faucet" not in history.doubted
