"""The dialogue managers' limits on scripted situations: one question at a time, never the
same without new information, the question budget (what it does not count: "What next?" with
nothing to do, or after reporting a step finished), and a search only for more of an "all X"
task asking what is left rather than where."""

from __future__ import annotations

from dataclasses import replace

from dialogue_states import TASK, manager, state

from contracts.dialogue import Question
from contracts.language import QuestionKind, Subgoal
from contracts.planning import Goal, PlannedSubgoal, PlannerState, PlannerStatus
from dialogue.manager import AlwaysFirstDialogueManager, RuleDialogueManager


def test_one_question_at_a_time_and_never_the_same_without_new_information():
    m = manager()
    assert m.next_question(state(goal=Goal())) == Question(QuestionKind.NEXT)
    assert m.next_question(state(goal=Goal(), since=False)) is None  # unanswered: wait
    assert m.next_question(state(goal=Goal(), since=True, heard=0, step=1)) is None  # nothing new was said
    assert m.next_question(state(goal=Goal(), since=True, heard=1)) is None  # an answer it did not act on
    assert m.next_question(state(goal=Goal(), since=True, heard=1, step=1)) == Question(QuestionKind.NEXT)


def test_the_question_budget_holds_except_for_what_next_with_no_goal_at_all():
    idle = PlannerStatus(PlannerState.IDLE, reason="the goal holds")
    for goal, budget in ((TASK, 3), (Goal(), 10)):  # "What next?" with nothing to do is not capped
        m = manager(max_questions=3)
        asked = 0
        for heard in range(10):
            if m.next_question(state(goal=goal, status=idle, heard=heard, asked=asked, step=heard)) is not None:
                asked += 1
        assert asked == budget
    assert manager(max_questions=0).next_question(state(status=idle)) is None
    assert manager(max_questions=0).next_question(state(goal=Goal())) == Question(QuestionKind.NEXT)


def test_reporting_a_finished_step_and_asking_for_the_next_is_not_capped_unless_cap_reports():
    idle = PlannerStatus(PlannerState.IDLE, reason="the goal holds")
    rinse, fill = Subgoal("CleanObject", "Mug"), Subgoal("FillObject", "Mug")
    report = Question(QuestionKind.NEXT, report=rinse)
    for cap_reports, alternate, budget in ((False, True, 10), (True, True, 3), (False, False, 4)):
        m = manager(max_questions=3, cap_reports=cap_reports)
        asked = 0
        for heard in range(10):
            done = fill if alternate and heard % 2 else rinse  # the same step reported again is no news
            if m.next_question(state(status=idle, heard=heard, asked=asked, step=heard, finished=[done])) is not None:
                asked += 1
        assert asked == budget
    m = manager(max_questions=1)
    assert m.next_question(state(status=idle, finished=[rinse])) == report  # free: the budget is left
    searching = PlannerStatus(PlannerState.SEARCHING, "Knife")
    steps = [PlannedSubgoal(Subgoal("PickupObject", "Knife"))]  # not in memory: a search
    assert m.next_question(state(status=searching, steps=steps, heard=1, step=1)) is None
    assert m.next_question(state(status=searching, steps=steps, heard=1, step=12)) == Question(QuestionKind.WHERE, "Knife")
    assert m.next_question(state(status=idle, heard=2, step=13)) is None  # no step finished: capped, spent


def test_looking_only_for_more_of_an_all_x_task_asks_what_next_not_where():
    exploring = PlannerStatus(PlannerState.SEARCHING, "Lettuce", exploring=True)
    steps = [PlannedSubgoal(Subgoal("PickupObject", "Lettuce"))]
    put = Subgoal("PutObject", "Potato", "Fridge")
    for cls in (RuleDialogueManager, AlwaysFirstDialogueManager):
        m = manager(cls)
        assert m.next_question(state(status=exploring, steps=steps, step=1)) == Question(QuestionKind.NEXT)
        m = manager(cls)
        m.next_question(state(status=exploring, steps=steps, step=1, finished=[put]))
        later = m.next_question(state(status=exploring, steps=steps, heard=1, step=30))
        assert later == Question(QuestionKind.NEXT)  # asked again after an answer, never "Where is a lettuce?"
    searching = replace(exploring, exploring=False)
    assert manager().next_question(state(status=searching, steps=steps, step=1)) is None
    assert manager(idle=False).next_question(state(status=exploring, steps=steps, step=1)) is None
