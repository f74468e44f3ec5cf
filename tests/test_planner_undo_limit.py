"""Pickups that keep taking another thing end: the skill gives up after its retries, each
retry clicks elsewhere, and after a few such skills the target is left out like one that
cannot be told apart (as a click that hit a neighbour is). TATC valid_unseen 0121 picked up
and put back what lay at a believed toast slice 436 times, to the turn limit: the skills'
failure ("took or hit another thing") was not counted as a misclick, and the slice's box,
a few pixels wide, had no pixel left that had not failed. Clicks that met "already on/off"
about a neighbour count across skills the Commander's words cut short."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from planner_scenes import CAMERA, ArrivedNavigator, belief, detection, kitchen, observation

from contracts.language import Subgoal
from contracts.planning import PlannedSubgoal, SkillState
from planner.history import MISCLICK_LIMIT, History
from planner.skills import InteractSkill


def _framed(obs, rgb: np.ndarray):
    return replace(obs, rgb=rgb, depth=np.ones(rgb.shape[:2], dtype=np.float32))


def test_pickups_that_keep_taking_the_neighbour_give_the_target_up():
    scene, held = belief(kitchen()), belief(kitchen(), held="Apple")
    dets = [detection("Apple", (55, 50, 70, 65)), detection("Knife", (72, 50, 80, 65)),
            detection("CounterTop", (0, 45, 100, 100))]
    frame = np.full((CAMERA.height, CAMERA.width, 3), 90, np.uint8)
    frame[50:65, 55:70] = (200, 30, 30)  # the apple
    frame[50:65, 72:80] = (30, 30, 200)  # the knife beside it
    took_neighbour = frame.copy()
    took_neighbour[50:65, 72:80] = 90  # every pickup lifts the knife; the apple stays
    history, skills, clicks = History(), 0, []
    while not history.gone("Apple"):
        skills += 1
        assert skills <= MISCLICK_LIMIT, "the target was never given up"
        s = InteractSkill(PlannedSubgoal(Subgoal("PickupObject", "Apple"), "Apple"), ArrivedNavigator(), CAMERA, history)
        result = s.step(_framed(observation(), frame), scene, dets)
        while result.state == SkillState.RUNNING:
            if result.action.action == "Pickup":
                clicks.append(result.action.target)
                result = s.step(_framed(observation("Pickup"), took_neighbour), held, dets)
            else:
                result = s.step(_framed(observation("Place"), frame), scene, dets)  # put back
        assert result.state == SkillState.FAILED
        history.failed("pickup", "Apple", result.reason)
    assert len({(c["x"], c["y"]) for c in clicks}) == len(clicks)  # never the same pixel twice


def test_already_so_about_neighbours_gives_the_target_up_across_skills_cut_short():
    """TATC 0098: the Commander spoke every few steps, each time cutting the burner's skill
    short after one click; the clicks kept hitting the burners beside it ("already off",
    "already on") 29 times in a row, to the failed-action limit. Counted over skills, the
    burner is given up after ``MISCLICK_LIMIT``, and replanning takes another."""
    scene = belief([("Burner", "StoveBurner", (0.0, 1.0, 1.0), None, {"is_toggled": True})])
    dets = [detection("StoveBurner", (30, 50, 70, 70))]
    history, result = History(), None
    for _ in range(MISCLICK_LIMIT):
        s = InteractSkill(PlannedSubgoal(Subgoal("ToggleObjectOff", "StoveBurner"), "Burner"),
                          ArrivedNavigator(), CAMERA, history)
        assert s.step(observation(), scene, dets).action.action == "ToggleOff"
        result = s.step(observation("ToggleOff", False, "StoveBurner|2 is already off"), scene, dets)
        # then the Commander speaks: the skill is dropped after its one click
    assert result.state == SkillState.FAILED and "another object" in result.reason
    history.failed("toggle", "Burner", result.reason)
    assert history.gone("Burner")
