"""A landmark's side seen from its estimated front picks the hinted cabinet or drawer more often
than the nearest one to the landmark does (``python -m agent.hint_sides``)."""

from __future__ import annotations

from agent.hint_sides import score


def test_the_estimated_front_beats_the_nearest_place_and_the_recorded_front_bounds_it():
    result = score(seeds=1)
    assert result["hints"] > 300
    assert result["nearest_exact"] + 0.05 < result["estimated_front_exact"] <= result["recorded_front_exact"]
    assert result["nearest_column"] + 0.1 < result["estimated_front_column"] <= result["recorded_front_column"]
