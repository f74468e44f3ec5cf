"""``oracle-planner`` (an oracle): subgoals from Progress Check (TATC) or ALFRED's goal
conditions, and skills scripted by the oracle expert (``simulator.expert.planning``).

``plan`` lists the goal's unsatisfied problem keys as subgoals bound to the true objects
(memory keys are objectIds under ``oracle-map``); the goal the Follower parsed is only
checked for being non-empty, the task itself is read from the episode. Its skill executes
the oracle expert's next chunk of actions towards the first unsatisfied key (moves ending
in one interaction, TEACh action names, clicks, never object ids), planned ahead in a
detached copy of the world (``OracleAccess.what_if``); it fails when an action of the chunk
fails or when the expert finds no way, and the next plan starts from the new state.
"""

from __future__ import annotations

from collections import deque

from contracts.agents import OracleModule
from contracts.belief import Belief
from contracts.language import Subgoal
from contracts.navigation import Navigator
from contracts.observation import ModuleContext, Observation
from contracts.perception import Detection
from contracts.planning import (
    Goal,
    LowLevelAction,
    Plan,
    PlannedSubgoal,
    Planner,
    PlannerState,
    PlannerStatus,
    Skill,
    SkillFailure,
    SkillStep,
)
from contracts.registry import planner
from simulator.expert.goals import goal_for
from simulator.expert.planning import KeyPlanner

KEY_ACTIONS = {
    "parentReceptacles": "PutObject", "isDirty": "CleanObject", "isFilledWithLiquid": "FillObject",
    "simbotIsFilledWithCoffee": "FillObject", "isCooked": "HeatObject", "simbotIsCooked": "HeatObject",
    "simbotIsBoiled": "HeatObject", "objectType": "SliceObject", "isSliced": "SliceObject",
    "alfredCleaned": "CleanObject", "alfredHeated": "HeatObject", "alfredCooled": "CoolObject",
    "held": "PickupObject", "isToggledInView": "ToggleObjectOn",
}


@planner.register("oracle-planner")
class OraclePlanner(OracleModule, Planner):
    def reset(self, context: ModuleContext) -> None:
        super().reset(context)
        goal = goal_for(self.oracle.task, self.oracle.episode)
        self.keys = KeyPlanner(self.oracle, goal, copy=self.oracle.what_if) if goal is not None else None

    def plan(self, goal: Goal, belief: Belief, failure: SkillFailure | None = None) -> Plan:
        if self.keys is None:
            return Plan.idle("the episode has no goal the oracle expert knows")
        world = self.oracle.world
        steps = []
        for key in self.keys.goal.keys(world):
            obj = world.objects.get(key.object_id)
            receptacle = key.desired if key.property_name == "parentReceptacles" else None
            subgoal = Subgoal(KEY_ACTIONS.get(key.property_name, key.property_name), obj.object_type if obj else None,
                              world.objects[receptacle].object_type if receptacle in world.objects else receptacle)
            steps.append(PlannedSubgoal(subgoal, key.object_id, receptacle if receptacle in world.objects else None))
        if not steps:
            return Plan.idle("every goal condition holds")
        if failure is not None:
            status = PlannerStatus(PlannerState.FAILING, failure.step.subgoal.object, reason=failure.reason,
                                   failures=failure.failures)
        else:
            status = PlannerStatus(PlannerState.ACTING, steps[0].subgoal.object)
        return Plan(tuple(steps), status)

    def skill(self, step: PlannedSubgoal, belief: Belief, navigator: Navigator) -> Skill:
        return OracleChunkSkill(self.keys)


class OracleChunkSkill(Skill):
    """The oracle expert's next chunk: moves ending in one interaction."""

    def __init__(self, keys: KeyPlanner) -> None:
        self.keys = keys
        self.queue: deque[LowLevelAction] | None = None

    def step(self, observation: Observation, belief: Belief, detections: list[Detection]) -> SkillStep:
        if self.queue is None:
            self.queue = deque(LowLevelAction(name, {k: target[k] for k in ("x", "y") if k in target})
                               for name, target in self.keys.next_chunk())
            if not self.queue:
                return SkillStep.fail(self.keys.last_failure or "the oracle expert found no way to the next goal condition")
        elif not observation.last_action_success:
            return SkillStep.fail(f"{observation.last_action} failed: {observation.error_message}")
        return SkillStep.act(self.queue.popleft()) if self.queue else SkillStep.done()
