"""What the Follower was doing at each action (``agent.evaluation.timeline``, ``nesy timeline``)."""

from __future__ import annotations

import json

import pytest

from agent.cli import main
from agent.evaluation.results import log_name
from agent.evaluation.timeline import kinds, read_timelines, reasons, render, step_kind, timeline
from contracts.errors import NesyError
from contracts.planning import PlannedSubgoal, Subgoal


def act(action, doing="", step=0, success=True, error="", agent=1, utterance="", gave_up=""):
    entry = {"agent_id": agent, "action": action, "time_step": step, "success": success, "errorMessage": error}
    if doing:
        entry["doing"] = doing
    if gave_up:
        entry["gave_up"] = gave_up
    if utterance:
        entry["utterance"] = utterance
    return entry


LOG = [act("Text", agent=0, utterance="Make a plate of toast."),
       act("Turn Left", "search Bread", 1), act("Forward", "search Bread", 2),
       act("Text", "", 3, utterance="Where is the bread?"),  # the Follower's question: not an action
       act("Forward", "search Bread", 4),
       act("Text", agent=0, step=5, utterance="In the fridge."),
       act("Forward", "search Bread", 6),  # after the Commander's words: a new span
       act("Pickup", "PickupObject Bread#2", 7, False, "Bread|+01.00|+00.90 is too far (1.52)"),
       act("Pickup", "PickupObject Bread#2", 8),
       act("Forward", "", 9, gave_up="PickupObject Bread#2: not seen from 3 poses; search Knife: nowhere")]


def test_a_timeline_collapses_actions_into_spans_of_one_step_with_the_commanders_words_between():
    line = timeline({"episode": {"episode_id": "e"}, "interactions": LOG})
    assert line.episode_id == "e"
    assert [e if isinstance(e, str) else (e.doing, e.first, e.last, e.size) for e in line.entries] == [
        "Commander: Make a plate of toast.", ("search Bread", 1, 4, 3), "Commander: In the fridge.",
        ("search Bread", 6, 6, 1), ("PickupObject Bread#2", 7, 8, 2),
        "gave up PickupObject Bread#2: not seen from 3 poses", "gave up search Knife: nowhere",
        ("(not logged)", 9, 9, 1)]  # a log line without ``doing``
    assert line.spans[2].failed == {"Pickup: Bread is too far": 1}
    assert kinds([line, line]) == {"search Bread": 8, "PickupObject Bread": 4, "(not logged)": 2}
    assert reasons([line, line]) == {"PickupObject Bread: not seen from poses": 2, "search Knife: nowhere": 2}
    text = render(line, shortest=2)
    assert "PickupObject Bread#2" in text and "failed Pickup: Bread is too far x1" in text
    assert text.count("... 1 actions in shorter spans") == 2  # before the pickup and at the end


def test_a_step_kind_leaves_out_instance_numbers():
    assert step_kind("PutObject Lettuce#12~3 -> Plate#1") == "PutObject Lettuce -> Plate"


def test_planned_steps_say_what_they_do():
    assert PlannedSubgoal(Subgoal("PickupObject", "Mug")).label == "search Mug"
    assert PlannedSubgoal(Subgoal("PutObject", "Mug", "SinkBasin"), "Mug#1", "SinkBasin#2").label == \
        "PutObject Mug#1 -> SinkBasin#2"
    assert PlannedSubgoal(Subgoal("GotoLocation", "Fridge"), "Fridge#1").label == "GotoLocation Fridge#1"


def write_run(folder, outcomes):
    (folder / "logs").mkdir(parents=True)
    with open(folder / "episodes.jsonl", "w") as rows:
        for episode_id, success in outcomes:
            rows.write(json.dumps({"episode_id": episode_id, "success": success}) + "\n")
            (folder / "logs" / log_name(episode_id)).write_text(json.dumps({"interactions": LOG}))


def test_a_runs_timelines_all_failed_or_chosen_and_clear_errors(tmp_path, capsys):
    write_run(tmp_path, [("a", True), ("b", False)])
    assert [t.episode_id for t in read_timelines(tmp_path)] == ["a", "b"]
    assert [t.episode_id for t in read_timelines(tmp_path, failed_only=True)] == ["b"]
    with pytest.raises(NesyError, match="no episode zzz"):
        read_timelines(tmp_path, ["zzz"])
    with pytest.raises(NesyError, match="no episodes.jsonl"):
        read_timelines(tmp_path / "logs")
    assert main(["timeline", str(tmp_path), "--failed"]) == 0
    out = capsys.readouterr().out
    assert "1 episodes, 7 actions" in out and "steps given up, 2, by reason" in out
    assert main(["timeline", str(tmp_path), "a"]) == 0
    assert "# a" in capsys.readouterr().out
