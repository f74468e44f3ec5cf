"""The planning contract: a ``Planner`` turns the goal and the Belief into subgoals bound to
memory instances; a ``Skill`` executes one subgoal as low-level actions.

Planning is split from acting. ``Planner.plan(goal, belief, failure)`` returns a ``Plan``:
the subgoals still to do, each bound to the instances it acts on (or marked as a search
when its object is unknown), and a ``PlannerStatus`` (idle / acting / searching for X /
ambiguous among candidates / failing with a reason) that the dialogue manager reads before
the Follower acts. ``Planner.skill(step, belief, navigator)`` gives the skill for one planned step (moving
with the mapper's ``Navigator``);
``Skill.step`` emits the next ``LowLevelAction`` or reports that the subgoal succeeded or
failed (with a reason). The last action's result reaches the skill (in the observation) and
the planner (a failed skill's ``SkillFailure`` is passed to the next ``plan`` call): that is
the replanning signal.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from contracts.language import Subgoal, TaskSpec
from contracts.observation import ModuleContext, Observation

if TYPE_CHECKING:  # pragma: no cover
    from contracts.belief import Belief
    from contracts.navigation import Navigator
    from contracts.perception import Detection


@dataclass(frozen=True)
class Goal:
    """What the Follower has been asked to do: a whole task (ALFRED task type + params, or a
    TEACh task and its parameters) and/or subgoals given step by step in dialogue."""

    task: TaskSpec | None = None
    subgoals: tuple[Subgoal, ...] = ()
    # (object type, memory key): the instance the Commander picked for a type in answer to a
    # reference question ("Which mug?" -> "The dirty one."); planners bind that type to it
    # while it is in memory. At most one key per type; the dialogue adds it, nothing else.
    preferred: tuple[tuple[str, str], ...] = ()

    @property
    def empty(self) -> bool:
        return self.task is None and not self.subgoals

    def preferred_key(self, object_type: str | None) -> str | None:
        """The memory key the Commander picked for ``object_type``, if any."""
        return next((key for kind, key in self.preferred if kind == object_type), None)

    def prefer(self, object_type: str, key: str) -> Goal:
        """This goal with ``key`` as the picked instance of ``object_type`` (replacing any);
        itself when that one is picked already (the Follower replans on a changed goal)."""
        if self.preferred_key(object_type) == key:
            return self
        kept = tuple(p for p in self.preferred if p[0] != object_type)
        return Goal(self.task, self.subgoals, (*kept, (object_type, key)))


@dataclass(frozen=True)
class PlannedSubgoal:
    """A subgoal bound to the memory instances it acts on. ``object_key`` None with an object
    type means the object is not in memory yet: a search."""

    subgoal: Subgoal
    object_key: str | None = None
    receptacle_key: str | None = None

    @property
    def search(self) -> bool:
        return self.object_key is None and self.subgoal.object is not None

    @property
    def label(self) -> str:
        """The step in a few words: "search Plate", "PutObject Lettuce#2 -> Plate#1"."""
        if self.search:
            return f"search {self.subgoal.object}"
        words = [self.subgoal.action, self.object_key or self.subgoal.object or ""]
        if self.receptacle_key or self.subgoal.receptacle:
            words += ["->", self.receptacle_key or self.subgoal.receptacle or ""]
        return " ".join(w for w in words if w)


class PlannerState(StrEnum):
    IDLE = "idle"  # nothing (left) to do
    ACTING = "acting"  # executing a plan
    SEARCHING = "searching"  # the next step's object is not in memory: exploring for it
    AMBIGUOUS = "ambiguous"  # several instances fit the next step's object
    FAILING = "failing"  # the same subgoal keeps failing


@dataclass(frozen=True)
class PlannerStatus:
    state: PlannerState
    target: str | None = None  # the object type searched for / ambiguous / failing on
    candidates: tuple[str, ...] = ()  # memory keys (AMBIGUOUS)
    reason: str = ""  # why it is failing (or idle)
    failures: int = 0  # consecutive failures of the current subgoal
    exploring: bool = False  # SEARCHING only for more of what the task is about (all X seen are done)


@dataclass(frozen=True)
class Plan:
    steps: tuple[PlannedSubgoal, ...]
    status: PlannerStatus

    @classmethod
    def idle(cls, reason: str = "") -> Plan:
        return cls((), PlannerStatus(PlannerState.IDLE, reason=reason))


@dataclass(frozen=True)
class LowLevelAction:
    """A simulator action by name (TEACh or ALFRED vocabulary) and its target: a click
    ``{"x": .., "y": ..}`` (relative, y down) for interactions, never an object id. The
    memory keys say which believed instances the action is meant for, so the mapper can
    update the memory from the action's result."""

    action: str
    target: dict[str, Any] = field(default_factory=dict)
    object_key: str | None = None
    receptacle_key: str | None = None


@dataclass(frozen=True)
class ActionOutcome:
    """The Follower's last low-level action and what the simulator said of it."""

    action: LowLevelAction
    success: bool
    error: str = ""


# AI2-THOR's refusal of a put names both types: "Cannot place CreditCard in CoffeeMachine"
_REFUSED_PLACEMENT = re.compile(r"Cannot place ([A-Za-z]+) in ([A-Za-z]+)")


def refused_placement(error: str) -> tuple[str, str] | None:
    """(held type, receptacle type) that a put's error names, or None for another error."""
    found = _REFUSED_PLACEMENT.search(error)
    return (found.group(1), found.group(2)) if found else None


# AI2-THOR's refusal to open, close or switch what already is so names it by its object id:
# "Toaster|+00.98|+00.90|+00.33 is already on"
_ALREADY_SO = re.compile(r"([A-Za-z]+)\|\S* is already (?:open|closed|on|off)")


def already_so(error: str) -> str | None:
    """The type of the object an "... is already on" (open, closed, off) error names, or None."""
    found = _ALREADY_SO.search(error)
    return found.group(1) if found else None


class SkillState(StrEnum):
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


@dataclass(frozen=True)
class SkillStep:
    """A skill's answer for one Follower step: an action to take (RUNNING), or the end of
    the subgoal (SUCCEEDED / FAILED with a reason; no action)."""

    state: SkillState
    action: LowLevelAction | None = None
    reason: str = ""

    @classmethod
    def act(cls, action: LowLevelAction) -> SkillStep:
        return cls(SkillState.RUNNING, action)

    @classmethod
    def done(cls) -> SkillStep:
        return cls(SkillState.SUCCEEDED)

    @classmethod
    def fail(cls, reason: str) -> SkillStep:
        return cls(SkillState.FAILED, reason=reason)


@dataclass(frozen=True)
class SkillFailure:
    """What the planner hears when a skill gives up."""

    step: PlannedSubgoal
    reason: str
    failures: int  # consecutive failures of this subgoal


class Skill(ABC):
    """Executes one planned subgoal, one low-level action per call."""

    @abstractmethod
    def step(self, observation: Observation, belief: Belief, detections: list[Detection]) -> SkillStep:
        """The next action, or SUCCEEDED / FAILED. ``observation`` carries the result of
        the action this skill returned last."""

    def finished_by_last_action(self, observation: Observation, belief: Belief) -> bool:
        """Asked when the Follower drops this skill for new instructions, before it does:
        did the action this skill returned last (its result in ``observation``) finish the
        subgoal? A skill that reads its outcomes records them here too. Default: no."""
        return False


class Planner(ABC):
    """Goal + Belief -> Plan; planned step -> Skill. ``reset`` starts an episode."""

    def reset(self, context: ModuleContext) -> None:
        self.context = context

    @abstractmethod
    def plan(self, goal: Goal, belief: Belief, failure: SkillFailure | None = None) -> Plan:
        """The remaining subgoals for ``goal`` under ``belief`` and the planner's status.
        Called whenever the Follower has no running skill (at the start, after a skill ends,
        when the goal changes); ``failure`` is the skill failure that ended the last one."""

    @abstractmethod
    def skill(self, step: PlannedSubgoal, belief: Belief, navigator: Navigator) -> Skill:
        """The skill that executes ``step``, moving the Follower with ``navigator``."""

    def told(self, object_types: frozenset[str], doubted: frozenset[str] = frozenset()) -> None:
        """The Commander spoke of these object types (a step, where one is): what the
        planner gave up on about them may be found now. ``doubted``: types of a step it
        repeated while the plan was idle (believed done) or failing, so what the planner
        believes of them may be wrong. Default: nothing."""
        return None
