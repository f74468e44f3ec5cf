"""The oracle task expert: completes a TEACh task by fixing what Progress Check reports.

Like TEACh's rule-based agents (appendix E), it repeatedly runs Progress Check, takes the
first unsatisfied problem key and runs a hand-written skill for its property:
parentReceptacles (carry the object there), isDirty (rinse under the faucet),
isFilledWithLiquid (fill at the faucet, or water a plant by pouring), simbotIsFilledWithCoffee
(the coffee machine), isCooked/simbotIsCooked (toaster for bread, else the microwave),
simbotIsBoiled (a pot of water on a lit burner) and objectType/isSliced (slice with a knife).
It reads ground truth: wherever it is used it is named as an oracle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.actions import placement_allowed
from simulator.expert.actor import OracleActor, SkillFailed
from simulator.expert.solver_keys import ProblemKey
from simulator.sim import Simulator

MAX_ROUNDS = 80
FILL_CONTAINERS = ("Cup", "Mug", "Bowl", "Pot", "WateringCan", "Kettle", "Bottle")


@dataclass
class SolveResult:
    success: bool
    actions: int
    failed_actions: int
    reason: str = ""


class TaskExpert:
    """Fix problem keys one at a time with an ``OracleActor``."""

    def __init__(self, sim: Simulator, goal: Any, max_actions: int = 1000) -> None:
        """``goal``: a ``TeachGoal`` / ``AlfredGoal`` (``simulator.expert.goals``) or a TEACh
        task instance (wrapped in a ``TeachGoal``)."""
        from simulator.expert.goals import TeachGoal

        self.sim = sim
        self.goal = goal if hasattr(goal, "keys") and hasattr(goal, "done") else TeachGoal(goal)
        self.actor = OracleActor(sim, max_actions=max_actions)

    @property
    def world(self):
        return self.sim.world

    def solve(self) -> SolveResult:
        try:
            for _ in range(MAX_ROUNDS):
                if self.goal.done(self.world):
                    return self._result(True)
                keys = self.goal.keys(self.world)
                if not keys:
                    return self._result(False, "no unsatisfied problem keys, yet the goal is not met")
                self.fix(keys[0])
            return self._result(False, f"not done after {MAX_ROUNDS} rounds")
        except SkillFailed as exc:
            return self._result(False, str(exc))

    def _result(self, success: bool, reason: str = "") -> SolveResult:
        return SolveResult(success, len(self.actor.actions), self.actor.failed, reason)

    # ------------------------------------------------------------------ skills
    def fix(self, key: ProblemKey) -> None:
        name = key.property_name
        if key.object_id not in self.world.objects:
            raise SkillFailed(f"problem key names a missing object {key.object_id}")
        if name == "parentReceptacles":
            self.actor.put(key.object_id, self._receptacle_for(key))
        elif name == "isDirty":
            self.rinse(key.object_id)
        elif name == "isFilledWithLiquid":
            self.fill(key.object_id)
        elif name == "simbotIsFilledWithCoffee":
            self.brew(key.object_id)
        elif name in ("isCooked", "simbotIsCooked"):
            self.cook(key.object_id)
        elif name == "simbotIsBoiled":
            self.boil(key.object_id)
        elif name in ("objectType", "isSliced"):
            self.actor.slice(key.object_id)
        elif name == "alfredCleaned":
            self.rinse(key.object_id)
        elif name == "alfredHeated":
            self.microwave(key.object_id)
        elif name == "alfredCooled":
            self.chill(key.object_id)
        elif name == "held":
            self.actor.pick(key.object_id)
        elif name == "isToggledInView":
            self.actor.switch(key.object_id, False)
            self.actor.switch(key.object_id, True)
        else:
            raise SkillFailed(f"no skill for problem key {name!r}")

    def _receptacle_for(self, key: ProblemKey) -> str:
        if key.receptacle_id and key.receptacle_id in self.world.objects:
            return key.receptacle_id
        wanted = key.desired if isinstance(key.desired, str) else str(key.desired)
        if wanted in self.world.objects:
            return wanted
        mover = self.world.objects[key.object_id].object_type
        candidates = [
            o for o in self.world.objects.values()
            if o.object_type == wanted and o.object_id != key.object_id and placement_allowed(o.object_type, mover)
        ]
        if not candidates:
            raise SkillFailed(f"no {wanted} to put {key.object_id} in")
        # prefer one that already holds the same kind of object (Put All X In One Y), then the nearest
        def score(o):
            same = sum(self.world.objects[c].object_type == mover for c in o.children)
            return (-same, self.actor.distance_to(o.position), o.object_id)
        return min(candidates, key=score).object_id

    def _faucet_for(self, basin_id: str) -> str:
        for switch, targets in self.world.scene.controls.items():
            if basin_id in targets and switch in self.world.objects:
                return switch
        raise SkillFailed(f"no faucet feeds {basin_id}")

    def _under_running_water(self, object_id: str) -> None:
        basin = self.actor.nearest_of(("SinkBasin", "BathtubBasin"))
        if not basin:
            raise SkillFailed("no sink in the scene")
        faucet = self._faucet_for(basin[0])
        self.actor.switch(faucet, False)
        self.actor.put(object_id, basin[0])
        self.actor.switch(faucet, True)
        self.actor.switch(faucet, False)

    def rinse(self, object_id: str) -> None:
        self._under_running_water(object_id)

    def fill(self, object_id: str) -> None:
        target = self.world.objects[object_id]
        if target.pickupable:
            self._under_running_water(object_id)
            return
        containers = [
            c for c in self.actor.nearest_of(FILL_CONTAINERS)
            if self.world.objects[c].pickupable and self.world.objects[c].fillable
        ]
        if not containers:
            raise SkillFailed(f"nothing to carry water to {object_id} in")
        container = containers[0]
        if not self.world.objects[container].is_filled:
            self._under_running_water(container)
        self.actor.pick(container)
        self.actor.pour_into(object_id)

    def brew(self, mug_id: str) -> None:
        machines = self.actor.nearest_of(("CoffeeMachine",))
        if not machines:
            raise SkillFailed("no coffee machine in the scene")
        self.actor.switch(machines[0], False)
        self.actor.put(mug_id, machines[0])
        self.actor.switch(machines[0], True)
        self.actor.switch(machines[0], False)

    def cook(self, object_id: str) -> None:
        kind = self.world.objects[object_id].object_type
        toasters = self.actor.nearest_of(("Toaster",))
        if kind == "BreadSliced" and toasters:
            self.actor.put(object_id, toasters[0])
            self.actor.switch(toasters[0], True)
            self.actor.switch(toasters[0], False)
            return
        self.microwave(object_id)

    def microwave(self, object_id: str) -> None:
        microwaves = self.actor.nearest_of(("Microwave",))
        if not microwaves:
            raise SkillFailed(f"no microwave to heat {object_id}")
        oven = microwaves[0]
        self.actor.switch(oven, False)
        self.actor.put(object_id, oven)
        self.actor.close(oven)
        self.actor.switch(oven, True)
        self.actor.switch(oven, False)

    def chill(self, object_id: str) -> None:
        fridges = self.actor.nearest_of(("Fridge",))
        if not fridges:
            raise SkillFailed(f"no fridge to cool {object_id}")
        self.actor.put(object_id, fridges[0])
        self.actor.close(fridges[0])

    def boil(self, object_id: str) -> None:
        pots = self.actor.nearest_of(("Pot",))
        burners = self.actor.nearest_of(("StoveBurner",))
        if not pots or not burners:
            raise SkillFailed("boiling needs a pot and a stove")
        pot = pots[0]
        if not self.world.objects[pot].is_filled:
            self._under_running_water(pot)
        burner = self.world.objects[pot].parent
        if burner is None or self.world.objects[burner].object_type != "StoveBurner":
            burner = next((b for b in burners if not self.world.objects[b].children), burners[0])
            self.actor.put(pot, burner)
        self.actor.put(object_id, pot)
        knob = next(
            (k for k, targets in self.world.scene.controls.items() if burner in targets and k in self.world.objects),
            None,
        )
        if knob is None:
            raise SkillFailed(f"no knob controls {burner}")
        if self.world.objects[knob].is_toggled:
            self.actor.switch(knob, False)
        self.actor.switch(knob, True)
        self.actor.switch(knob, False)
