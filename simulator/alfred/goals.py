"""ALFRED's goal conditions for its 7 task types, counted as ALFRED counts them.

Objects are matched as ALFRED's evaluation matches them: a target name matches every
object whose objectId contains it (so "AppleSliced" matches the slices of an apple) and
that has the required property. Cleaned/heated/cooled come from the world's records of
what was in a basin when a faucet was turned on, in a microwave when it was turned on,
and in a fridge when it was closed. Each task type's total (e.g. heat-then-place: 3, plus
1 when the object must be sliced) is ALFRED's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simulator.objects import SimObject
from simulator.sim import FOLLOWER
from simulator.world import World


@dataclass(frozen=True)
class GoalProgress:
    satisfied: int
    total: int

    @property
    def success(self) -> bool:
        return self.satisfied == self.total

    @property
    def fraction(self) -> float:
        return self.satisfied / self.total if self.total else 1.0


def targets(pddl_params: dict) -> dict[str, str]:
    names = {
        "object": pddl_params.get("object_target") or "",
        "parent": pddl_params.get("parent_target") or "",
        "toggle": pddl_params.get("toggle_target") or "",
        "mrecep": pddl_params.get("mrecep_target") or "",
    }
    if pddl_params.get("object_sliced"):
        names["object"] += "Sliced"
    return names


def matching(world: World, name: str, prop: str) -> list[SimObject]:
    if not name:
        return []
    return [o for o in world.objects.values() if name in o.object_id and getattr(o, prop)]


def _sliced_condition(objs: list[SimObject], name: str, needed: int) -> tuple[int, int]:
    if "Sliced" not in name:
        return 0, 0
    return min(len([p for p in objs if "Sliced" in p.object_id]), needed), needed


def _place_with_state(record: Callable[[World], set[str]]) -> Callable[[World, dict], tuple[int, int]]:
    def check(world: World, t: dict) -> tuple[int, int]:
        receptacles = matching(world, t["parent"], "receptacle")
        pickups = matching(world, t["object"], "pickupable")
        s, ts = _sliced_condition(pickups, t["object"], 1)
        in_place = {p.object_id for p in pickups for r in receptacles if p.object_id in r.children}
        changed = {p.object_id for p in pickups if p.object_id in record(world)}
        s += (len(in_place) > 0) + (len(changed) > 0) + bool(in_place & changed)
        return s, ts + 3
    return check


def _pick_and_place(world: World, t: dict) -> tuple[int, int]:
    receptacles = matching(world, t["parent"], "receptacle")
    pickups = matching(world, t["object"], "pickupable")
    s, ts = _sliced_condition(pickups, t["object"], 1)
    s += any(p.object_id in r.children for p in pickups for r in receptacles)
    return s, ts + 1


def _pick_two(world: World, t: dict) -> tuple[int, int]:
    receptacles = matching(world, t["parent"], "receptacle")
    pickups = matching(world, t["object"], "pickupable")
    s, ts = _sliced_condition(pickups, t["object"], 2)
    best = max((sum(p.object_id in r.children for p in pickups) for r in receptacles), default=0)
    return s + min(best, 2), ts + 2


def _look_in_light(world: World, t: dict) -> tuple[int, int]:
    toggles = matching(world, t["toggle"], "toggleable")
    pickups = matching(world, t["object"], "pickupable")
    s, ts = _sliced_condition(pickups, t["object"], 1)
    held = world.agents[FOLLOWER].held
    s += held is not None and held in {p.object_id for p in pickups}
    visible = set(world.visible_ids(FOLLOWER))
    s += any(o.is_toggled and o.object_id in visible for o in toggles)
    return s, ts + 2


def _movable_recep(world: World, t: dict) -> tuple[int, int]:
    receptacles = matching(world, t["parent"], "receptacle")
    pickups = matching(world, t["object"], "pickupable")
    movables = matching(world, t["mrecep"], "pickupable")
    s, ts = _sliced_condition(pickups, t["object"], 1)
    s += any(p.object_id in m.children for p in pickups for m in movables)
    s += any(m.object_id in r.children for m in movables for r in receptacles)
    s += any(
        any(p.object_id in m.children for p in pickups) and any(m.parent == r.object_id for r in receptacles)
        for m in movables
    )
    return s, ts + 3


CHECKS: dict[str, Callable[[World, dict], tuple[int, int]]] = {
    "pick_and_place_simple": _pick_and_place,
    "pick_two_obj_and_place": _pick_two,
    "look_at_obj_in_light": _look_in_light,
    "pick_clean_then_place_in_recep": _place_with_state(lambda w: w.cleaned),
    "pick_heat_then_place_in_recep": _place_with_state(lambda w: w.heated),
    "pick_cool_then_place_in_recep": _place_with_state(lambda w: w.cooled),
    "pick_and_place_with_movable_recep": _movable_recep,
}


def goal_progress(world: World, task_type: str, pddl_params: dict) -> GoalProgress:
    """ALFRED's (satisfied, total) goal conditions for this task in this world state."""
    satisfied, total = CHECKS[task_type](world, targets(pddl_params))
    return GoalProgress(int(satisfied), int(total))
