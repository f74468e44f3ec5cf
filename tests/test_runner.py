"""The episode runner, the TEACh baseline pairing, the modular Follower and the firewall."""

from __future__ import annotations

import dataclasses

import pytest

from agent.pairing import build_agents
from agent.runner import Agents, run_episode
from agent.settings import load_config
from contracts.agents import FollowerAction
from contracts.observation import Observation
from contracts.planning import Plan, Planner
from contracts.registry import planner
from simulator.episodes.model import load_episodes, shipped_path
from simulator.sim import Simulator

EPISODES = load_episodes(shipped_path("valid_unseen"))[0]
ONE_PER_TYPE = list({e.task_type: e for e in EPISODES}.values())
OBSERVATION_FIELDS = {f.name for f in dataclasses.fields(Observation)}


def test_teach_baseline_completes_every_task_type():
    loaded = load_config("teach-baseline")
    sim = Simulator()
    for episode in ONE_PER_TYPE:
        result, log = run_episode(episode, build_agents(loaded), sim)
        assert result.success, (episode.task_type, result.end_reason)
        assert result.failed_actions == 0 and result.end_reason == "commander_done"
        assert result.oracles == ["commander:teach-lowlevel"]
        assert result.questions >= 1 and result.utterances >= 2
        assert log["interactions"][0]["agent_id"] == 1 and log["interactions"][0]["action"] == "Text"


def test_modular_follower_with_oracle_stand_ins_completes_episodes():
    loaded = load_config("oracle")
    sim = Simulator()
    for episode in ONE_PER_TYPE[::3]:
        agents = build_agents(loaded)
        result, _ = run_episode(episode, agents, sim)
        assert result.success, episode.task_type
        assert {"perception:oracle-visible", "mapper:oracle-map"} <= set(result.oracles)
        assert not any(o.startswith("planner:") for o in result.oracles)  # the pddl planner is a real module


class Spy:
    """Wraps a Follower; records what it is given."""

    def __init__(self, inner):
        self.inner = inner
        self.seen = []

    def oracle_modules(self):
        return getattr(self.inner, "oracle_modules", list)()

    def reset(self, briefing, context):
        self.seen.append(briefing)
        self.inner.reset(briefing, context)

    def act(self, observation):
        self.seen.append(observation)
        return self.inner.act(observation)


def test_follower_receives_only_observations():
    loaded = load_config("teach-baseline")
    agents = build_agents(loaded)
    spy = Spy(agents.follower)
    result, _ = run_episode(ONE_PER_TYPE[0], Agents(spy, agents.commander, agents.oracles), Simulator())
    assert result.success
    briefing, *observations = spy.seen
    assert briefing.goal_text == "" and briefing.step_texts == ()  # TATC: nothing but a Commander
    for observation in observations:
        assert type(observation) is Observation
        assert set(vars(observation)) <= OBSERVATION_FIELDS
        assert all(not hasattr(v, "objects") for v in vars(observation).values())


@planner.register("test-peeking-planner")
class PeekingPlanner(Planner):
    """A non-oracle module that would read ground truth if it were handed any."""

    attached = False

    def attach_oracle(self, access):
        PeekingPlanner.attached = True

    def plan(self, goal, belief, failure=None):
        return Plan.idle()

    def skill(self, step, belief, navigator):
        raise AssertionError("an idle plan has no steps")


def test_ground_truth_reaches_only_modules_named_oracle():
    loaded = load_config("oracle", ["modules.planner.name=test-peeking-planner"])
    agents = build_agents(loaded)
    assert "planner:test-peeking-planner" not in agents.oracles
    result, _ = run_episode(ONE_PER_TYPE[0], agents, Simulator(), limits=(3, 2))
    assert PeekingPlanner.attached is False
    assert not result.success and result.end_reason in ("max_turns", "max_steps", "follower_stop")


def test_limits_end_episodes():
    class Bumper:
        def reset(self, briefing, context):
            pass

        def act(self, observation):
            return FollowerAction("Pickup", {"x": 0.5, "y": 0.01})

    result, _ = run_episode(ONE_PER_TYPE[0], Agents(Bumper(), None, []), Simulator())
    assert result.end_reason == "max_failed" and result.failed_actions == 30 and not result.success


def test_missing_follower_is_a_clear_error():
    from agent.config import ConfigError

    with pytest.raises(ConfigError, match="no follower configured"):
        build_agents(load_config("oracle", ["follower=null"]))


ALFRED_DATA = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared" / "data" / "alfred_train.jsonl.gz"


@pytest.mark.skipif(not ALFRED_DATA.is_file(), reason=f"ALFRED train data not found at {ALFRED_DATA}")
def test_modular_follower_completes_alfred_episodes_of_every_type():
    import itertools

    from simulator.alfred.trajectories import load_trajectories
    from simulator.episodes.alfred import alfred_episodes

    episodes = {}
    for episode in alfred_episodes(itertools.islice(load_trajectories(ALFRED_DATA), 0, None, 40)):
        episodes.setdefault(episode.task_type, episode)
    assert len(episodes) == 7
    loaded = load_config("oracle")
    sim = Simulator()
    for episode in episodes.values():
        result, _ = run_episode(episode, build_agents(loaded), sim)
        assert result.success, (episode.task_type, result.end_reason)
        assert result.suite == "alfred" and result.failed_actions == 0


@pytest.mark.parametrize("parser_name", ["rules", "trained"])
def test_without_words_a_parser_gives_no_goal(parser_name):
    from contracts.registry import parser

    p = parser.build(parser_name)
    assert p.parse_goal("") is None and p.parse_goal("  ", ["", " "]) is None
    assert p.parse_goals([("", ()), ("Put a mug in the sink.", ())])[0] is None
    assert p.parse_goals([("", ()), ("Put a mug in the sink.", ())])[1].object_target == "Mug"


def test_a_rules_parser_follower_gets_its_tatc_task_from_the_commanders_first_utterance():
    loaded = load_config("oracle", ["modules.parser.name=rules", "commander.name=teach-goal"])
    agents = build_agents(loaded)
    assert agents.oracles.count("parser:oracle-parser") == 0
    episode = next(e for e in EPISODES if e.task_type == "Make Coffee")
    goals = []

    class Watch(Spy):
        def act(self, observation):
            action = super().act(observation)
            goals.append((observation.utterances, self.inner.goal))
            return action

    watch = Watch(agents.follower)
    result, _ = run_episode(episode, Agents(watch, agents.commander, agents.oracles), Simulator())
    briefing = watch.seen[0]
    assert briefing.goal_text == "" and agents.follower.reader.briefing_goal(briefing).empty
    heard, goal = goals[0]
    assert heard and heard[0].agent_id == 0  # the Commander spoke first: the task statement
    assert goal.task is not None and goal.task.teach_task == episode.task_name == "Coffee"
    assert result.success


@pytest.mark.skipif(not __import__("simulator.render", fromlist=["available"]).available(),
                    reason="no headless OpenGL (EGL) context")
def test_oracle_seg_with_rendering_runs_end_to_end():
    loaded = load_config("ablations/oracle-seg")
    sim = Simulator(loaded.config.simulator)
    episode = next(e for e in EPISODES if e.task_type == "Water Plant")
    result, _ = run_episode(episode, build_agents(loaded), sim)
    assert "perception:oracle-seg" in result.oracles and result.end_reason != "max_turns"
    assert result.steps > 0
    with pytest.raises(Exception, match="simulator.render=egl"):
        run_episode(episode, build_agents(load_config("oracle", ["modules.perception.name=oracle-seg"])), Simulator())
    sim.close()
