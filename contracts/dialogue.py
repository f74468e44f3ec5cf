"""The dialogue-manager contract: before the Follower acts, decide whether it should ask.

``DialogueManager.next_question(state)`` gets the planner's status (idle / searching for X /
ambiguous among candidates / failing with a reason), what the Follower believes (the
Belief, the plan's steps, the last skill failure, the steps it finished since it last
spoke) and what it knows of the conversation, and returns a structured ``Question`` (kind,
target, candidates and where they are, a step to report first) or None.
``dialogue.generation`` renders questions to text; the Commander's answers come back as
intents that the Follower turns into location hints for the mapper, into its goal, or (an
answer to a reference question) into ``Goal.preferred``, the instance picked for a type.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from contracts.language import LocationHint, QuestionKind, Subgoal
from contracts.observation import ModuleContext
from contracts.planning import Goal, PlannedSubgoal, PlannerStatus, SkillFailure

if TYPE_CHECKING:  # pragma: no cover
    from contracts.belief import Belief


@dataclass(frozen=True)
class Question:
    kind: QuestionKind
    target: str | None = None  # the object type asked about (WHERE, WHICH, DIRECTION, HELP)
    candidates: tuple[str, ...] = ()  # memory keys a reference question chooses among
    subgoal: Subgoal | None = None  # the step a confirmation question is about
    places: tuple[LocationHint, ...] = ()  # where each candidate is (WHICH: "the one in the sink")
    report: Subgoal | None = None  # a step said before the question ("I rinsed the mug.")
    report_failed: bool = False  # ... that could not be done ("I could not open the fridge.")


@dataclass(frozen=True)
class DialogueState:
    goal: Goal  # what the Follower has been asked to do so far (empty: nothing yet)
    status: PlannerStatus  # the planner's status this step
    heard_since_last_question: bool  # the Commander spoke since the Follower last asked
    questions_asked: int = 0  # this episode
    step: int = 0  # Follower steps (low-level actions) so far
    belief: Belief | None = None  # the mapper's Belief this step (candidates, where they are)
    steps: tuple[PlannedSubgoal, ...] = ()  # the plan's remaining steps
    failure: SkillFailure | None = None  # the skill failure the planner last heard of
    finished: tuple[Subgoal, ...] = ()  # subgoals the Follower finished since it last spoke
    heard: int = 0  # Commander utterances heard this episode (new information arrives)


class DialogueManager(ABC):
    """Planner status + dialogue so far -> a question, or None to let the skill act."""

    def reset(self, context: ModuleContext) -> None:
        self.context = context

    @abstractmethod
    def next_question(self, state: DialogueState) -> Question | None:
        """The question to ask now, or None."""
