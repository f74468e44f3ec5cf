"""Instances given up twice where they are believed (``History.given_up``): kept out when the
Commander speaks of their type again, tried again once believed elsewhere, once more for each
hint that places them there, and when nothing can be planned without them."""

from __future__ import annotations

from planner_scenes import CONTEXT, belief

from contracts.language import Subgoal
from contracts.planning import Goal, PlannerState
from planner.history import History
from planner.pddl_planner import PddlPlanner

COUNTER = ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {})


def planner() -> PddlPlanner:
    p = PddlPlanner()
    p.reset(CONTEXT)
    return p


def test_an_instance_given_up_twice_where_believed_stays_out_when_retold_until_believed_elsewhere():
    """TATC valid_unseen 0122: a bread slice in the toaster's slots the detector does not see was
    walked to after each "Toast a slice of bread.", given up again each time (9 times); 0120 a
    faucet behind a wall. While another slice is left to try, a retelling frees an instance given
    up once; one given up twice stays out (the plan takes the other), until memory believes it
    elsewhere, or once more for each hint that places it where it is believed (0242: the plate
    on the counter, put on at the next try)."""
    from contracts.belief import ObjectMemory
    from planner.history import GIVEN_UP_LIMIT, MOVED

    memory = ObjectMemory()
    slice_ = memory.add("BreadSliced", (0.9, 1.0, 0.3))
    memory.add("BreadSliced", (-1.5, 1.0, 0.3))  # another, on the counter
    history = History()
    for times in range(1, GIVEN_UP_LIMIT + 1):
        history.failed("pickup", slice_.key, f"{slice_.key} is unreachable: not seen from 3 poses")
        history.seen_elsewhere(memory.instances)
        assert history.gone(slice_.key)
        history.reconsider(frozenset({"BreadSliced"}))
        history.seen_elsewhere(memory.instances)
        assert history.gone(slice_.key) == (times >= GIVEN_UP_LIMIT)
    slice_.states["hint_confirmed"] = 1  # "There is a bread slice in the toaster.": where it is believed
    history.seen_elsewhere(memory.instances)
    assert not history.gone(slice_.key)  # tried once more
    history.failed("pickup", slice_.key, f"{slice_.key} is unreachable: not seen from 3 poses")
    history.reconsider(frozenset({"BreadSliced"}))
    history.seen_elsewhere(memory.instances)
    assert history.gone(slice_.key)  # given up again, no new hint: out
    slice_.position = (0.9 + 2 * MOVED, 1.0, 0.3)  # seen (or hinted) elsewhere
    history.seen_elsewhere(memory.instances)
    assert not history.gone(slice_.key)
    history.failed("pickup", slice_.key, f"{slice_.key} is unreachable: not seen from 3 poses")
    history.reconsider(frozenset({"BreadSliced"}))
    assert not history.gone(slice_.key)  # given up once where it is believed now


def test_an_instance_kept_out_though_retold_is_tried_again_when_nothing_can_be_planned_without_it():
    """TATC valid_unseen 0003: its faucet given up twice and kept out when the Commander said
    "Fill the mug with water." again, the plan found no faucet to fill from: no plan, and Stops
    the Commander refused to the turn limit. Nothing planned without it: it is tried again."""
    from planner.history import GIVEN_UP_LIMIT

    scene = belief([COUNTER, ("Pot", "Pot", (0.3, 1.0, 1.0), "Counter", {}),
                    ("Basin", "SinkBasin", (-0.8, 0.8, 1.0), None, {}), ("Faucet", "Faucet", (-0.8, 1.1, 1.3), None, {})])
    fill = Goal(subgoals=(Subgoal("FillObject", "Pot"),))
    p = planner()
    for _ in range(GIVEN_UP_LIMIT):
        p.history.failed("toggle_on", "Faucet", "Faucet is unreachable: not seen from 3 poses")
        p.history.reconsider(frozenset({"Faucet"}))
    p.history.not_found.add("Faucet")  # searched in vain since: no other faucet to find
    assert p.history.gone("Faucet") and p.history.kept_out == {"Faucet"}
    plan = p.plan(fill, scene)
    assert plan.status.state == PlannerState.ACTING
    assert "Faucet" in {s.object_key for s in plan.steps} and not p.history.gone("Faucet")
    assert not p.history.kept_out
