"""A landmark's side seen from its estimated front picks the hinted cabinet or drawer more often
than the nearest one to the landmark does, the Follower's HintBook tries the place both
hints of an answer fit first, and the Commander's landmark answers single the place out for
it more often than not (``python -m agent.hint_sides``)."""

from __future__ import annotations

import pytest

from agent.hint_sides import score


@pytest.fixture(scope="module")
def result():
    return score(seeds=1)


def test_the_estimated_front_beats_the_nearest_place_and_the_recorded_front_bounds_it(result):
    assert result["hints"] > 300
    assert result["nearest_exact"] + 0.05 < result["estimated_front_exact"] <= result["recorded_front_exact"]
    assert result["nearest_column"] + 0.1 < result["estimated_front_column"] <= result["recorded_front_column"]


def test_the_follower_tries_the_place_both_hints_of_an_answer_fit_first(result):
    assert result["first_you"] < result["first_both"] and result["tries_both"] < result["tries_you"]
    assert result["tries_both"] < result["tries_landmark"]


def test_the_commanders_landmark_answers_single_the_place_out_for_the_follower(result):
    # before the Commander chose the relation the Follower reads as this place (stop 47): 0.37
    assert result["first_landmark"] >= 0.5 and result["first_both"] >= 0.5
