"""ALFRED-L's variants: where the expert stood, what the Follower is told, how success is
judged, and that a Follower follows walks that come after its task."""

from __future__ import annotations

import gzip
import itertools
import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from agent.cli import main
from agent.evaluation.alfred_l import alfred_l_episodes, step_positions, variant_episode
from agent.followers.intents import IntentReader
from agent.runner import goal_conditions
from contracts.language import Subgoal
from contracts.observation import FOLLOWER, FollowerBriefing
from planner.pddl_planner import described_steps
from simulator.alfred.trajectories import Trajectory, load_trajectories
from simulator.episodes.model import POSITION_REACH, Episode
from simulator.start_state import StartState

ROOT = Path(__file__).resolve().parents[1]
ALFRED_DATA = ROOT.parent / "shared" / "data" / "alfred_train.jsonl.gz"


def trajectory() -> Trajectory:
    """Walk to the counter, pick up the apple, walk to the fridge, put it in, walk to the table."""
    high = ({"action": "GotoLocation", "args": ["countertop"]}, {"action": "PickupObject", "args": ["apple"]},
            {"action": "GotoLocation", "args": ["fridge"]}, {"action": "PutObject", "args": ["apple", "fridge"]},
            {"action": "GotoLocation", "args": ["diningtable"]}, {"action": "PutObject", "args": ["apple", "diningtable"]},
            {"action": "NoOp", "args": []})
    low = ({"action": "MoveAhead", "high_idx": 0}, {"action": "MoveAhead", "high_idx": 0},
           {"action": "PickupObject", "high_idx": 1},
           {"action": "RotateRight", "high_idx": 2}, {"action": "MoveAhead", "high_idx": 2},
           {"action": "LookDown", "high_idx": 2}, {"action": "PutObject", "high_idx": 3},
           {"action": "RotateRight", "high_idx": 4}, {"action": "MoveAhead", "high_idx": 4},
           {"action": "MoveAhead", "high_idx": 4}, {"action": "PutObject", "high_idx": 5})
    return Trajectory("trial_x", "pick_and_place_simple", "FloorPlan1", {}, {"x": 1.0, "z": 2.0, "rotation": 0},
                      (), (), False, low, high)


def episode(t: Trajectory) -> Episode:
    steps = ("Go to the counter.", "Pick up the apple.", "Turn right to the fridge.", "Put the apple in the fridge.",
             "Turn right and walk to the table.", "Put the apple on the table.")
    return Episode("trial_x:0", "alfred", "train", t.task_type, StartState("FloorPlan1", (), (1.0, 2.0, 0, 30.0)), len(t.expert_low_actions),
                   goal_text="Put an apple on the table.", step_texts=steps)


def test_the_expert_stands_where_its_recorded_moves_take_it():
    where = step_positions(trajectory())
    assert where[0] == (1.0, 2.5) and where[1] == (1.0, 2.5)  # two steps ahead (+z), then a pickup in place
    assert where[2] == (1.25, 2.5) and where[3] == (1.25, 2.5)  # turned right (+x), one step
    assert where[4] == (1.25, 2.0) and where[5] == (1.25, 2.0) and where[6] == (1.25, 2.0)  # right again (-z), two


def test_variants_keep_or_add_the_right_instructions_and_end_where_the_expert_stood():
    t = trajectory()
    e = episode(t)
    nav = variant_episode(t, e, "nav-only")
    assert nav.goal_text == "" and nav.step_texts == (e.step_texts[0], e.step_texts[2], e.step_texts[4])
    assert nav.final_position == (1.25, 2.0) and nav.variant == "nav-only" and nav.expert_actions == 8
    rev1 = variant_episode(t, e, "rev-1")
    assert rev1.step_texts[:-1] == e.step_texts and rev1.step_texts[-1].endswith("to the fridge.")
    assert rev1.final_position == (1.25, 2.5) and rev1.goal_text == e.goal_text
    revn = variant_episode(t, e, "rev-n")
    assert [s.split(" to the ")[-1] for s in revn.step_texts[-2:]] == ["fridge.", "counter."]
    assert revn.final_position == (1.0, 2.5)
    assert variant_episode(t, replace(e, step_texts=e.step_texts[:3]), "nav-only") is None  # words and steps disagree
    two_walks = replace(t, high_pddl=t.high_pddl[:4] + t.high_pddl[6:])
    assert variant_episode(two_walks, replace(e, step_texts=e.step_texts[:4]), "rev-n") is None  # too few walks


def test_nav_only_success_is_the_end_position_alone():
    e = replace(episode(trajectory()), variant="nav-only", final_position=(1.0, 2.0))
    agents = [SimpleNamespace(x=0.0, z=0.0), SimpleNamespace(x=0.0, z=0.0)]
    sim = SimpleNamespace(world=SimpleNamespace(agents=agents))
    agents[FOLLOWER].x, agents[FOLLOWER].z = 1.0 + POSITION_REACH - 0.01, 2.0
    assert goal_conditions(sim, e, None) == (True, 1, 1)
    agents[FOLLOWER].x = 1.0 + POSITION_REACH + 0.01
    assert goal_conditions(sim, e, None) == (False, 0, 1)


class _Parser:
    """Words -> subgoals by the first word (enough to brief an IntentReader)."""

    def parse_step(self, text: str) -> list[Subgoal]:
        verb, *_, last = text.rstrip(".").split()
        return [Subgoal("GotoLocation" if verb in ("Go", "Walk") else "PickupObject", last.capitalize())]

    def parse_goal(self, goal: str, steps=()):
        return "a task"


def test_walks_alone_are_no_task_and_walks_after_the_last_manipulation_are_followed():
    reader = IntentReader(_Parser())
    walks = reader.briefing_goal(FollowerBriefing("alfred", "", ("Go to the fridge.", "Walk to the table.")))
    assert walks.task is None and [s.object for s in walks.subgoals] == ["Fridge", "Table"]
    told = reader.briefing_goal(FollowerBriefing("alfred", "", ("Go to the fridge.", "Take the apple.")))
    assert told.task == "a task"
    steps = [Subgoal("GotoLocation", "Fridge"), Subgoal("PickupObject", "Apple"), Subgoal("GotoLocation", "Table"),
             Subgoal("PutObject", "Apple", "Table"), Subgoal("GotoLocation", "Fridge")]
    assert described_steps(steps) == 4  # the walk back to the fridge is followed once the task holds
    assert described_steps(steps[:4]) == 4 and described_steps(steps[:1]) == 0


@pytest.mark.skipif(not ALFRED_DATA.is_file(), reason=f"ALFRED data not found at {ALFRED_DATA}")
def test_an_alfred_l_suite_runs_and_is_judged_by_position(tmp_path):
    small = tmp_path / "alfred.jsonl.gz"
    with gzip.open(ALFRED_DATA, "rt") as source:
        lines = [line for line in itertools.islice(source, 0, None, 97)
                 if json.loads(line)["task_type"] == "pick_heat_then_place_in_recep"][:2]
    with gzip.open(small, "wt") as target:
        target.writelines(lines)
    episodes = list(alfred_l_episodes(load_trajectories(small), "alfred-rev-n"))
    assert episodes and all(e.variant == "rev-n" and e.final_position is not None for e in episodes)
    out = tmp_path / "run"
    args = ["eval", "oracle", "--suite", "alfred-rev-n", "--split", episodes[0].split, "--episodes", "2",
            "--out", str(out), f"evaluation.alfred_data={small}", "modules.parser.name=rules"]
    assert main(args) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["suite"] == "alfred-rev-n" and summary["episodes"] == 2
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert all(r["episode_id"].endswith(":rev-n") and r["goal_conditions_total"] >= 2 for r in rows)


def test_the_summary_counts_episodes_that_ended_near_the_expert_and_failures_on_that_alone():
    from agent.evaluation.summary import overview, summarize
    from agent.metrics import episode_metrics

    def row(success: bool, satisfied: int, total: int, distance: float | None) -> dict:
        metrics = episode_metrics(success, satisfied, total, 10, 20).to_dict()
        if distance is not None:
            metrics["final_distance"] = distance
        return {"task_type": "pick_heat_then_place_in_recep", "metrics": metrics, "success": success,
                "goal_conditions_satisfied": satisfied, "goal_conditions_total": total, "steps": 20,
                "failed_actions": 0, "utterances": 0, "questions": 0, "end_reason": "follower_stop"}

    rows = [row(True, 4, 4, 0.5), row(False, 3, 4, POSITION_REACH + 0.025),  # the task held, the end too far
            row(False, 2, 4, 3.0), row(False, 3, 4, 0.25)]  # the task failed, far / near
    summary = summarize(rows, "default", "alfred-rev-n", "dev")
    assert summary["end_position"] == {"episodes": 4, "ended_within": 2, "failed_only_on_position": 1}
    assert "failed only on where they ended: 1" in overview(summary)
    assert summarize([row(True, 4, 4, None)], "default", "alfred", "dev")["end_position"] is None


def test_a_look_at_episode_is_kept_only_if_a_lamp_can_be_in_sight_where_it_ends():
    from agent.evaluation.alfred_l import end_can_hold, solvable
    from simulator.scenes import cell_center
    from simulator.start_state import build_world

    start = StartState("FloorPlan301", (), (0.0, 0.0, 0, 30.0))
    world = build_world(start)
    lamp = world.objects["DeskLamp|-01.31|+01.23|-00.99"].position
    cells = sorted((cell_center(c) for c in world.scene.navigable),
                   key=lambda xz: (xz[0] - lamp[0]) ** 2 + (xz[1] - lamp[2]) ** 2)
    look = Episode("trial_look:0:rev-1", "alfred", "dev", "look_at_obj_in_light", start, 10,
                   pddl_params={"toggle_target": "DeskLamp"}, variant="rev-1", final_position=cells[0])
    far = replace(look, episode_id="trial_far:0:rev-1", final_position=cells[-1])  # across the room from the lamp
    assert end_can_hold(look) and not end_can_hold(far)
    placed = replace(far, episode_id="trial_put:0:rev-1", task_type="pick_and_place_simple")
    assert end_can_hold(placed)  # no other task depends on where it ends
    assert end_can_hold(replace(far, variant="nav-only"))  # no task to hold
    assert [e.episode_id for e in solvable([look, far, placed])] == ["trial_look:0:rev-1", "trial_put:0:rev-1"]


@pytest.mark.skipif(not ALFRED_DATA.is_file(), reason=f"ALFRED data not found at {ALFRED_DATA}")
def test_a_walk_back_names_the_place_a_carried_thing_lay_in_not_the_thing(tmp_path):
    """ALFRED names a walk after the object when it lies on no landmark of its own ("alarmclock")
    and after a movable receptacle ("plate"); once carried away, neither is a place to go back to."""
    trials = ("trial_T20190908_212905_950861", "trial_T20190907_052446_780366")  # look at a clock; a plate into the microwave
    small = tmp_path / "alfred.jsonl.gz"
    with gzip.open(ALFRED_DATA, "rt") as source, gzip.open(small, "wt") as target:
        target.writelines(line for line in source if any(t in line[:200] for t in trials))
    last = {e.episode_id.split(":")[0]: e.step_texts[-1] for e in alfred_l_episodes(load_trajectories(small), "alfred-rev-1")}
    assert last[trials[0]].endswith("back to the side table.")  # not "back to the alarm clock" it holds
    assert last[trials[1]].endswith("back to the counter.")  # not "back to the plate" now in the microwave
