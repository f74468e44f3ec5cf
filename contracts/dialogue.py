"""The dialogue-manager contract: before the Follower acts, decide whether it should ask.

``DialogueManager.next_question(state)`` gets the planner's status (idle / searching for X /
ambiguous among candidates / failing with a reason) and what the Follower knows of the
conversation, and returns a structured ``Question`` (kind, target, candidates) or None.
``dialogue.generation`` renders questions to text; the Commander's answers come back as
intents that the Follower turns into location hints for the mapper or into its goal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from contracts.language import QuestionKind, Subgoal
from contracts.observation import ModuleContext
from contracts.planning import Goal, PlannerStatus


@dataclass(frozen=True)
class Question:
    kind: QuestionKind
    target: str | None = None  # the object type asked about (WHERE, WHICH, CONFIRM)
    candidates: tuple[str, ...] = ()  # memory keys a reference question chooses among
    subgoal: Subgoal | None = None  # the step a confirmation question is about


@dataclass(frozen=True)
class DialogueState:
    goal: Goal  # what the Follower has been asked to do so far (empty: nothing yet)
    status: PlannerStatus  # the planner's status this step
    heard_since_last_question: bool  # the Commander spoke since the Follower last asked
    questions_asked: int = 0  # this episode
    step: int = 0  # Follower steps so far


class DialogueManager(ABC):
    """Planner status + dialogue so far -> a question, or None to let the skill act."""

    def reset(self, context: ModuleContext) -> None:
        self.context = context

    @abstractmethod
    def next_question(self, state: DialogueState) -> Question | None:
        """The question to ask now, or None."""
