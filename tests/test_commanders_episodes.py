"""The Commanders in whole episodes: paired with the modular Follower by the runner,
seeded, re-instructing an idle or failing Follower, answering a Follower that asks."""

from __future__ import annotations

import re

import pytest

from agent.pairing import build_agents
from agent.runner import Agents, run_episode
from agent.settings import load_config
from contracts.agents import FollowerAction
from contracts.language import Act, ParseContext, QuestionKind
from dialogue import lexicon as lx
from dialogue.generation import Generator
from dialogue.rules import RulesParser
from simulator.episodes.model import load_episodes, shipped_path
from simulator.sim import COMMANDER, FOLLOWER, Simulator

EPISODES = load_episodes(shipped_path("valid_unseen"))[0]
ONE_PER_TYPE = list({e.task_type: e for e in EPISODES}.values())
CONFIGS = {"teach-subgoal": "teach-subgoal", "teach-goal": "oracle"}


@pytest.fixture(scope="module")
def parser() -> RulesParser:
    return RulesParser()


def dialogue(log: dict, agent_id: int = COMMANDER) -> list[str]:
    return [i["utterance"] for i in log["interactions"] if i["action"] == "Text" and i["agent_id"] == agent_id]


def test_configs_pair_the_commanders_with_the_modular_follower():
    for name, config in {**CONFIGS, "teach-goal": "ablations/goal-only-commander"}.items():
        loaded = load_config(config)
        assert loaded.config.commander.name == name and loaded.config.follower.name == "modular"
        assert f"commander:{name}" in build_agents(loaded).oracles


def test_teach_subgoal_params_come_from_the_config():
    from agent.config import ConfigError

    agents = build_agents(load_config("teach-subgoal", ["commander.params.opening=task", "commander.params.idle_turns=2"]))
    assert agents.commander.params.opening == "task" and agents.commander.params.idle_turns == 2
    with pytest.raises(ConfigError, match="opening must be one of"):
        build_agents(load_config("teach-subgoal", ["commander.params.opening=shout"]))


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_modular_follower_completes_episodes_with_the_commander(name, parser):
    loaded = load_config(CONFIGS[name])
    sim = Simulator()
    for episode in ONE_PER_TYPE[::2]:
        result, log = run_episode(episode, build_agents(loaded), sim)
        assert result.success and result.end_reason == "commander_done", (episode.task_type, result.end_reason)
        said = dialogue(log)
        assert said  # at least its verdict (a Follower that knows what to do may never ask)
        for text in said:  # everything the Commander says is understood
            for intent in parser.parse(text, ParseContext(task_known=True)):
                assert intent.act != Act.UNKNOWN and not intent.unknown, text


def test_modular_follower_takes_the_lowlevel_commanders_action_tokens():
    """With no task of its own (a parser, not the oracle one) the modular Follower asks what
    to do next whenever it has nothing to do, as often as it takes, and takes the tokens it
    is told one per step: every action it takes is one it was told."""
    from agent.followers.action_executor import parse_action_tokens
    from dialogue.manager import RuleParams

    loaded = load_config("oracle", ["modules.parser.name=rules"])
    assert loaded.config.commander.name == "teach-lowlevel"
    sim, asked = Simulator(), []
    long_tasks = ("Prepare Breakfast", "Prepare Sandwich", "Make Coffee")  # many pieces to be told
    for episode in [e for e in ONE_PER_TYPE if e.task_type in long_tasks]:
        result, log = run_episode(episode, build_agents(loaded), sim)
        assert result.success and result.end_reason == "commander_done", (episode.task_type, result.end_reason)
        told = [a.action for text in dialogue(log) for a in parse_action_tokens(text) or ()]
        taken = [i["action"] for i in log["interactions"] if i["agent_id"] == FOLLOWER and i["action"] != "Text"]
        assert taken == told[:len(taken)] and len(taken) >= 10
        asked.append(len(dialogue(log, FOLLOWER)))
    assert max(asked) > RuleParams().max_questions  # "What next?" with no goal is not capped


def test_same_seed_same_dialogue_other_seed_other_words():
    loaded = load_config("teach-subgoal")
    sim = Simulator()

    def said(seed: int) -> list[list[str]]:
        return [dialogue(run_episode(e, build_agents(loaded), sim, seed=seed)[1]) for e in ONE_PER_TYPE[:4]]

    assert said(0) == said(0)
    assert said(0) != said(1)


class Idler:
    """A Follower that never does anything (always Stop) or always fails."""

    def __init__(self, failing: bool = False) -> None:
        self.failing = failing

    def reset(self, briefing, context):
        pass

    def act(self, observation):
        return FollowerAction("Pickup", {"x": 0.5, "y": 0.01}) if self.failing else FollowerAction("Stop")


@pytest.mark.parametrize("failing", [False, True])
def test_teach_subgoal_repeats_the_step_to_an_idle_or_failing_follower(failing, parser):
    agents = build_agents(load_config("teach-subgoal"))
    result, log = run_episode(ONE_PER_TYPE[1], Agents(Idler(failing), agents.commander, agents.oracles),
                              Simulator(), limits=(24, 24))
    said = dialogue(log)
    steps = [t for t in said if any(i.act == Act.INSTRUCTION and i.subgoals
                                    for i in parser.parse(t, ParseContext(task_known=True)))]
    assert not result.success and len(steps) >= 3, said


class Asker:
    """The modular Follower, plus questions: what to do at the start, where the object of
    each new instruction is (once per object), which one, and whether it is done before
    stopping. It reads only the dialogue (rules parser)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.parser = RulesParser()
        self.gen = Generator(5)

    def oracle_modules(self):
        return self.inner.oracle_modules()

    def reset(self, briefing, context):
        self.inner.reset(briefing, context)
        self.pending = [self.gen.question(QuestionKind.NEXT).text]
        self.asked: set[str] = set()
        self.stopping = False

    def act(self, observation):
        for utterance in observation.utterances:
            objects = re.findall(r"\b(?:Pickup|Place|Open|Slice|ToggleOn) (\w+) at", utterance.text)  # tokens
            for intent in self.parser.parse(utterance.text, ParseContext(task_known=True)):
                objects += [sg.object for sg in intent.subgoals if sg.object]
            for name in objects:
                if name not in self.asked and name in lx.object_types():
                    self.asked.add(name)
                    self.pending.append(self.gen.question(QuestionKind.WHERE, name).text)
                    self.pending.append(self.gen.question(QuestionKind.WHICH, name).text)
        if self.pending:
            return FollowerAction.say(self.pending.pop(0))
        action = self.inner.act(observation)
        if action.action == "Stop" and not self.stopping:
            self.stopping = True
            return FollowerAction.say(self.gen.question(QuestionKind.DONE).text)
        return action


@pytest.mark.parametrize("name", sorted(CONFIGS) + ["teach-lowlevel"])
def test_every_question_gets_an_answer_in_episodes(name, parser):
    loaded = load_config(CONFIGS.get(name, "oracle"), [f"commander.name={name}"])
    sim = Simulator()
    for episode in ONE_PER_TYPE[1::3]:
        agents = build_agents(loaded)
        result, log = run_episode(episode, Agents(Asker(agents.follower), agents.commander, agents.oracles), sim)
        assert result.success and result.questions >= 2, (episode.task_type, result.end_reason)
        turns = [(i["agent_id"], i["utterance"]) for i in log["interactions"] if i["action"] == "Text"]
        for k, (who, text) in enumerate(turns[:-1]):
            if who == FOLLOWER and text.endswith("?"):
                reply = next((t for w, t in turns[k + 1:] if w == COMMANDER), None)
                assert reply is not None, text
                if name == "teach-lowlevel" and "next" in text.lower():
                    continue  # action tokens
                acts = {i.act for i in parser.parse(reply, ParseContext(task_known=True))}
                assert acts & {Act.ANSWER, Act.INSTRUCTION}, (text, reply)
