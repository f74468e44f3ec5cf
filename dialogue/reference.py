"""Instances in words and words back to instances: what a reference question and its answer
mean against the Follower's Belief.

``where_is(belief, key)`` names where a memory instance is as a ``LocationHint``: in/on its
believed container ("the one in the sink"), else near the nearest other instance within
``NEAR`` metres (only types the lexicon has words for) ("the one near the fridge"), plus the side of the Follower it is on when
that sets it apart ("the one on the counter to your left"). ``select(candidates, answers,
belief)`` picks the candidate that the Commander's answer to "Which X?" points at: by an
attribute it states ("The dirty one.": the instance's known states), by the side of the
Follower ("The one on the left."), by a place ("The mug is in the sink.", at any depth of
believed containers) and its side of the Follower ("... on the counter to your left");
None when the answer does not single one out (a side relative to a landmark, "left of
the stove", is not used: the Belief does not know which way the stove faces).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from contracts.belief import Belief, ObjectInstance
from contracts.geometry import over_or_under, sector
from contracts.language import Intent, LocationHint
from dialogue import lexicon as lx
from dialogue.generation import preposition

NEAR = 1.0  # metres: "near the X" only for an instance this close to the candidate
# attribute -> (state, value) an instance must have for "the <attribute> one"
ATTRIBUTE_STATES = {"dirty": ("is_dirty", True), "clean": ("is_dirty", False), "empty": ("is_filled", False),
                    "full": ("is_filled", True), "open": ("is_open", True), "closed": ("is_open", False)}


def side(belief: Belief, instance: ObjectInstance) -> str:
    """The Follower-relative sector ("front", "right", "behind", "left") an instance is in."""
    return sector(belief.pose, instance.position)


def _distance(a: ObjectInstance, b: ObjectInstance) -> float:
    return math.hypot(a.position[0] - b.position[0], a.position[2] - b.position[2])


def _place(belief: Belief, instance: ObjectInstance) -> tuple[str, str | None]:
    """(relation, place type): its believed container, else the nearest instance nearby."""
    memory = belief.memory
    container = memory.instances.get(instance.container or "")
    if container is not None and lx.speakable(container.object_type):
        return preposition(container.object_type), container.object_type
    others = [i for i in memory.instances.values() if i.key != instance.key and i.object_type != instance.object_type
              and i.key != memory.held and lx.speakable(i.object_type)]
    near = [(d, i.key, i) for i in others if (d := _distance(i, instance)) <= NEAR]
    if near:
        return "near", min(near)[2].object_type
    return "", None


def _containers(belief: Belief, instance: ObjectInstance) -> list[str]:
    """The types of its believed container, the container's container, ... ("in the fridge"
    holds for a bread in a bowl in the fridge)."""
    memory, out, key = belief.memory, [], instance.container
    while key in memory.instances and len(out) < 8:
        out.append(memory.instances[key].object_type)
        key = memory.instances[key].container
    return out


def _holder(belief: Belief, instance: ObjectInstance) -> ObjectInstance:
    """The instance it is believed in or on (itself when none is in memory)."""
    return belief.memory.instances.get(instance.container or "", instance)


def where_is(belief: Belief, key: str, others: Sequence[str] = ()) -> LocationHint:
    """Where the instance ``key`` is; with the Follower-relative side added when its place
    alone does not tell it from ``others``."""
    memory = belief.memory
    instance = memory.instances[key]
    relation, place = _place(belief, instance)
    same = [o for o in others if o != key and o in memory.instances
            and _place(belief, memory.instances[o]) == (relation, place)]
    if place is not None and not same:
        return LocationHint(instance.object_type, relation, place)
    return LocationHint(instance.object_type, relation, place, side(belief, instance), "you")


def describe_candidates(belief: Belief, keys: Sequence[str]) -> tuple[LocationHint, ...]:
    """Where each candidate is, told apart from the others where the words allow (none if
    a candidate is not in memory)."""
    if any(key not in belief.memory.instances for key in keys):
        return ()
    return tuple(where_is(belief, key, keys) for key in keys)


def select(candidates: Sequence[str], answers: Sequence[Intent], belief: Belief) -> str | None:
    """The candidate the answers to a reference question single out, or None. Each answer
    narrows the candidates (a stated attribute, a place, a side of the Follower); a clue
    that fits none of them is ignored; it picks only when exactly one is left."""
    memory = belief.memory
    left = [memory.instances[k] for k in candidates if k in memory.instances]
    for answer in answers:
        for clue in _clues(answer, belief):
            narrowed = [i for i in left if clue(i)]
            left = narrowed or left
    return left[0].key if len(left) == 1 else None


def _clues(answer: Intent, belief: Belief) -> list:
    """The tests an answer puts to a candidate."""
    clues = []
    for attribute in answer.attributes:
        if attribute in ATTRIBUTE_STATES:
            state, value = ATTRIBUTE_STATES[attribute]
            clues.append(lambda i, state=state, value=value: i.states.get(state) == value)
    hint = answer.location
    if hint is not None and hint.place:
        clues.append(lambda i: hint.place in _containers(belief, i) or _place(belief, i)[1] == hint.place)
        if hint.anchor == "you" and hint.direction:
            clues.append(lambda i: side(belief, i) == hint.direction)
        elif hint.direction in ("above", "below") and hint.anchor:  # "in the cabinet below the toaster"
            anchors = belief.memory.of_type(hint.anchor)
            clues.append(lambda i: any(over_or_under(a.position, _holder(belief, i).position) == hint.direction
                                       for a in anchors))
    elif answer.direction in ("left", "right"):
        clues.append(lambda i: side(belief, i) == answer.direction)
    return clues
