"""Steps the Commander says again: one more of a put (once the first is done), a reminder
of a put not done yet, another whole sliced, a switch believed on switched again, one found running switched off and on."""

from __future__ import annotations

from planner_scenes import CAMERA, ArrivedNavigator, belief, detection, observation
from test_planner_problem import actions, planner

from contracts.language import Subgoal
from contracts.planning import (
    Goal,
    LowLevelAction,
    PlannedSubgoal,
    PlannerState,
    SkillFailure,
    SkillState,
)
from planner.history import History
from planner.skills import InteractSkill
from planner.symbolic import symbolic_state


def test_a_put_said_again_takes_one_not_there_yet():
    """"Place a slice of potato on the plate." said again once one is there: another one."""
    scene = belief([("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
                    ("Plate", "Plate", (-0.3, 1.0, 1.0), "Counter", {}),
                    ("OnPlate", "PotatoSliced", (-0.3, 1.0, 1.0), "Plate", {}),
                    ("Other", "PotatoSliced", (0.3, 1.0, 1.0), "Counter", {})])
    p = planner()
    p.history._set("OnPlate", "heated")  # the one already there was worked on, yet the step wants another
    step = Goal(None, (Subgoal("PutObject", "PotatoSliced", "Plate"),))
    assert actions(p.plan(step, scene))[:1] == [("PickupObject", "Other", None)]


def test_a_put_said_again_with_no_other_known_searches_for_one():
    """"Place a slice of potato in the bowl." said again when the only slice the Follower knows
    of lies in the bowl (the others were never told apart): it looks for another, it does not
    stand idle believing the step done."""
    scene = belief([("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
                    ("Bowl", "Bowl", (-0.3, 1.0, 1.0), "Counter", {}),
                    ("InBowl", "PotatoSliced", (-0.3, 1.0, 1.0), "Bowl", {})])
    step = Goal(None, (Subgoal("PutObject", "PotatoSliced", "Bowl"),))
    plan = planner().plan(step, scene)
    assert plan.status.state == PlannerState.SEARCHING and plan.status.target == "PotatoSliced"


def test_a_put_done_and_planned_again_after_a_new_step_holds():
    """"Place the mug in the coffee machine.", done; then "Switch on the coffee machine." comes
    before the put's success was reported: the put is not done again with the same mug."""
    counter = ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {})
    machine = ("Machine", "CoffeeMachine", (0.5, 1.0, 1.2), "Counter", {"is_toggled": False})
    put = Subgoal("PutObject", "Mug", "CoffeeMachine")
    p = planner()
    mug = ("Mug", "Mug", (0.0, 1.0, 0.8), "Counter", {})
    first = p.plan(Goal(None, (put,)), belief([counter, machine, mug]))
    assert ("PutObject", "Mug", "Machine") in actions(first)
    done = belief([counter, machine, ("Mug", "Mug", (0.5, 1.1, 1.2), "Machine", {})])
    assert actions(p.plan(Goal(None, (put, Subgoal("ToggleObjectOn", "CoffeeMachine"))), done)) == [
        ("ToggleObjectOn", "Machine", None)]


def test_a_slice_said_again_while_believed_done_slices_another_whole():
    """"Slice the potato." said again while the Follower believes its potato sliced (Progress
    Check counts another potato): another whole is sliced, and a third repetition of the same
    words is done by that one slice (the floor is taken once per doubt)."""
    scene = belief([("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
                    ("Knife", "Knife", (0.2, 1.0, 1.0), "Counter", {}),
                    ("Done", "Potato", (-0.3, 1.0, 1.0), "Counter", {"is_sliced": True}),
                    ("Piece", "PotatoSliced", (-0.3, 1.0, 1.0), "Counter", {}),
                    ("Whole", "Potato", (0.4, 1.0, 1.0), "Counter", {})])
    slice_ = Subgoal("SliceObject", "Potato")
    p = planner()
    assert p.plan(Goal(None, (slice_,)), scene).status.state == PlannerState.IDLE  # a slice exists
    p.told(frozenset({"Potato"}), frozenset({"Potato"}))  # said again while idle
    again = Goal(None, (slice_, slice_))
    assert ("SliceObject", "Whole", None) in actions(p.plan(again, scene))
    sliced = belief([("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
                     ("Knife", "Knife", (0.2, 1.0, 1.0), None, {}),
                     ("Done", "Potato", (-0.3, 1.0, 1.0), "Counter", {"is_sliced": True}),
                     ("Whole", "Potato", (0.4, 1.0, 1.0), "Counter", {"is_sliced": True})], held="Knife")
    assert p.plan(Goal(None, (slice_, slice_, slice_)), sliced).status.state == PlannerState.IDLE


def test_a_put_said_again_before_the_follower_did_it_is_a_reminder_not_one_more():
    """TATC 0264: "Place the mug in the coffee machine." said again while the Follower was
    still fetching the mug asked for a second mug in the one-mug coffee machine; it swapped
    mugs in and out for 600 steps. Said again once the put is done: one more."""
    counter = ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {})
    machine = ("Machine", "CoffeeMachine", (0.5, 1.0, 1.2), "Counter", {"is_toggled": False})
    put, on = Subgoal("PutObject", "Mug", "CoffeeMachine"), Subgoal("ToggleObjectOn", "CoffeeMachine")
    away = belief([counter, machine, ("Mug", "Mug", (0.0, 1.0, 0.8), "Counter", {}),
                   ("Other", "Mug", (-0.5, 1.0, 0.8), "Counter", {})])
    inside = belief([counter, machine, ("Mug", "Mug", (0.5, 1.1, 1.2), "Machine", {}),
                     ("Other", "Mug", (-0.5, 1.0, 0.8), "Counter", {})])
    p = planner()
    assert ("PutObject", "Mug", "Machine") in actions(p.plan(Goal(None, (put,)), away))
    reminded = Goal(None, (put, put))  # said again
    for _ in range(len(p.plan(reminded, away).steps)):  # each step handed out and done
        p.skill(p.plan(reminded, away).steps[0], away, None)
    assert p.plan(reminded, inside).status.state == PlannerState.IDLE
    assert actions(p.plan(Goal(None, (put, put, on)), inside)) == [("ToggleObjectOn", "Machine", None)]
    again = Goal(None, (put, put, on, put))  # said again after it was done
    p.skill(p.plan(again, inside).steps[0], inside, None)  # the switch handed out and done
    assert ("PutObject", "Other", "Machine") in actions(p.plan(again, inside))


def test_a_put_said_again_after_the_belief_alone_held_it_done_holds_with_the_followers_own_put():
    """TATC 0031: a cup in the coffee machine was seen as a mug, so "Put the mug in the coffee
    machine." held at once; said again, it asked for one more mug, and once the Follower had
    put its mug in (the cup taken out), one more never fit: it took the mug out and put it back
    for 900 steps. Said again after the Belief alone held it done, the put holds once the mug
    the Follower put there is there."""
    counter = ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {})
    machine = ("Machine", "CoffeeMachine", (0.5, 1.0, 1.2), "Counter", {"is_toggled": False})
    put, on = Subgoal("PutObject", "Mug", "CoffeeMachine"), Subgoal("ToggleObjectOn", "CoffeeMachine")
    mine = ("Mine", "Mug", (0.0, 1.0, 0.8), "Counter", {})
    seen = belief([counter, machine, ("Seen", "Mug", (0.5, 1.1, 1.2), "Machine", {}), mine])
    p = planner()
    fetch = p.plan(Goal(None, (put,)), belief([counter, machine, mine]))
    assert ("PutObject", "Mine", "Machine") in actions(fetch)
    p.skill(fetch.steps[0], seen, None)  # the pickup failed; meanwhile the "mug" in the machine was seen
    failed = SkillFailure(fetch.steps[0], "Mine is unreachable", 1)
    assert p.plan(Goal(None, (put,)), seen, failed).status.state == PlannerState.IDLE  # the Belief holds it done
    assert p.plan(Goal(None, (put, put)), seen).status.state == PlannerState.IDLE  # a reminder: it holds
    said_again = Goal(None, (put, put, put))  # said again while the Follower stood believing it done
    assert ("PutObject", "Mine", "Machine") in actions(p.plan(said_again, seen))
    inside = belief([counter, machine, ("Mine", "Mug", (0.5, 1.1, 1.2), "Machine", {}),
                     ("Seen", "Mug", (0.0, 1.0, 0.8), "Counter", {})])
    p.history.record(LowLevelAction("PutObject", {}, "Mine", "Machine"), inside)
    assert actions(p.plan(Goal(None, (put, put, put, on)), inside)) == [("ToggleObjectOn", "Machine", None)]


def test_a_switch_said_again_while_believed_on_is_switched_again_until_switched_since():
    """TATC 0097: a burner switched on before the pot was put on one (another, in the world);
    "Turn the stove on." said again while the Follower believed it on was answered with Stop
    until the turn limit. Doubted, the burner is off until the Follower switches it on again
    (or is told it already is)."""
    scene = belief([("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
                    ("Burner", "StoveBurner", (0.5, 0.9, 1.0), None, {"is_toggled": True}),
                    ("Pot", "Pot", (0.5, 1.0, 1.0), "Burner", {"is_filled": True})])
    p = planner()
    switch = Subgoal("ToggleObjectOn", "StoveBurner")
    assert p.plan(Goal(None, (switch,)), scene).status.state == PlannerState.IDLE
    p.told(frozenset({"StoveBurner"}), frozenset({"StoveBurner"}))  # said again while idle
    again = Goal(None, (switch, switch))
    assert actions(p.plan(again, scene)) == [("ToggleObjectOn", "Burner", None)]
    assert ("on", "Burner") not in symbolic_state(scene, p.history).facts
    p.history.switched("Burner", True)  # "already on", or switched on since
    assert ("on", "Burner") in symbolic_state(scene, p.history).facts


def test_a_slice_toasted_and_said_again_is_not_the_one_meant():
    """TATC 0217: a "bread slice" in the toaster's slots (none was there) held the step
    "Toast the bread slice." only until the Follower switched the toaster on: never hot, it
    switched the toaster off and on 215 times. Toasted, a slice is hot; said again after each
    of ``REDONE_LIMIT`` toasts, it is not the slice meant and the one elsewhere is fetched."""
    counter = ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {})
    toaster = ("Toaster#1", "Toaster", (0.3, 1.0, 1.0), "Counter", {"is_toggled": False})
    scene = belief([counter, toaster, ("BreadSliced#1", "BreadSliced", (0.3, 1.05, 1.0), "Toaster#1", {}),
                    ("BreadSliced#2", "BreadSliced", (-0.5, 1.0, 1.0), "Counter", {})])
    on = belief([counter, (*toaster[:4], {"is_toggled": True}),
                 ("BreadSliced#1", "BreadSliced", (0.3, 1.05, 1.0), "Toaster#1", {"is_cooked": True}),
                 ("BreadSliced#2", "BreadSliced", (-0.5, 1.0, 1.0), "Counter", {})])
    toast = Subgoal("HeatObject", "BreadSliced", "Toaster")
    p = planner()
    for times in (1, 2):
        goal = Goal(None, (toast,) * times)
        plan = p.plan(goal, scene)
        assert actions(plan)[-1:] == [("ToggleObjectOn", "Toaster#1", None)]
        for _ in range(len(plan.steps)):  # each step handed out and done
            p.skill(p.plan(goal, scene).steps[0], scene, None)
        p.history.record(LowLevelAction("ToggleOn", {}, "Toaster#1"), on)
        assert p.plan(goal, on).status.state == PlannerState.IDLE  # toasted: hot
        p.told(frozenset({"BreadSliced"}), frozenset({"BreadSliced"}))  # said again while idle
    assert p.history.gone("BreadSliced#1")
    assert ("PickupObject", "BreadSliced#2", None) in actions(p.plan(Goal(None, (toast,) * 3), on))


def test_a_receptacle_put_onto_while_the_put_is_said_again_is_left_out():
    """TATC 0145: a pile of potato slices detected as a bowl took 46 puts meant for the bowl
    in the sink while the Commander said "Put a slice of potato in the bowl." again and again.
    Said again after each of ``REPUT_LIMIT`` puts onto it, that "bowl" is not the one meant."""
    counter = ("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {})
    bowls = [("Bowl#1", "Bowl", (-0.4, 1.0, 1.0), "Counter", {}), ("Bowl#2", "Bowl", (1.5, 1.0, 1.5), "Counter", {})]
    put = Subgoal("PutObject", "PotatoSliced", "Bowl")
    slices = {k: (k, "PotatoSliced", (0.3 + 0.05 * i, 1.0, 1.0), "Counter", {}) for i, k in enumerate(("PotatoSliced#1", "PotatoSliced#2", "PotatoSliced#3"))}
    p, onto = planner(), set()

    def put_once(goal: Goal) -> None:
        scene = belief([counter, *bowls, *slices.values()])
        plan = p.plan(goal, scene)
        ((item, bowl),) = [(o, r) for a, o, r in actions(plan) if a == "PutObject"]
        for _ in range(len(plan.steps)):  # each step handed out and done
            p.skill(p.plan(goal, scene).steps[0], scene, None)
        slices[item] = (item, "PotatoSliced", (0.0, 1.0, 0.0), bowl, {})
        after = belief([counter, *bowls, *slices.values()])
        p.history.record(LowLevelAction("PutObject", {}, item, bowl), after)
        assert p.plan(goal, after).status.state == PlannerState.IDLE  # held done, as far as the Belief tells
        onto.add(bowl)

    put_once(Goal(None, (put,)))
    put_once(Goal(None, (put, put)))  # said again once: one more, onto the same (it may want two)
    (first,) = onto
    assert p.history.reput[first] == 1 and not p.history.gone(first)
    again = p.plan(Goal(None, (put, put, put)), belief([counter, *bowls, *slices.values()]))
    assert p.history.gone(first)
    assert [r for a, o, r in actions(again) if a == "PutObject"] == [({"Bowl#1", "Bowl#2"} - onto).pop()]


def test_puts_done_before_a_reminder_of_the_step_count_against_their_receptacle():
    """TATC 0145 again: "Put a slice of potato in the bowl." said while the Follower was still
    on "Place two slices ..." is a reminder; the puts onto the "bowl" since it was said last
    count against that bowl all the same, and a reminder with no put since counts nothing."""
    h = History()
    put = Subgoal("PutObject", "PotatoSliced", "Bowl")
    scene = belief([("Bowl#1", "Bowl", (0.0, 1.0, 1.0), None, {}),
                    ("PotatoSliced#1", "PotatoSliced", (0.0, 1.0, 1.0), "Bowl#1", {})])
    h.remind((put,), 0, 0, None)

    def said(times: int) -> None:
        h.remind((put,) * times, times - 1, 0, None)  # the Follower still on the first

    h.record(LowLevelAction("PutObject", {}, "PotatoSliced#1", "Bowl#1"), scene)
    said(2)
    assert h.reminders == {1: 0} and h.reput["Bowl#1"] == 1
    said(3)  # no put since
    assert h.reput["Bowl#1"] == 1 and not h.gone("Bowl#1")
    h.record(LowLevelAction("PutObject", {}, "PotatoSliced#1", "Bowl#1"), scene)
    said(4)
    assert h.gone("Bowl#1")


def test_toasting_said_as_heating_goes_to_the_toaster():
    """The parser reads "Toast the bread slice." and "Warm up the bread slice in the toaster."
    as HeatObject; a heat step went to the microwave (TATC valid_unseen 0223: FloorPlan10's,
    over the stove, then hid the slice). Bread heated in the toaster or nowhere said is
    toasted; heated in the microwave, it is heated there."""
    scene = belief([("Counter", "CounterTop", (0.0, 0.9, 1.0), None, {}),
                    ("Toaster#1", "Toaster", (0.3, 1.0, 1.0), "Counter", {"is_toggled": False}),
                    ("Microwave#1", "Microwave", (-0.4, 1.1, 1.2), "Counter", {"is_open": False, "is_toggled": False}),
                    ("Knife#1", "Knife", (-0.2, 1.0, 1.0), "Counter", {}),
                    ("Bread#1", "Bread", (0.1, 1.0, 1.0), "Counter", {})])
    for said in (Subgoal("HeatObject", "BreadSliced"), Subgoal("HeatObject", "BreadSliced", "Toaster"),
                 Subgoal("HeatObject", "Bread")):
        steps = actions(planner().plan(Goal(None, (said,)), scene))
        assert ("SliceObject", "Bread#1", None) in steps and ("ToggleObjectOn", "Toaster#1", None) in steps
        assert any(action == "PutObject" and receptacle == "Toaster#1" for action, _, receptacle in steps)
        assert not any(key == "Microwave#1" or receptacle == "Microwave#1" for _, key, receptacle in steps)
    heat = actions(planner().plan(Goal(None, (Subgoal("HeatObject", "BreadSliced", "Microwave"),)), scene))
    assert ("ToggleObjectOn", "Microwave#1", None) in heat and ("ToggleObjectOn", "Toaster#1", None) not in heat


def test_a_switch_on_said_again_for_what_already_runs_switches_it_off_and_on():
    """TATC 0050: "Turn on the faucet." said again while it ran; the step, doubted, was
    clicked 23 times and found "already on" each time. Off, then on: what the Commander
    wants happens as it is switched on. Not said again: "already on" is done."""
    b = belief([("Faucet", "Faucet", (0.0, 1.0, 1.0), None, {"is_toggled": True})])
    dets = [detection("Faucet", (30, 30, 70, 70))]
    history = History()
    history.doubted.add("Faucet")
    s = InteractSkill(PlannedSubgoal(Subgoal("ToggleObjectOn", "Faucet"), "Faucet"), ArrivedNavigator(), CAMERA, history)
    assert s.step(observation(), b, dets).action.action == "ToggleOn"
    off = s.step(observation("ToggleOn", False, "Faucet|1 is already on"), b, dets)
    assert off.state == SkillState.RUNNING and off.action.action == "ToggleOff"
    b_off = belief([("Faucet", "Faucet", (0.0, 1.0, 1.0), None, {"is_toggled": False})])
    on = s.step(observation("ToggleOff"), b_off, dets)
    assert on.action.action == "ToggleOn" and not history.has("Faucet", "switched")
    b_on = belief([("Faucet", "Faucet", (0.0, 1.0, 1.0), None, {"is_toggled": True})])
    assert s.step(observation("ToggleOn"), b_on, dets).state == SkillState.SUCCEEDED
    assert history.has("Faucet", "switched")
    plain = InteractSkill(PlannedSubgoal(Subgoal("ToggleObjectOn", "Faucet"), "Faucet"), ArrivedNavigator(), CAMERA,
                          History())
    plain.step(observation(), b, dets)
    assert plain.step(observation("ToggleOn", False, "Faucet|1 is already on"), b, dets).state == SkillState.SUCCEEDED
