"""``oracle-planner``: subgoals from Progress Check (TATC) or ALFRED's goal conditions, and
skills scripted from the simulator's state (``simulator.expert.planning.KeyPlanner``).
Ground truth; an oracle.

Its subgoals are Progress Check's unsatisfied problem keys; its actions are the oracle
expert's, with TEACh action names and click positions (never object ids).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from agent.interfaces import OracleModule
from contracts.language import Belief, Detection, LowLevelAction, Subgoal
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
class OraclePlanner(OracleModule):
    def __init__(self) -> None:
        self.keys: KeyPlanner | None = None
        self.queue: deque[LowLevelAction] = deque()

    def attach_oracle(self, access: Any) -> None:
        super().attach_oracle(access)
        goal = goal_for(access.task, access.episode)
        self.keys = KeyPlanner(access.sim, goal) if goal is not None else None
        self.queue.clear()

    def reset(self) -> None:
        self.queue.clear()

    def plan(self, goal: Any, belief: Belief) -> list[Subgoal]:
        if self.keys is None:
            return []
        subgoals = []
        for key in self.keys.goal.keys(self.oracle.world):
            obj = self.oracle.world.objects.get(key.object_id)
            receptacle = key.desired if key.property_name == "parentReceptacles" else None
            subgoals.append(Subgoal(KEY_ACTIONS.get(key.property_name, key.property_name),
                                    obj.object_type if obj else None, receptacle))
        return subgoals

    def next_action(self, goal: Any, belief: Belief, detections: list[Detection]) -> LowLevelAction | None:
        if self.keys is None:
            return None
        if not self.queue:
            for name, target in self.keys.next_chunk():
                click = {k: target[k] for k in ("x", "y") if k in target}
                self.queue.append(LowLevelAction(name, click))
        return self.queue.popleft() if self.queue else None
