"""How a skill reads what its last click did: whether the Belief shows the effect on the
target (a click can land on the cabinet next to the one meant), whether a put was refused by
a receptacle of another kind than the one meant (the click took a neighbour), and whether a
thing known only from a hint is now believed shut in a closed container."""

from __future__ import annotations

from contracts.belief import Belief
from contracts.planning import LowLevelAction, refused_placement
from planner import knowledge


def refused_by_another(error: str, belief: Belief, target: str | None) -> bool:
    """A put refused by a receptacle of another type than the one meant ("Cannot place Pot
    in Toaster" for a sink basin): the click took a neighbour, or the detection it clicked
    in was another object. Not a refusal by the target: 29 puts into a toaster the detector
    called a sink basin ended a no-oracle Boil Potato (0096) at the failed-action limit."""
    refused = refused_placement(error)
    meant = belief.memory.instances.get(target or "") if belief.memory is not None else None
    return refused is not None and meant is not None and _kind(refused[1]) != _kind(meant.object_type)


def _kind(object_type: str) -> str:
    return object_type.removesuffix("Basin")  # a click on a sink's rim puts into its basin


def took_effect(action: LowLevelAction, belief: Belief, before: Belief | None = None) -> bool:
    """Does the Belief after a successful action show its effect on the target (when the
    Belief keeps that state)? A click can land on the cabinet next to the one meant."""
    memory = belief.memory
    target = action.receptacle_key if action.action in ("Place", "Pour") else action.object_key
    inst = memory.instances.get(target or "")
    if inst is None:
        return action.action == "Slice"  # the whole is gone: sliced
    if action.action == "Pickup":
        return memory.held == target
    if action.action == "Place":
        placed = before.memory.held if before is not None and before.memory.held else action.object_key
        item = memory.instances.get(placed or "")
        return item is None or item.container is None or item.container == target
    state = {"Open": ("is_open", True), "Close": ("is_open", False), "ToggleOn": ("is_toggled", True),
             "ToggleOff": ("is_toggled", False), "Slice": ("is_sliced", True)}.get(action.action)
    if state is None or state[0] not in inst.states:
        return True
    return bool(inst.states[state[0]]) == state[1]


def hinted_shut_in(belief: Belief, key: str) -> bool:
    """Is ``key`` a thing never seen (believed from a hint, not inferred from the Follower's
    own work) now believed in a closed container it could be taken from?"""
    instance = belief.memory.instances[key]
    container = belief.memory.instances.get(instance.container or "")
    return key != belief.memory.held and instance.times_seen == 0 and not instance.states.get("inferred") \
        and container is not None and knowledge.has(container.object_type, "openable") \
        and not container.states.get("is_open") and knowledge.has(instance.object_type, "pickupable")
