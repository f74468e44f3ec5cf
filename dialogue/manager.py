"""Dialogue managers: decide when the Follower should ask instead of act.

``DialogueState`` is what the Follower knows about the conversation and its progress;
``next_question(state)`` returns the question to ask, or None. The ``rules`` manager asks
what to do when it has no task, where an object is after failing to find it, and whether
the task is done when its planner has nothing left to do; it never repeats a question
before the Commander has spoken again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from contracts.registry import dialogue_manager

NEXT = "What should I do next?"
DONE = "Are we done?"


@dataclass
class DialogueState:
    has_goal: bool
    planner_idle: bool  # the planner has no action to offer
    missing_object: str | None = None  # an object the Follower could not find
    heard_since_last_question: bool = True


@runtime_checkable
class DialogueManager(Protocol):
    def reset(self) -> None: ...

    def next_question(self, state: DialogueState) -> str | None: ...


@dialogue_manager.register("rules")
class RuleDialogueManager:
    def __init__(self) -> None:
        self.asked: str | None = None

    def reset(self) -> None:
        self.asked = None

    def next_question(self, state: DialogueState) -> str | None:
        if state.heard_since_last_question:
            self.asked = None
        if self.asked is not None:
            return None
        if not state.has_goal:
            question = NEXT
        elif state.missing_object:
            question = f"Where is the {state.missing_object}?"
        elif state.planner_idle:
            question = DONE
        else:
            return None
        self.asked = question
        return question
