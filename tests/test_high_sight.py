"""``python -m agent.high_sight``: things put into a microwave over the stove are drawn there
and counted by distance and horizon, whatever the detector makes of them."""

from __future__ import annotations

from agent.high_sight import BINS, HORIZONS, measure


class _Blind:
    """A detector that never finds anything."""

    def attend(self, object_types):
        self.focus = object_types

    def detect(self, observation):
        return []


def test_every_pose_that_draws_the_thing_is_counted_and_a_blind_detector_finds_none():
    result = measure("valid_unseen", seeds=1, detector=_Blind())
    assert result["floor_plans"] == ["FloorPlan10"]  # the valid_unseen kitchen with its microwave over the stove
    rows = result["rows"]
    assert {r["horizon"] for r in rows} == set(HORIZONS)
    assert {r["distance"] for r in rows} <= {f"<{b}" for b in BINS} | {f">={BINS[-1]}"}
    assert sum(r["poses"] for r in rows) > 50 and all(r["detected"] == 0 and r["rate"] in (0, None) for r in rows)
    assert all(r["poses"] <= r["shown"] <= r["facing"] for r in rows)  # 300 pixels drawn show it; not every pose does
    assert sum(r["shown"] for r in rows) < sum(r["facing"] for r in rows)


def test_without_a_detector_only_what_is_drawn_is_counted():
    rows = measure("valid_unseen", seeds=1)["rows"]
    assert all(r["poses"] == 0 and r["rate"] is None for r in rows) and sum(r["shown"] for r in rows) > 50
