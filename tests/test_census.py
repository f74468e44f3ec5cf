"""Where a run's Follower actions went (``agent.evaluation.census``), from episode logs."""

from __future__ import annotations

import json

from agent.evaluation.census import census, error_kind
from agent.evaluation.results import log_name


def act(action, success=True, error="", agent=1):
    return {"agent_id": agent, "action": action, "success": success, "errorMessage": error}


def write_run(folder, episodes):
    (folder / "logs").mkdir(parents=True)
    rows = []
    for episode_id, interactions, row in episodes:
        rows.append({"episode_id": episode_id, **row})
        (folder / "logs" / log_name(episode_id)).write_text(json.dumps({"interactions": interactions}))
    return rows


def test_the_census_counts_actions_searching_undone_turns_and_failures_by_kind(tmp_path):
    rows = write_run(tmp_path, [
        ("tatc-a:0", [act("Text", agent=0), act("Turn Right"), act("Text"), act("Turn Left"),  # undone (a question between)
                      act("Forward", False, "blocked"), act("Turn Left"), act("Turn Left"),  # not undone
                      act("Place", False, "No object that can be acted on (receptacle) at (0.51, 0.20)"),
                      act("Open", False, "Cabinet|+00.65|+00.48|+00.24 is already open")],
         {"end_reason": "max_steps", "metrics": {"search_steps": 3}}),
        ("tatc-b:0", [act("Turn Left"), act("Turn Right", False, "?"), act("Stop"),  # a failed turn undoes nothing
                      act("Place", False, "No object that can be acted on (receptacle) at (0.2, 0.9)")],
         {"end_reason": "commander_done", "metrics": {"search_steps": 1}}),
    ])
    rows.append({"episode_id": "no-log", "metrics": {"search_steps": 50}})  # its log is missing: left out
    counted = census(tmp_path, rows)
    assert (counted.episodes, counted.actions, counted.search_steps) == (2, 10, 4)
    assert (counted.undone_turns, counted.blocked_moves, counted.at_step_limit) == (1, 2, 1)
    assert counted.failed == {"Place: No object that can be acted on (receptacle) at": 2,
                              "Open: Cabinet is already open": 1}


def test_search_steps_are_unknown_when_a_follower_does_not_count_them(tmp_path):
    rows = write_run(tmp_path, [("a", [act("Forward")], {"metrics": {}}),
                                ("b", [act("Forward")], {"metrics": {"search_steps": 1}})])
    assert census(tmp_path, rows).search_steps is None


def test_a_failure_without_a_message_is_its_action():
    assert error_kind("Pickup", "") == "Pickup"


def test_a_corrupt_log_is_left_out(tmp_path):
    rows = write_run(tmp_path, [("a", [act("Forward")], {})])
    (tmp_path / "logs" / log_name("a")).write_text("{not json")
    assert census(tmp_path, rows).episodes == 0
