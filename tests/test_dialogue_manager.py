"""The dialogue managers on scripted situations: each trigger of ``rules`` fires when its
situation arises and not otherwise, each can be switched off, the question budget holds, no
question is asked twice without new information; ``always-first`` asks before searching,
``never`` never asks. Questions render to words that parse back to what they mean. (The
budget and the no-repeat rule: ``test_dialogue_budget.py``.)"""

from __future__ import annotations

from dataclasses import replace

import pytest
from dialogue_states import ACTING, CONTEXT, PICKUP, TASK, kitchen, manager, state

from agent.config import ConfigError
from agent.settings import ModuleConfig, build_module
from contracts.dialogue import Question
from contracts.errors import NesyError
from contracts.geometry import Pose
from contracts.language import Act, LocationHint, QuestionKind, Subgoal, TaskSpec
from contracts.planning import Goal, PlannedSubgoal, PlannerState, PlannerStatus, SkillFailure
from dialogue.generation import Generator
from dialogue.manager import AlwaysFirstDialogueManager, SilentDialogueManager
from dialogue.rules import RulesParser


@pytest.fixture(scope="module")
def parser() -> RulesParser:
    return RulesParser()


def said(question: Question, parser: RulesParser):
    """The question in words, checked to parse back to exactly what it means."""
    utterance = Generator(5).ask(question)
    assert [i.meaning() for i in parser.parse(utterance.text)] == [i.meaning() for i in utterance.intents]
    return utterance


def test_no_goal_asks_what_next_and_a_goal_does_not():
    assert manager().next_question(state(goal=Goal())) == Question(QuestionKind.NEXT)
    assert manager().next_question(state()) is None
    assert manager(idle=False).next_question(state(goal=Goal())) is None


def test_stuck_fires_after_repeated_failures_and_says_what_failed(parser):
    step = PlannedSubgoal(PICKUP, "Mug#1")
    once, twice = SkillFailure(step, "Pickup failed", 1), SkillFailure(step, "Pickup failed", 2)
    failing = PlannerStatus(PlannerState.FAILING, "Mug", reason="Pickup failed", failures=2)
    assert manager().next_question(state(status=failing, failure=once, steps=[step])) is None
    m = manager()
    question = m.next_question(state(status=failing, failure=twice, steps=[step]))
    assert (question.kind, question.target, question.report, question.report_failed) == (
        QuestionKind.HELP, "Mug", PICKUP, True)
    text = said(question, parser).text
    assert text.startswith("I could not ") and text.count("mug") == 2 and text.endswith("?")
    # answered, but it failed only once more: not yet again; after two more failures, again
    third = SkillFailure(step, "Pickup failed", 3)
    assert m.next_question(state(status=failing, failure=third, steps=[step], heard=1)) is None
    fourth = SkillFailure(step, "Pickup failed", 4)
    assert m.next_question(state(status=failing, failure=fourth, steps=[step], heard=1, step=3)) == question
    assert manager(stuck=False).next_question(state(status=failing, failure=twice, steps=[step])) is None


def test_a_planner_without_any_plan_asks_for_help_at_once():
    no_plan = PlannerStatus(PlannerState.FAILING, None, reason="no plan reaches the goal")
    m = manager()
    assert m.next_question(state(status=no_plan)) == Question(QuestionKind.HELP)
    assert m.next_question(state(status=no_plan)) is None  # nothing new said since
    assert m.next_question(state(status=no_plan, heard=1)) is None  # the answer did not let it act
    assert m.next_question(state(status=no_plan, heard=1, step=4)) == Question(QuestionKind.HELP)
    assert manager(stuck=False).next_question(state(status=no_plan)) is None
    assert manager().next_question(state(status=no_plan, steps=[PlannedSubgoal(PICKUP, "Mug#1")])) is None
    once = SkillFailure(PlannedSubgoal(PICKUP, "Mug#1"), "Pickup failed", 1)  # an earlier failure, once
    assert manager().next_question(state(status=no_plan, failure=once)) == Question(QuestionKind.HELP)


def test_ambiguity_names_the_candidates_by_where_they_are(parser):
    belief = kitchen()
    step = PlannedSubgoal(PICKUP, "Mug#2")
    question = manager().next_question(state(belief=belief, steps=[step]))
    assert (question.kind, question.target, question.candidates) == (QuestionKind.WHICH, "Mug", ("Mug#2", "Mug#1"))
    assert question.places == (LocationHint("Mug", "on", "CounterTop"), LocationHint("Mug", "in", "SinkBasin"))
    text = said(question, parser).text
    assert "the one on the counter" in text and "the one in the sink" in text


def test_ambiguity_names_only_candidates_the_words_tell_apart():
    # "Which bread, the one in the microwave behind you or the one in the microwave behind
    # you?" (TATC 0265): no answer could pick one
    belief = kitchen()
    belief.memory.add("Mug", (-1.1, 0.95, 2.0), container="SinkBasin#1")
    step = [PlannedSubgoal(PICKUP, "Mug#2")]
    question = manager().next_question(state(belief=belief, steps=step))
    assert question.candidates == ("Mug#2", "Mug#1") and len(set(question.places)) == 2
    del belief.memory.instances["Mug#2"]
    assert manager().next_question(state(belief=belief, steps=[PlannedSubgoal(PICKUP, "Mug#1")])) is None


def test_ambiguity_does_not_fire_without_several_candidates_or_once_one_is_picked():
    belief = kitchen()
    step = [PlannedSubgoal(PICKUP, "Mug#1")]
    assert manager(ambiguity=False).next_question(state(belief=belief, steps=step)) is None
    assert manager().next_question(state(goal=TASK.prefer("Mug", "Mug#1"), belief=belief, steps=step)) is None
    every = Goal(TaskSpec(teach_task="Clean All X", teach_params={"X": "Mug"}))
    assert manager().next_question(state(goal=every, belief=belief, steps=step)) is None  # any mug will do
    del belief.memory.instances["Mug#2"]
    assert manager().next_question(state(belief=belief, steps=step)) is None
    knife = [PlannedSubgoal(Subgoal("PickupObject", "Knife"))]  # a search: not ambiguous
    assert manager(not_found=False).next_question(state(belief=kitchen(), steps=knife)) is None
    two_sinks = kitchen()
    two_sinks.memory.add("SinkBasin", (2.0, 0.9, 2.0))
    faucet_on = [PlannedSubgoal(Subgoal("GotoLocation", "SinkBasin"), "SinkBasin#1")]  # any sink will do
    assert manager().next_question(state(belief=two_sinks, steps=faucet_on)) is None


def test_no_reference_question_about_an_object_only_the_task_implies():
    # "Make coffee.": any mug will do; "Rinse the mug.": which one is the Commander's
    belief, step = kitchen(), [PlannedSubgoal(PICKUP, "Mug#1")]
    assert manager().next_question(state(goal=Goal(TaskSpec(teach_task="Coffee")), belief=belief, steps=step)) is None
    assert manager().next_question(state(belief=belief, steps=step)).kind == QuestionKind.WHICH


def test_no_reference_question_about_the_instance_it_is_working_with_until_its_step_is_done():
    worked_on = kitchen()
    worked_on.memory.instances["Mug#2"].states["handled"] = True  # it picked this one up (or sliced it)
    m = manager()
    assert m.next_question(state(belief=worked_on, steps=[PlannedSubgoal(PICKUP, "Mug#2")])) is None
    assert m.next_question(state(belief=worked_on, steps=[PlannedSubgoal(PICKUP, "Mug#1")])).kind == QuestionKind.WHICH
    # it reported the step done and was told to go on: the next step may mean another mug
    m = manager()
    m.next_question(state(status=PlannerStatus(PlannerState.IDLE), belief=worked_on))
    assert m.next_question(state(belief=worked_on, steps=[PlannedSubgoal(PICKUP, "Mug#2")])).kind == QuestionKind.WHICH


def test_a_step_done_by_the_appliance_alone_still_asks_which_instance_is_meant():
    # "Rinse the dirty mug." with a mug in the basin: the plan is the faucet's alone (no step
    # names a mug), and said again it washed that mug again and again (TATC 0052)
    rinse = Goal(None, (Subgoal("CleanObject", "Mug", "SinkBasin"),))
    tap = [PlannedSubgoal(Subgoal("ToggleObjectOff", "Faucet"), "Faucet#1"),
           PlannedSubgoal(Subgoal("ToggleObjectOn", "Faucet"), "Faucet#1")]
    question = manager().next_question(state(goal=rinse, belief=kitchen(), steps=tap))
    assert (question.kind, question.target) == (QuestionKind.WHICH, "Mug")
    # not when the plan picks one up later, nor for a step that moves it ("Pick up the mug.")
    later = [*tap, PlannedSubgoal(Subgoal("PickupObject", "Mug"), "Mug#1")]
    assert manager().next_question(state(goal=rinse, belief=kitchen(), steps=later)) is None
    assert manager().next_question(state(belief=kitchen(), steps=tap)) is None


def test_a_reference_question_is_not_asked_again_for_the_same_candidates():
    belief = kitchen()
    steps = [PlannedSubgoal(PICKUP, "Mug#2")]
    m = manager()
    first = m.next_question(state(belief=belief, steps=steps))
    assert first.kind == QuestionKind.WHICH
    # answered ("The dirty one.") without singling one out, the Follower acted, and turned
    # so the places read differently: not asked again about the same mugs
    belief.pose = replace(belief.pose, heading=(belief.pose.heading + 180) % 360)
    assert m.next_question(state(belief=belief, steps=steps, heard=2, step=5)) is None
    belief.memory.add("Mug", (3.0, 0.9, 0.5))  # a third mug seen: a new choice
    again = m.next_question(state(belief=belief, steps=steps, heard=3, step=9))
    assert again.kind == QuestionKind.WHICH and len(again.candidates) == 3


def test_nothing_is_asked_about_a_type_without_words():
    knob = PlannerStatus(PlannerState.SEARCHING, "StoveKnob")
    steps = [PlannedSubgoal(Subgoal("ToggleObjectOn", "StoveKnob"))]
    assert manager(explore_budget=0).next_question(state(status=knob, steps=steps, step=5)) is None


def test_a_planner_reporting_ambiguity_gets_a_reference_question():
    status = PlannerStatus(PlannerState.AMBIGUOUS, "Mug", ("Mug#1", "Mug#2"))
    question = manager().next_question(state(status=status, belief=kitchen()))
    assert (question.kind, question.candidates) == (QuestionKind.WHICH, ("Mug#1", "Mug#2"))
    assert len(question.places) == 2


def test_not_found_asks_where_after_the_exploration_budget_then_which_way(parser):
    search = [PlannedSubgoal(Subgoal("PickupObject", "Knife"))]
    searching = PlannerStatus(PlannerState.SEARCHING, "Knife")
    m = manager(explore_budget=10)
    for step in range(10):
        assert m.next_question(state(status=searching, steps=search, step=step)) is None
    where = m.next_question(state(status=searching, steps=search, step=10))
    assert where == Question(QuestionKind.WHERE, "Knife")
    assert said(where, parser).intents[0].question == QuestionKind.WHERE
    # answered; still not found: another budget, then the Follower-relative question
    assert m.next_question(state(status=searching, steps=search, step=19, heard=1)) is None
    way = m.next_question(state(status=searching, steps=search, step=20, heard=1))
    assert way == Question(QuestionKind.DIRECTION, "Knife")
    assert said(way, parser).intents[0].question == QuestionKind.DIRECTION
    assert manager(not_found=False).next_question(state(status=searching, steps=search, step=50)) is None
    assert manager().next_question(state(status=ACTING, steps=[PlannedSubgoal(PICKUP, "Mug#1")], step=50)) is None


def test_which_way_is_asked_at_most_direction_questions_times_per_object():
    search = [PlannedSubgoal(Subgoal("PickupObject", "Knife"))]
    searching = PlannerStatus(PlannerState.SEARCHING, "Knife")
    for cap in (0, 1, 3):
        m = manager(explore_budget=10, direction_questions=cap)
        assert m.next_question(state(status=searching, steps=search, step=0)) is None  # the search starts
        kinds = []
        for k in range(1, 10):  # an answer and a budget of steps between each
            question = m.next_question(state(status=searching, steps=search, step=10 * k, heard=k - 1))
            kinds.append(question.kind if question else None)
        assert kinds == [QuestionKind.WHERE] + [QuestionKind.DIRECTION] * cap + [None] * (8 - cap), cap
    with pytest.raises(NesyError, match="direction_questions must be at least 0"):
        manager(direction_questions=-1)


def test_idle_reports_the_finished_step_and_asks_what_next(parser):
    rinse = Subgoal("CleanObject", "Mug", "SinkBasin")
    idle = PlannerStatus(PlannerState.IDLE, reason="the goal holds")
    question = manager().next_question(state(status=idle, finished=[PICKUP, rinse]))
    assert question == Question(QuestionKind.NEXT, report=rinse)
    utterance = said(question, parser)
    assert utterance.text.startswith("I ") and [i.act for i in utterance.intents] == [Act.REPORT, Act.QUESTION]
    assert utterance.intents[0].subgoals == (rinse,) and utterance.intents[0].answer == "yes"
    assert manager().next_question(state(status=idle)) == Question(QuestionKind.NEXT)
    assert manager(idle=False).next_question(state(status=idle, finished=[rinse])) is None


def test_always_first_asks_where_every_searched_object_is_before_searching():
    steps = [PlannedSubgoal(Subgoal("PickupObject", "Knife")), PlannedSubgoal(Subgoal("SliceObject", "Tomato")),
             PlannedSubgoal(Subgoal("PutObject", "Knife", "CounterTop"), "Knife#1")]
    searching = PlannerStatus(PlannerState.SEARCHING, "Knife")
    m = manager(AlwaysFirstDialogueManager)
    assert m.next_question(state(status=searching, steps=steps)) == Question(QuestionKind.WHERE, "Knife")
    assert m.next_question(state(status=searching, steps=steps, heard=1)) == Question(QuestionKind.WHERE, "Tomato")
    assert m.next_question(state(status=searching, steps=steps, heard=2, step=9)) is None  # each asked once
    assert m.next_question(state(status=searching, steps=steps, heard=2, step=10)).kind == QuestionKind.DIRECTION
    assert manager().next_question(state(status=searching, steps=steps)) is None  # rules: searches first


def test_never_asks_nothing():
    m = SilentDialogueManager()
    m.reset(CONTEXT)
    assert m.next_question(state(goal=Goal())) is None
    assert m.next_question(state(status=PlannerStatus(PlannerState.IDLE))) is None


def test_params_come_from_the_config_and_are_validated():
    built = build_module("dialogue_manager", ModuleConfig("rules", {"explore_budget": 4, "stuck": False}))
    assert (built.params.explore_budget, built.params.stuck, built.params.idle) == (4, False, True)
    assert isinstance(build_module("dialogue_manager", ModuleConfig("always-first")), AlwaysFirstDialogueManager)
    with pytest.raises(ConfigError, match="explore_budget"):
        build_module("dialogue_manager", ModuleConfig("rules", {"explore_budget": -1}))
    with pytest.raises(ConfigError, match="max_question"):
        build_module("dialogue_manager", ModuleConfig("rules", {"max_question": 3}))


def test_reference_answers_pick_a_candidate_only_when_they_single_one_out(parser):
    from agent.followers.intents import IntentReader
    from dialogue.reference import select

    belief = kitchen()  # Mug#1 dirty in the sink (front left), Mug#2 clean on the counter (front right)
    belief.memory.add("Mug", (1.6, 0.95, 0.2), container="CounterTop#1")  # Mug#3: on the counter, to the right
    mugs = ("Mug#1", "Mug#2", "Mug#3")
    reader = IntentReader(parser)
    cases = {"The dirty one.": "Mug#1", "The mug is in the sink.": "Mug#1",
             "The mug is on the counter to your right.": "Mug#3", "The one on the right.": "Mug#3",
             "The mug is on the counter.": None, "Yes.": None}
    for text, expected in cases.items():
        reader.read([text], TASK)
        assert select(mugs, reader.answers, belief) == expected, text
    question = Question(QuestionKind.WHICH, "Mug", mugs[:2])
    goal, _ = reader.read(["The dirty one."], TASK)
    assert reader.answered(question, goal, belief).preferred == (("Mug", "Mug#1"),)
    goal, _ = reader.read(["Hello!"], TASK)
    assert reader.answered(question, goal, belief) == TASK


def test_in_the_follower_loop_a_reference_answer_picks_the_instance_the_planner_then_gets(parser):
    from agent.followers.modular import ModularFollower
    from contracts.language import Parser
    from contracts.mapping import Mapper
    from contracts.observation import FollowerBriefing, Observation, Utterance
    from contracts.perception import Perception
    from contracts.planning import LowLevelAction, Plan, Planner, Skill, SkillStep

    class Kitchen(Mapper):
        def update(self, observation, detections, outcome=None, hints=()):
            return kitchen()

        def navigator(self):
            return None

    class NoPerception(Perception):
        def detect(self, observation):
            return []

    class Pickup(Skill):
        def step(self, observation, belief, detections):
            return SkillStep.act(LowLevelAction("Pickup", {"x": 0.5, "y": 0.5}))

    class MugPlanner(Planner):
        def __init__(self):
            self.goals = []

        def plan(self, goal, belief, failure=None):
            self.goals.append(goal)
            key = goal.preferred_key("Mug") or "Mug#2"
            return Plan((PlannedSubgoal(PICKUP, key),), ACTING)

        def skill(self, step, belief, navigator):
            return Pickup()

    class Rules(Parser):  # the rules parser, with the task statement as the goal
        def parse(self, utterance, context=None):
            return parser.parse(utterance, context)

        def parse_goals(self, items):
            return [TaskSpec(teach_task="Coffee") for _ in items]

        def parse_step(self, instruction):
            return []

    planner = MugPlanner()
    f = ModularFollower({"parser": Rules(), "perception": NoPerception(), "mapper": Kitchen(), "planner": planner,
                         "dialogue_manager": manager()})
    f.reset(FollowerBriefing("tatc", "Make coffee."), CONTEXT)

    def observe(last=None, heard=()):
        return Observation(1, Pose(0, 0, 0, 0), False, last, True, "", [Utterance(0, t, 0) for t in heard])

    asked = f.act(observe(heard=["Pick up the mug."]))  # a step about the mug: which one is meant
    assert asked.action == "Text" and asked.utterance.startswith("Which mug")
    acted = f.act(observe("Text", ["The dirty one."]))
    assert acted.action == "Pickup" and f.goal.preferred == (("Mug", "Mug#1"),)
    assert planner.goals[-1].preferred_key("Mug") == "Mug#1"
