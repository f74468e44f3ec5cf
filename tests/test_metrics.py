"""Metrics helpers: SR, GC and path-length-weighted SR/GC as ALFRED and TEACh compute them."""

from __future__ import annotations

import pytest
from test_tasks_definitions import Kitchen, plate_of_toast

from agent.metrics import (
    MetricsError,
    aggregate,
    aggregate_by,
    episode_metrics,
    metrics_from_progress,
    path_length_weight,
)
from simulator.tasks import instantiate, load_task_library, progress_check


def test_path_length_weight():
    assert path_length_weight(10, 10) == 1.0
    assert path_length_weight(10, 5) == 1.0  # shorter than the expert: no bonus
    assert path_length_weight(10, 40) == 0.25
    assert path_length_weight(0, 0) == 1.0
    with pytest.raises(MetricsError):
        path_length_weight(-1, 3)


def test_episode_metrics():
    m = episode_metrics(True, 4, 4, expert_actions=20, agent_actions=50)
    assert (m.success, m.goal_condition_success, m.path_length_weight) == (1, 1.0, 0.4)
    assert m.plw_success == pytest.approx(0.4) and m.plw_goal_condition_success == pytest.approx(0.4)
    m = episode_metrics(False, 1, 4, expert_actions=20, agent_actions=10)
    assert (m.success, m.goal_condition_success, m.plw_success, m.plw_goal_condition_success) == (0, 0.25, 0.0, 0.25)
    assert episode_metrics(True, 0, 0, 5, 5).goal_condition_success == 1.0
    assert episode_metrics(False, 0, 0, 5, 5).goal_condition_success == 0.0
    with pytest.raises(MetricsError, match="must lie in"):
        episode_metrics(False, 5, 4, 1, 1)


def test_aggregate_is_alfreds():
    episodes = [
        episode_metrics(True, 2, 2, expert_actions=10, agent_actions=20),   # plw 0.5
        episode_metrics(False, 1, 4, expert_actions=30, agent_actions=30),  # gc 0.25
    ]
    out = aggregate(episodes)
    assert out["episodes"] == 2 and out["successes"] == 1 and out["success_rate"] == 0.5
    assert out["goal_condition_success"] == pytest.approx(3 / 6)  # micro, as ALFRED
    assert out["gc_macro"] == pytest.approx((1.0 + 0.25) / 2)
    assert out["plw_success_rate"] == pytest.approx((0.5 * 10 + 0.0 * 30) / 40)
    assert out["plw_goal_condition_success"] == pytest.approx((0.5 * 10 + 0.25 * 30) / 40)
    assert aggregate([e.to_dict() for e in episodes]) == out
    assert aggregate([])["episodes"] == 0
    per = aggregate_by([("Coffee", episodes[0]), ("Salad", episodes[1]), ("Coffee", episodes[0])])
    assert list(per) == ["Coffee", "Salad"] and per["Coffee"]["success_rate"] == 1.0


def test_metrics_from_a_final_progress_check():
    library = load_task_library()
    task = instantiate(library, "Plate Of Toast")
    done = metrics_from_progress(progress_check(plate_of_toast().world, task), expert_actions=40, agent_actions=80)
    assert done.success == 1 and done.goal_condition_success == 1.0 and done.plw_success == 0.5
    start = progress_check(Kitchen(Bread=1, Knife=1, Plate=1).world, task)
    partial = metrics_from_progress(start, expert_actions=40, agent_actions=40)
    assert partial.success == 0
    assert partial.goal_condition_success == pytest.approx(start["goal_conditions_satisfied"] / start["goal_conditions_total"])
    assert 0 < partial.goal_condition_success < 1
