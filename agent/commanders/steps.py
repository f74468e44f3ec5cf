"""Progress Check problem keys -> the next step, as subgoals a person would ask for.

Like TEACh's human Commanders, who were asked to give one step at a time, the step for the
first unsatisfied problem key depends on what is already done (an empty pot is filled
before the potato goes in; a mug in the coffee machine only needs the machine on):

=========================== ==========================================================
problem key                 step (``contracts.language.Subgoal``)
=========================== ==========================================================
parentReceptacles = Y       PutObject(X, Y) (slices: "two slices of tomato")
isDirty = 0                 CleanObject(X, SinkBasin, dirty); in the sink: faucet on
isFilledWithLiquid = 1      FillObject(X); in the sink: faucet on. A plant: fill a
                            cup (or mug...) first, then PourObject(cup, HousePlant)
simbotIsFilledWithCoffee    PutObject(mug, CoffeeMachine); then ToggleObjectOn(it)
isCooked / simbotIsCooked   HeatObject(X, Toaster) for bread slices ("toast"), else
                            HeatObject(X, Microwave); inside: ToggleObjectOn(it)
simbotIsBoiled              FillObject(Pot); PutObject(Pot, StoveBurner);
                            HeatObject(X, Pot) ("boil"); ToggleObjectOn(StoveBurner)
objectType = XSliced        SliceObject(X) (isSliced too)
=========================== ==========================================================

Each step also lists the objects worth a location hint (the object itself, a movable
receptacle to put it in, the knife for slicing), unless the Follower already holds them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from agent.commanders.locations import speakable
from contracts.language import Subgoal
from simulator.expert.solver import FILL_CONTAINERS
from simulator.expert.solver_keys import ProblemKey, unsatisfied_keys
from simulator.sim import FOLLOWER
from simulator.tasks import progress_check
from simulator.tasks.state import holds, snapshot
from simulator.world import World

KNIVES = ("Knife", "ButterKnife")


@dataclass(frozen=True)
class Step:
    """One step: what to do (subgoals, usually one) and which objects to locate for it."""

    subgoals: tuple[Subgoal, ...]
    hint_ids: tuple[str, ...] = ()
    key: ProblemKey | None = None


def _type(world: World, object_id: str) -> str:
    return world.objects[object_id].object_type


def _distance(world: World, object_id: str, agent_id: int = FOLLOWER) -> float:
    agent = world.agents[agent_id]
    x, _, z = world.objects[object_id].position
    return math.hypot(x - agent.x, z - agent.z)


def _nearest(world: World, types: tuple[str, ...], near: str | None = None) -> list[str]:
    found = [o.object_id for o in world.objects.values() if o.object_type in types]
    if near is None:
        return sorted(found, key=lambda i: (_distance(world, i), i))
    px, _, pz = world.objects[near].position
    return sorted(found, key=lambda i: (math.hypot(world.objects[i].position[0] - px,
                                                   world.objects[i].position[2] - pz), i))


def _inside(world: World, object_id: str, kind: str) -> str | None:
    """The receptacle of type ``kind`` the object is in (at any depth), if any."""
    return next((p for p in world.container_chain(object_id) if _type(world, p) == kind), None)


def _held(world: World, object_id: str) -> bool:
    return world.holder(object_id) == FOLLOWER


def _hints(world: World, *ids: str | None) -> tuple[str, ...]:
    return tuple(i for i in dict.fromkeys(ids) if i and not _held(world, i) and not world.objects[i].fixed)


def _receptacle_type(world: World, key: ProblemKey) -> str:
    if key.receptacle_id and key.receptacle_id in world.objects:
        kind = _type(world, key.receptacle_id)
    else:
        kind = key.desired if isinstance(key.desired, str) else str(key.desired)
        if kind in world.objects:
            kind = _type(world, kind)
    return speakable(kind) or kind


def key_step(world: World, key: ProblemKey, keys: list[ProblemKey] | tuple = ()) -> Step:
    """The step that makes progress on ``key`` in the current state."""
    obj_id, prop = key.object_id, key.property_name
    kind = _type(world, obj_id)
    if prop == "parentReceptacles":
        place = _receptacle_type(world, key)
        count = 1
        if kind.endswith("Sliced"):
            count = sum(1 for k in keys if k.property_name == "parentReceptacles" and k.object_id in world.objects
                        and _type(world, k.object_id) == kind and _receptacle_type(world, k) == place) or 1
        movable = key.receptacle_id if key.receptacle_id in world.objects else None
        return Step((Subgoal("PutObject", kind, place, min(count, 6)),), _hints(world, obj_id, movable), key)
    if prop == "isDirty":
        return _under_water(world, obj_id, Subgoal("CleanObject", kind, "SinkBasin", 1, ("dirty",)), key)
    if prop == "isFilledWithLiquid":
        if world.objects[obj_id].pickupable:
            return _under_water(world, obj_id, Subgoal("FillObject", kind), key)
        container = _water_container(world, obj_id)
        if container is None:
            return Step((Subgoal("PourObject", None, kind),), (), key)
        c_kind = _type(world, container)
        if not world.objects[container].is_filled:
            return _under_water(world, container, Subgoal("FillObject", c_kind), key)
        return Step((Subgoal("PourObject", c_kind, kind),), _hints(world, container), key)
    if prop == "simbotIsFilledWithCoffee":
        started = _started(world, obj_id, "CoffeeMachine", lambda o: not o.simbot_is_filled_with_coffee)
        if started:
            return Step((Subgoal("ToggleObjectOn", "CoffeeMachine"),), (), replace(key, object_id=started))
        return Step((Subgoal("PutObject", kind, "CoffeeMachine"),), _hints(world, obj_id), key)
    if prop in ("isCooked", "simbotIsCooked"):
        appliance = "Toaster" if kind == "BreadSliced" and _nearest(world, ("Toaster",)) else "Microwave"
        started = _started(world, obj_id, appliance, lambda o: not (o.is_cooked or o.simbot_is_cooked))
        if started:
            return Step((Subgoal("ToggleObjectOn", appliance),), (), replace(key, object_id=started))
        return Step((Subgoal("HeatObject", kind, appliance),), _hints(world, obj_id), key)
    if prop == "simbotIsBoiled":
        return _boil(world, obj_id, kind, key)
    if prop in ("objectType", "isSliced"):
        knife = None if any(_type(world, i) in KNIVES for i in _carried(world)) else \
            next(iter(_nearest(world, KNIVES, near=obj_id)), None)
        whole = kind.removesuffix("Sliced")
        return Step((Subgoal("SliceObject", whole),), _hints(world, obj_id, knife), key)
    return Step((Subgoal("GotoLocation", kind),), _hints(world, obj_id), key)


def _started(world: World, object_id: str, appliance: str, unfinished, same_object: bool = False) -> str | None:
    """The object if it is already in the appliance -- or, as Progress Check picks any equal
    instance (the one nearest the Follower), another unfinished one of its type that is."""
    if _inside(world, object_id, appliance):
        return object_id
    kind = _type(world, object_id)
    if same_object:
        return None
    return next((o.object_id for o in world.objects.values()
                 if o.object_type == kind and unfinished(o) and _inside(world, o.object_id, appliance)), None)


def _carried(world: World) -> list[str]:
    held = world.agents[FOLLOWER].held
    return [held] if held else []


def _under_water(world: World, object_id: str, step: Subgoal, key: ProblemKey) -> Step:
    """Clean or fill at the sink: the faucet is the last bit once the object is in the basin."""
    if step.action == "CleanObject":
        started = _started(world, object_id, "SinkBasin", lambda o: o.is_dirty)
    else:
        started = _started(world, object_id, "SinkBasin", lambda o: not o.is_filled, same_object=True)
    if _inside(world, object_id, "BathtubBasin"):
        started = object_id
    if started:
        return Step((Subgoal("ToggleObjectOn", "Faucet"),), (), replace(key, object_id=started) if
                    started != object_id and step.action == "CleanObject" else key)
    if step.action == "CleanObject" and not _nearest(world, ("SinkBasin",)):
        step = Subgoal("CleanObject", step.object, None, 1, step.attributes)
    return Step((step,), _hints(world, object_id), key)


def _water_container(world: World, plant_id: str) -> str | None:
    """The container to water a plant with: held, else already filled, else the nearest."""
    options = [i for i in _nearest(world, FILL_CONTAINERS)
               if world.objects[i].pickupable and world.objects[i].fillable and speakable(_type(world, i))]
    for i in options:
        if _held(world, i):
            return i
    filled = [i for i in options if world.objects[i].is_filled]
    return (filled or options or [None])[0]


def _boil(world: World, obj_id: str, kind: str, key: ProblemKey) -> Step:
    pots = _nearest(world, ("Pot",), near=obj_id)
    if not pots:
        return Step((Subgoal("HeatObject", kind, "StoveBurner"),), _hints(world, obj_id), key)
    pot = _inside(world, obj_id, "Pot") or next((p for p in pots if world.objects[p].is_filled), None) or next(
        (p for p in pots if _inside(world, p, "StoveBurner")), pots[0])
    if not world.objects[pot].is_filled:
        return _under_water(world, pot, Subgoal("FillObject", "Pot"), key)
    if not _inside(world, pot, "StoveBurner"):
        return Step((Subgoal("PutObject", "Pot", "StoveBurner"),), _hints(world, pot), key)
    if not _inside(world, obj_id, "Pot"):
        return Step((Subgoal("HeatObject", kind, "Pot"),), _hints(world, obj_id), key)
    return Step((Subgoal("ToggleObjectOn", "StoveBurner"),), (), key)


def key_done(world: World, key: ProblemKey) -> bool:
    """Does the world now satisfy ``key`` (a sliced object is gone: its slices replaced it)?"""
    if key.object_id not in world.objects:
        return True
    objects = snapshot(world)
    return holds(objects[key.object_id], key.property_name, key.desired, objects)


def all_keys(report: dict[str, Any]) -> list[ProblemKey]:
    """Every unsatisfied problem key of the report (all subgoals), in order."""
    out: list[ProblemKey] = []
    for subgoal in report.get("subgoals", []):
        if not subgoal.get("success"):
            out.extend(unsatisfied_keys({"subgoals": [subgoal]}))
    return out


def next_step(world: World, task: Any, report: dict[str, Any] | None = None) -> Step | None:
    """The step for the first unsatisfied problem key (None when the task is done)."""
    report = report if report is not None else progress_check(world, task)
    if report.get("success"):
        return None
    keys = [k for k in unsatisfied_keys(report) if k.object_id in world.objects]
    if not keys:
        return None
    return key_step(world, keys[0], keys)
