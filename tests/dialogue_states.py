"""Scripted situations for the dialogue-manager tests: a manager built from its params, a
DialogueState with everything defaulted, a kitchen Belief with two mugs."""

from __future__ import annotations

from contracts.belief import Belief, GridMap, ObjectMemory
from contracts.dialogue import DialogueState
from contracts.geometry import CameraIntrinsics, Pose
from contracts.language import Subgoal, TaskSpec
from contracts.observation import ModuleContext
from contracts.planning import Goal, PlannerState, PlannerStatus
from dialogue.manager import RuleDialogueManager

CONTEXT = ModuleContext(CameraIntrinsics(64, 64, 90.0, 1.5), False, seed=0)
PICKUP = Subgoal("PickupObject", "Mug")
TASK = Goal(TaskSpec(teach_task="Coffee"), (PICKUP,))  # a task and a step about the mug
ACTING = PlannerStatus(PlannerState.ACTING, "Mug")


def manager(cls=RuleDialogueManager, **params):
    m = cls(cls.Params(**params))
    m.reset(CONTEXT)
    return m


def kitchen() -> Belief:
    """A sink and a counter ahead of the Follower, a mug in each, a knife on the counter."""
    memory = ObjectMemory()
    sink = memory.add("SinkBasin", (-1.0, 0.9, 2.0))
    counter = memory.add("CounterTop", (1.0, 0.9, 2.0))
    memory.add("Mug", (-1.0, 0.95, 2.0), container=sink.key, states={"is_dirty": True})
    memory.add("Mug", (1.0, 0.95, 2.0), container=counter.key, states={"is_dirty": False})
    return Belief(GridMap.empty((-3, -3), (24, 24), 0.25), memory, Pose(0.0, 0.0, 0.0, 0.0))


def state(goal=TASK, status=ACTING, heard=0, asked=0, step=0, belief=None, steps=(), failure=None, finished=(),
          since=True):
    return DialogueState(goal, status, since, asked, step, belief, tuple(steps), failure, tuple(finished), heard)
