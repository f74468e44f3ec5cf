"""The planner interface: subgoals for a goal from a belief, and the next low-level action.

``plan(goal, belief)`` returns the remaining subgoals; ``next_action(goal, belief,
detections)`` returns the next low-level action that the planner's skills choose for the
first subgoal, or None when there is nothing left to do (or no way to do it).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from contracts.language import Belief, Detection, LowLevelAction, Subgoal


@runtime_checkable
class Planner(Protocol):
    def reset(self) -> None: ...

    def plan(self, goal: Any, belief: Belief) -> list[Subgoal]: ...

    def next_action(self, goal: Any, belief: Belief, detections: list[Detection]) -> LowLevelAction | None: ...
