"""Every Commander's answer to every question the dialogue managers ask becomes the right
update for the Follower (``agent.followers.intents.IntentReader`` with the rules parser, on
a Belief of the true world): where / which way -> a location hint about the needed object;
which (candidates named by where they are) -> the instance the Commander means picked in
``Goal.preferred``; what next / help -> the next step as subgoals (teach-lowlevel: action
tokens, which the action-executor Follower reads); should I -> a "no" drops the step."""

from __future__ import annotations

import pytest

from agent.commanders.answers import Answerer
from agent.commanders.locations import applies, describe, follower_direction
from agent.commanders.steps import next_step
from agent.followers.action_executor import parse_action_tokens
from agent.followers.intents import IntentReader
from contracts.agents import CommanderContext
from contracts.dialogue import Question
from contracts.geometry import CameraIntrinsics
from contracts.language import QuestionKind, Subgoal, TaskSpec
from contracts.observation import FOLLOWER, ModuleContext
from contracts.planning import Goal
from contracts.registry import commander
from dialogue.generation import Generator
from dialogue.reference import describe_candidates
from dialogue.rules import RulesParser
from mapping.oracle_map import OracleMap
from simulator.episodes.model import load_episodes, shipped_path
from simulator.oracle import OracleAccess
from simulator.sim import COMMANDER, Simulator
from simulator.tasks import instantiate, load_task_library

EPISODES = load_episodes(shipped_path("valid_unseen"))[0]
ONE_PER_TYPE = list({e.task_type: e for e in EPISODES}.values())
LIBRARY = load_task_library()
COMMANDERS = ("teach-subgoal", "teach-goal", "teach-lowlevel")
CAMERA = CameraIntrinsics(300, 300, 90.0, 0.675)
TASK = Goal(TaskSpec(teach_task="Coffee"))  # the Follower's goal before asking (any task)


@pytest.fixture(scope="module")
def parser() -> RulesParser:
    return RulesParser()


class Dialogue:
    """One episode: the Commander, the Follower's reader and its Belief (true world)."""

    def __init__(self, name: str, episode, parser: RulesParser, seed: int = 0) -> None:
        self.sim = Simulator()
        self.sim.reset(episode.start)
        self.task = instantiate(LIBRARY, episode.task_name, episode.task_params)
        self.commander = commander.get(name)()
        self.commander.reset(CommanderContext(self.sim, self.task, episode, seed))
        self.commander.turn(self.sim.observe(COMMANDER))  # the opening
        self.answerer = Answerer(CommanderContext(self.sim, self.task, episode, seed), Generator(0))
        self.mapper = OracleMap()
        self.mapper.attach_oracle(OracleAccess(self.sim, episode))
        self.mapper.reset(ModuleContext(CAMERA, False))
        self.reader = IntentReader(parser)
        self.gen = Generator(seed)

    @property
    def world(self):
        return self.sim.world

    def belief(self):
        return self.mapper.update(self.sim.observe(FOLLOWER), [])

    def ask(self, question: Question, goal: Goal = TASK):
        """The Commander's reply to ``question`` and what it does to ``goal``: (texts, goal, hints)."""
        self.sim.say(FOLLOWER, self.gen.ask(question).text)
        texts = self.commander.turn(self.sim.observe(COMMANDER)).utterances
        updated, hints = self.reader.read(texts, goal)
        return texts, self.reader.answered(question, updated, self.belief()), hints


def _step_subgoals(dialogue: Dialogue) -> list[Subgoal]:
    step = next_step(dialogue.world, dialogue.task)
    return list(step.subgoals) if step else []


def _means(goal: Goal, before: Goal, wanted: list[Subgoal]) -> bool:
    """The goal gained the next step (its subgoals; "Boil the potato." / "Water the plant."
    as a task statement parse to a task)."""
    added = goal.subgoals[len(before.subgoals):]
    if goal.task != before.task:
        return goal.task.teach_task in ("Boil X", "Water Plant")
    return bool(added) and (added[0].action, added[0].object) == (wanted[0].action, wanted[0].object)


@pytest.mark.parametrize("name", COMMANDERS)
def test_where_answers_become_hints_about_the_needed_object(name, parser):
    for episode in ONE_PER_TYPE:
        d = Dialogue(name, episode, parser)
        for object_id in next_step(d.world, d.task).hint_ids[:2]:
            kind = d.world.objects[object_id].object_type
            _, goal, hints = d.ask(Question(QuestionKind.WHERE, kind))
            assert hints and all(h.object == kind for h in hints) and goal == TASK
            assert hints[0].place == describe(d.world, object_id, "landmark").place


@pytest.mark.parametrize("name", COMMANDERS)
def test_which_way_answers_are_hints_relative_to_the_follower(name, parser):
    for episode in ONE_PER_TYPE:
        d = Dialogue(name, episode, parser)
        ids = next_step(d.world, d.task).hint_ids
        if not ids or d.world.holder(ids[0]) is not None:
            continue
        object_id = ids[0]
        obj = d.world.objects[object_id]
        _, goal, hints = d.ask(Question(QuestionKind.DIRECTION, obj.object_type))
        assert len(hints) == 1 and hints[0].object == obj.object_type and hints[0].anchor == "you"
        assert hints[0].direction == follower_direction(d.world, (obj.position[0], obj.position[2]))


@pytest.mark.parametrize("name", COMMANDERS)
def test_which_answers_pick_the_instance_the_commander_means(name, parser):
    forms, picked = set(), 0
    for episode in [e for e in EPISODES if e.task_type in ("Clean All X", "Coffee", "Put All X On Y")][:16]:
        d = Dialogue(name, episode, parser)
        step = next_step(d.world, d.task)
        if not step.hint_ids:
            continue
        kind = d.world.objects[step.hint_ids[0]].object_type
        belief = d.belief()
        keys = tuple(i.key for i in belief.memory.of_type(kind) if d.world.holder(i.key) is None)[:3]
        if len(keys) < 2:
            continue
        needed = d.answerer.task_instance(kind)
        question = Question(QuestionKind.WHICH, kind, keys, places=describe_candidates(belief, keys))
        texts, goal, _ = d.ask(question)
        answer = parser.parse(texts[0])[0]
        forms.add("attribute" if answer.attributes else "side" if answer.direction else "place")
        chosen = goal.preferred_key(kind)
        assert chosen in (needed, None), (texts, needed)  # never the wrong one
        if needed in keys and chosen is None:  # only when the words do not tell them apart
            assert forms_alike(d, needed, keys), texts
        picked += chosen is not None
    assert picked >= 5 and len(forms) >= 2, (picked, forms)


def forms_alike(d: Dialogue, needed: str, keys: tuple[str, ...]) -> bool:
    """The needed one's description also fits another candidate, which lies on the same side
    of the Follower (the Commander's words cannot single it out)."""
    world = d.world
    hint = describe(world, needed, "landmark")

    def side(object_id):
        obj = world.objects[object_id]
        return follower_direction(world, (obj.position[0], obj.position[2]))

    return hint is not None and any(
        applies(world, hint, k) and side(k) == side(needed) for k in keys if k != needed)


@pytest.mark.parametrize("name", COMMANDERS)
def test_next_and_help_answers_become_the_next_step(name, parser):
    rinse = Subgoal("CleanObject", "Mug", "SinkBasin")
    for episode in ONE_PER_TYPE:
        d = Dialogue(name, episode, parser)
        wanted = _step_subgoals(d)
        for question in (Question(QuestionKind.NEXT, report=rinse),
                         Question(QuestionKind.HELP, wanted[0].object, report=wanted[0], report_failed=True)):
            texts, goal, _ = d.ask(question)
            if name == "teach-lowlevel":  # action tokens, for the action-executor Follower
                assert parse_action_tokens(texts[-1]), texts
                continue
            assert _means(goal, TASK, wanted), (texts, wanted)


@pytest.mark.parametrize("name", ("teach-subgoal", "teach-goal"))
def test_a_no_to_should_i_drops_that_step_and_a_yes_keeps_it(name, parser):
    d = Dialogue(name, ONE_PER_TYPE[6], parser)
    wanted = _step_subgoals(d)
    wrong = Subgoal("CleanObject", "Mug", "SinkBasin")
    before = Goal(TASK.task, (wrong,))
    _, goal, _ = d.ask(Question(QuestionKind.CONFIRM, subgoal=wrong), before)
    assert wrong not in goal.subgoals and _means(goal, Goal(TASK.task), wanted)
    right = Goal(TASK.task, (wanted[0],))
    _, goal, _ = d.ask(Question(QuestionKind.CONFIRM, subgoal=wanted[0]), right)
    assert goal == right


@pytest.mark.parametrize("name", COMMANDERS)
def test_are_we_done_changes_nothing_but_teach_subgoal_adds_the_step(name, parser):
    d = Dialogue(name, ONE_PER_TYPE[3], parser)
    wanted = _step_subgoals(d)
    texts, goal, _ = d.ask(Question(QuestionKind.DONE))
    assert parser.parse(texts[0])[0].answer == "no"
    assert (goal == TASK) if name != "teach-subgoal" else _means(goal, TASK, wanted)


def test_a_state_step_said_again_is_doubted_and_a_put_said_again_is_not(parser):
    reader = IntentReader(parser)
    goal, _ = reader.read(["Rinse the mug.", "Place a slice of potato on the plate."], TASK)
    assert reader.repeated == set()
    reader.read(["Rinse the mug.", "Place a slice of potato on the plate."], goal)
    assert reader.repeated == {"Mug"}  # the mug may still be dirty; the plate wants one more slice
    goal, _ = reader.read(["Turn the stove on."], goal)
    reader.read(["Turn the stove on."], goal)
    assert reader.repeated == {"StoveBurner"}  # the burner believed on may not be the one under the pot
