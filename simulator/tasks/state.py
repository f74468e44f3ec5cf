"""The world as task definitions see it: AI2-THOR metadata per object, and condition tests.

``snapshot(world)`` gives each object's ``SimObject.metadata`` dict plus what TEACh's task
checker reads: ``simbotObjectClass`` (the object's classes, see ``classes.py``),
``parentReceptacles`` as the full chain of receptacles the object is in (innermost first;
``None`` on the floor or in a hand: a held object is in no receptacle) and the distance
to the Follower, used to rank candidates.

``holds(obj, prop, value, objects)`` is TEACh's property test: objectType matches with the
Sink/SinkBasin and Bathtub/BathtubBasin equivalence; class conditions test membership; 0/1
test truth; ``parentReceptacles`` tests whether any enclosing receptacle has that type or
class; list properties test membership; anything else tests equality.
"""

from __future__ import annotations

from typing import Any

from contracts.observation import FOLLOWER
from simulator.tasks.classes import object_classes, same_type
from simulator.world import World

CLASS_KEYS = ("simbotObjectClass", "objectClass")
ObjectView = dict[str, Any]


def snapshot(world: World, agent_id: int = FOLLOWER) -> dict[str, ObjectView]:
    """objectId -> metadata view of every object in the world (sorted by id)."""
    ids, distances, _ = world.view(agent_id)
    distance = {oid: float(distances[i]) for i, oid in enumerate(ids)}
    out: dict[str, ObjectView] = {}
    for oid in sorted(world.objects):
        obj = world.objects[oid]
        view = obj.metadata(False, distance.get(oid, 0.0))
        chain = world.container_chain(oid)
        view["parentReceptacles"] = chain or None
        classes = list(object_classes(obj.object_type))
        view["simbotObjectClass"] = classes
        view["objectClass"] = classes
        view["heldBy"] = world.holder(oid)
        out[oid] = view
    return out


def holds(obj: ObjectView, prop: str, value: Any, objects: dict[str, ObjectView]) -> bool:
    """Does ``obj`` satisfy the condition ``prop: value``?"""
    if prop not in obj:
        return False
    actual = obj[prop]
    if prop == "objectType":
        return same_type(actual, value)
    if prop in CLASS_KEYS:
        return value in actual
    if prop in ("parentReceptacles", "simbotLastParentReceptacle"):
        parents = actual if isinstance(actual, list) else ([actual] if actual else [])
        return any(_is_kind(objects.get(pid), value) for pid in parents)
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return bool(actual) == bool(value)
    if isinstance(actual, list):
        return value in actual
    return actual == value


def _is_kind(obj: ObjectView | None, wanted: Any) -> bool:
    return obj is not None and (same_type(obj["objectType"], wanted) or wanted in obj["simbotObjectClass"])


def matches_primary(obj: ObjectView, prop: str, value: Any, objects: dict[str, ObjectView]) -> bool:
    """A candidate for a component: its primary condition holds, or would after slicing /
    cracking (a whole Apple is a candidate for ``objectType: AppleSliced``)."""
    if holds(obj, prop, value, objects):
        return True
    if prop == "objectType" and isinstance(value, str):
        for suffix in ("Sliced", "Cracked"):
            if value.endswith(suffix) and obj["objectType"] == value[: -len(suffix)]:
                return True
    return False


def horizontal_distance(a: ObjectView, b: ObjectView) -> float:
    pa, pb = a["position"], b["position"]
    return ((pa["x"] - pb["x"]) ** 2 + (pa["z"] - pb["z"]) ** 2) ** 0.5
