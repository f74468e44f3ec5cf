"""Dialogue managers: decide, before the Follower acts, whether it should ask instead.

``rules`` asks "What should I do next?" when the Follower has no goal, "Where is the X?"
when the planner is searching for X, "Which X?" when several instances fit, and "Are we
done?" when the planner has nothing left to do; it never repeats a question before the
Commander has spoken again. ``never`` never asks (the ablation baseline).
"""

from __future__ import annotations

from contracts.dialogue import DialogueManager, DialogueState, Question
from contracts.language import QuestionKind
from contracts.observation import ModuleContext
from contracts.planning import PlannerState
from contracts.registry import dialogue_manager


@dialogue_manager.register("rules")
class RuleDialogueManager(DialogueManager):
    def reset(self, context: ModuleContext) -> None:
        super().reset(context)
        self.asked: Question | None = None

    def next_question(self, state: DialogueState) -> Question | None:
        if state.heard_since_last_question:
            self.asked = None
        if self.asked is not None:
            return None
        status = state.status
        if state.goal.empty:
            question = Question(QuestionKind.NEXT)
        elif status.state == PlannerState.SEARCHING and status.target:
            question = Question(QuestionKind.WHERE, status.target)
        elif status.state == PlannerState.AMBIGUOUS and status.target:
            question = Question(QuestionKind.WHICH, status.target, status.candidates)
        elif status.state == PlannerState.IDLE:
            question = Question(QuestionKind.DONE)
        else:
            return None
        self.asked = question
        return question


@dialogue_manager.register("never")
class SilentDialogueManager(DialogueManager):
    def next_question(self, state: DialogueState) -> Question | None:
        return None
