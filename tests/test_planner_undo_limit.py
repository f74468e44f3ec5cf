"""Clicks that met "already on/off/open" about a neighbour give the target up after
``MISCLICK_LIMIT`` in all, counted over skills the Commander's words cut short after one
click (TATC valid_unseen 0098: the burners beside the one meant, 29 times in a row)."""

from __future__ import annotations

from planner_scenes import CAMERA, ArrivedNavigator, belief, detection, observation

from contracts.language import Subgoal
from contracts.planning import PlannedSubgoal, SkillState
from planner.history import MISCLICK_LIMIT, History
from planner.skills import InteractSkill


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
