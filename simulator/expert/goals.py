"""What an oracle expert works towards: a TEACh task (through Progress Check) or an ALFRED
goal (through ALFRED's goal conditions), both seen as a list of unsatisfied problem keys.

``TeachGoal`` reads the keys from Progress Check. ``AlfredGoal`` derives them from ALFRED's
task type and PDDL parameters and the world: slice the object if the task wants slices;
clean / heat / cool it (ALFRED records these by the sink, the microwave and the fridge);
put it (or, with a movable receptacle, it into that and that) into the parent receptacle;
or hold it under the lamp and switch the lamp on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.alfred.goals import goal_progress, matching, targets
from simulator.expert.solver_keys import ProblemKey, unsatisfied_keys
from simulator.sim import FOLLOWER
from simulator.tasks import progress_check
from simulator.world import World

STATE_KEYS = {
    "pick_clean_then_place_in_recep": ("alfredCleaned", "cleaned"),
    "pick_heat_then_place_in_recep": ("alfredHeated", "heated"),
    "pick_cool_then_place_in_recep": ("alfredCooled", "cooled"),
}


@dataclass(frozen=True)
class TeachGoal:
    task: Any

    def keys(self, world: World) -> list[ProblemKey]:
        return unsatisfied_keys(progress_check(world, self.task))

    def done(self, world: World) -> bool:
        return bool(progress_check(world, self.task)["success"])

    def satisfied(self, world: World) -> int:
        """How many of the task's goal conditions hold."""
        return int(progress_check(world, self.task)["goal_conditions_satisfied"])


@dataclass(frozen=True)
class AlfredGoal:
    task_type: str
    pddl_params: dict

    def done(self, world: World) -> bool:
        return goal_progress(world, self.task_type, self.pddl_params).success

    def satisfied(self, world: World) -> int:
        """How many of ALFRED's goal conditions hold."""
        return goal_progress(world, self.task_type, self.pddl_params).satisfied

    def keys(self, world: World) -> list[ProblemKey]:
        if self.done(world):
            return []
        t = targets(self.pddl_params)
        objects = _prefer_exact(matching(world, t["object"], "pickupable"), t["object"])
        if not objects and "Sliced" in t["object"]:
            whole = [o for o in matching(world, t["object"].removesuffix("Sliced"), "sliceable") if not o.is_sliced]
            return [ProblemKey(whole[0].object_id, "objectType", t["object"])] if whole else []
        if not objects:
            return []
        if self.task_type == "look_at_obj_in_light":
            return self._in_light(world, objects, t)
        if self.task_type == "pick_and_place_with_movable_recep":
            return self._movable(world, objects, t)
        obj = self._choose(world, objects, t)
        if self.task_type in STATE_KEYS:
            name, record = STATE_KEYS[self.task_type]
            if obj.object_id not in getattr(world, record):
                return [ProblemKey(obj.object_id, name, 1)]
        if self.task_type == "pick_two_obj_and_place":
            placed = [o for o in objects if self._in_parent(world, o, t)]
            if placed:
                holder = world.objects[placed[0].parent]
                rest = [o for o in objects if o.parent != holder.object_id]
                return [ProblemKey(rest[0].object_id, "parentReceptacles", holder.object_type, holder.object_id)] if rest else []
        return [ProblemKey(obj.object_id, "parentReceptacles", t["parent"])]

    def _in_parent(self, world: World, obj, t: dict) -> bool:
        return obj.parent is not None and t["parent"] in obj.parent

    def _choose(self, world: World, objects: list, t: dict):
        """The object to work on: one already cleaned/heated/cooled, else the nearest."""
        record = getattr(world, STATE_KEYS[self.task_type][1]) if self.task_type in STATE_KEYS else set()
        agent = world.agents[FOLLOWER]
        return min(objects, key=lambda o: (o.object_id not in record,
                                            (o.position[0] - agent.x) ** 2 + (o.position[2] - agent.z) ** 2,
                                            o.object_id))

    def _movable(self, world: World, objects: list, t: dict) -> list[ProblemKey]:
        movables = _prefer_exact([m for m in matching(world, t["mrecep"], "pickupable") if m.receptacle], t["mrecep"])
        if not movables:
            return []
        loaded = [m for m in movables if any(o.object_id in m.children for o in objects)]
        if not loaded:
            mrecep = self._choose(world, movables, t)
            obj = self._choose(world, objects, t)
            return [ProblemKey(obj.object_id, "parentReceptacles", mrecep.object_type, mrecep.object_id)]
        return [ProblemKey(loaded[0].object_id, "parentReceptacles", t["parent"])]

    def _in_light(self, world: World, objects: list, t: dict) -> list[ProblemKey]:
        lamps = matching(world, t["toggle"], "toggleable")
        if not lamps:
            return []
        held = world.agents[FOLLOWER].held
        obj = next((o for o in objects if o.object_id == held), None) or self._choose(world, objects, t)
        if held != obj.object_id:
            return [ProblemKey(obj.object_id, "held", 1)]
        return [ProblemKey(min(lamps, key=lambda lamp: lamp.object_id).object_id, "isToggledInView", 1)]


def _prefer_exact(objects: list, name: str) -> list:
    """ALFRED matches names as substrings of ids ("Pot" also matches potatoes); work on
    objects of exactly that type when there are any."""
    exact = [o for o in objects if o.object_type == name]
    return exact or objects


def goal_for(task: Any = None, episode: Any = None) -> TeachGoal | AlfredGoal | None:
    """The expert goal of a TEACh task instance, or of an ALFRED episode."""
    if task is not None:
        return TeachGoal(task)
    if episode is not None and getattr(episode, "suite", "") == "alfred":
        return AlfredGoal(episode.task_type, dict(episode.pddl_params))
    return None
