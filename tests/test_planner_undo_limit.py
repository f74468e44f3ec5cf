"""Pickups that keep taking another thing end: the skill gives up after its retries, each
retry clicks elsewhere, and after a few such skills the target is left out like one that
cannot be told apart (as a click that hit a neighbour is). TATC valid_unseen 0121 picked up
and put back what lay at a believed toast slice 436 times, to the turn limit: the skills'
failure ("took or hit another thing") was not counted as a misclick, and the slice's box,
a few pixels wide, had no pixel left that had not failed."""

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
