"""Where things are, in words a Commander can say: location hints from ground truth.

A hint (``contracts.language.LocationHint``) names the object, the fixed receptacle it is in or
on (the floor plan's furniture: "in the drawer", "on the counter"; an object on the floor
or a piece of furniture itself is "near" the nearest landmark), and one direction:

- relative to a landmark (a salient, unique fixed object: the fridge, the stove, the sink,
  the sofa...): "left of the stove", "right of the fridge", "behind the toaster", seen
  from the landmark's front (the recorded pose an agent takes to use it), or "above the
  microwave", "below the sink" for a place over or under it. It is used when the
  receptacle's type is ambiguous in the room (one of many drawers or counters), and chosen
  as a speaker who pictures the listener would choose it: of the landmarks near the object,
  nearest first, the first relation after which the place is the nearest of its type
  fitting it (``singles_out``: how the Follower's ``mapping.hints`` reads a hint), else the
  nearest landmark's side.
- relative to the Follower's pose: "to your left", "to your right", "behind you", "in
  front of you" (45-degree sectors around the Follower's heading).

A place of a type the room has both high and low (wall cabinets and those under the
counter) is also named by its level: "in the upper cabinet left of the sink"
(``contracts.geometry.level``); "left of the sink" then singles it out among the places of
its type at its level.

Everything here reads ground truth (``World``): it is Commander (oracle) knowledge.
"""

from __future__ import annotations

import math
from dataclasses import replace

from contracts.geometry import landmark_side, level, over_or_under
from contracts.language import LocationHint
from dialogue import lexicon as lx
from simulator.geometry import heading_vector
from simulator.sim import FOLLOWER
from simulator.world import World

# Fixed objects a person would give directions by (single instances in a room; the four
# burners of a stove count as one stove).
LANDMARKS = ("Fridge", "StoveBurner", "SinkBasin", "Microwave", "Toaster", "CoffeeMachine", "DiningTable",
             "Sofa", "Bed", "Toilet", "Television", "Desk", "Dresser", "ArmChair", "CoffeeTable", "GarbageCan",
             "BathtubBasin", "SideTable", "FloorLamp", "DeskLamp", "Safe")
MULTI_LANDMARKS = ("StoveBurner",)
INSIDE = {"Fridge", "SinkBasin", "Microwave", "Cabinet", "Drawer", "GarbageCan", "Box", "Pot", "Bowl", "Mug",
          "Cup", "Safe", "BathtubBasin", "CoffeeMachine", "Toaster", "Pan", "LaundryHamper"}
SPEAKABLE_ALIASES = {"Sink": "SinkBasin", "Bathtub": "BathtubBasin"}
LANDMARK_RANGE = 3.0  # metres: farther landmarks do not help


def speakable(object_type: str) -> str | None:
    """The type as the lexicon knows it ("Sink" -> "SinkBasin"), or None if it has no words."""
    object_type = SPEAKABLE_ALIASES.get(object_type, object_type)
    return object_type if object_type.removesuffix("Sliced") in set(lx.object_types()) else None


def relation(place_type: str) -> str:
    return "in" if place_type in INSIDE else "on"


def _xz(world: World, object_id: str) -> tuple[float, float]:
    x, _, z = world.objects[object_id].position
    return x, z


def follower_direction(world: World, point: tuple[float, float], agent_id: int = FOLLOWER) -> str:
    """"front" / "left" / "right" / "behind": where ``point`` (x, z) is from the agent's pose."""
    agent = world.agents[agent_id]
    fx, fz = heading_vector(agent.rotation)
    rx, rz = fz, -fx  # AI2-THOR is left-handed, y up: facing +z, right is +x
    dx, dz = point[0] - agent.x, point[1] - agent.z
    angle = math.degrees(math.atan2(dx * rx + dz * rz, dx * fx + dz * fz))
    if abs(angle) <= 45:
        return "front"
    if abs(angle) >= 135:
        return "behind"
    return "right" if angle > 0 else "left"


def landmark_position(world: World, landmark_id: str) -> tuple[float, float, float]:
    """Where a landmark is: a stove's burners are one stove, at their middle (as the
    Follower's ``mapping.hints`` takes it)."""
    kind = world.objects[landmark_id].object_type
    if kind not in MULTI_LANDMARKS:
        return world.objects[landmark_id].position
    parts = [o.position for o in world.objects.values() if o.fixed and o.object_type == kind]
    return tuple(sum(p[k] for p in parts) / len(parts) for k in range(3))  # type: ignore[return-value]


def landmark_direction(world: World, point: tuple[float, float], landmark_id: str) -> str | None:
    """"left" / "right" / "behind" of the landmark, seen from its front; None if unclear."""
    lx_, _, lz = landmark_position(world, landmark_id)
    fixed = world.scene.fixed_objects.get(landmark_id)
    pose = fixed.interaction_pose if fixed is not None else None
    if pose is not None:
        front = heading_vector(pose[2])
    else:  # no recorded front: as seen from the Follower
        agent = world.agents[FOLLOWER]
        front = (lx_ - agent.x, lz - agent.z)
    return landmark_side((lx_, lz), front, point)


def _instances(world: World, object_type: str) -> int:
    return sum(speakable(o.object_type) == object_type for o in world.objects.values() if o.fixed)


def landmarks(world: World, exclude: tuple[str, ...] = ()) -> list[str]:
    """Fixed objects of landmark types that are unique in the room (the stove counts once)."""
    out = []
    for o in world.objects.values():
        kind = speakable(o.object_type)
        if o.fixed and kind in LANDMARKS and kind not in exclude and o.object_id not in exclude:
            if kind in MULTI_LANDMARKS or _instances(world, kind) == 1:
                out.append(o.object_id)
    return sorted(out)


def _by_distance(world: World, ids: list[str], point: tuple[float, float]) -> list[str]:
    return sorted(ids, key=lambda i: (math.dist(_xz(world, i), point), i))


def place_of(world: World, object_id: str) -> str | None:
    """The first fixed receptacle (with words for it) that holds the object, at any depth."""
    for parent_id in world.container_chain(object_id):
        parent = world.objects[parent_id]
        if parent.fixed:
            return parent_id if speakable(parent.object_type) else None
    return None


def describe(world: World, object_id: str, anchor: str = "landmark") -> LocationHint | None:
    """A true hint for ``object_id`` (None if the Follower holds it or it cannot be named).

    ``anchor="landmark"`` prefers a direction relative to a landmark when the receptacle's
    type is ambiguous; ``anchor="you"`` always gives the direction relative to the Follower.
    """
    obj = world.objects[object_id]
    name = speakable(obj.object_type)
    if name is None or world.holder(object_id) is not None:
        return None
    point = _xz(world, object_id)
    you = follower_direction(world, point)
    place_id = place_of(world, object_id)
    if place_id is None:  # on the floor, in something unnamed, or furniture itself: near a landmark
        near = [i for i in landmarks(world, exclude=(name, object_id))
                if math.dist(_xz(world, i), point) <= LANDMARK_RANGE]
        if not near:
            near = [o.object_id for o in world.objects.values()
                    if o.fixed and o.object_id != object_id and speakable(o.object_type) not in (None, name)]
        if not near:
            return None
        place = speakable(world.objects[_by_distance(world, near, point)[0]].object_type)
        return LocationHint(name, "near", place, you, "you")
    place = speakable(world.objects[place_id].object_type) or ""
    hint = LocationHint(name, relation(place), place, you, "you")
    if anchor == "landmark" and _instances(world, place) > 1:
        hint = _from_landmark(world, name, place, place_id, point) or hint
    return replace(hint, level=place_level(world, place_id))


def place_level(world: World, place_id: str) -> str | None:
    """"upper" / "lower" for a place whose room has places of its kind at both levels
    (None otherwise: "the upper fridge" says nothing)."""
    kind = speakable(world.objects[place_id].object_type)
    levels = {level(o.position) for o in world.objects.values() if o.fixed and speakable(o.object_type) == kind}
    return level(world.objects[place_id].position) if len(levels) > 1 else None


def _from_landmark(world: World, name: str, place: str, place_id: str,
                   point: tuple[float, float]) -> LocationHint | None:
    """Where the place (``place``: its word) is from the landmarks near the object, nearest
    first: the first relation (above or below it, else the side it is on) that singles the
    place out among the room's places of its type; else the side of the nearest landmark
    that has one."""
    nearest = None
    for landmark_id in _by_distance(world, landmarks(world, exclude=(place, name)), point):
        if math.dist(_xz(world, landmark_id), point) > LANDMARK_RANGE:
            break
        said = speakable(world.objects[landmark_id].object_type)
        over = vertical_direction(world, place_id, landmark_id)
        if over is not None and singles_out(world, place_id, landmark_id, over):
            return LocationHint(name, relation(place), place, over, said)
        direction = landmark_direction(world, point, landmark_id)
        if direction is None:
            continue
        hint = LocationHint(name, relation(place), place, direction, said)
        if singles_out(world, place_id, landmark_id, direction):
            return hint
        nearest = nearest or hint
    return nearest


def vertical_direction(world: World, object_id: str, landmark_id: str) -> str | None:
    """"above" / "below" the landmark for an object over or under it."""
    return over_or_under(landmark_position(world, landmark_id), world.objects[object_id].position)


def _direction(world: World, object_id: str, landmark_id: str, direction: str) -> str | None:
    """The relation of ``object_id`` to the landmark of the kind ``direction`` names."""
    if direction in ("above", "below"):
        return vertical_direction(world, object_id, landmark_id)
    return landmark_direction(world, _xz(world, object_id), landmark_id)


def singles_out(world: World, place_id: str, landmark_id: str, direction: str) -> bool:
    """Would a listener who takes "the cabinet right of the stove" ("... above the stove") as
    the cabinet nearest the stove on its right (over it), of those at the level said, pick
    ``place_id``? (The Follower's ``mapping.hints`` reads a hint so. Asking for a margin
    over the next place did not help a Follower whose map is off by 15 cm: ``python -m
    agent.hint_sides``, stop 47.)"""
    kind, said = speakable(world.objects[place_id].object_type), place_level(world, place_id)
    fitting = [o.object_id for o in world.objects.values() if o.fixed and speakable(o.object_type) == kind
               and (said is None or level(o.position) == said)
               and _direction(world, o.object_id, landmark_id, direction) == direction]
    middle = landmark_position(world, landmark_id)
    return bool(fitting) and _by_distance(world, fitting, (middle[0], middle[2]))[0] == place_id


def applies(world: World, hint: LocationHint, object_id: str) -> bool:
    """Would ``hint`` (said of one object) also fit ``object_id``: in the same kind of place,
    on the same side of the same landmark (or of the Follower)? A hint "near" a place fits
    what is described by the same words."""
    if hint.relation == "near":
        other = describe(world, object_id, "landmark")
        return other is not None and (other.relation, other.place, other.direction, other.anchor) == (
            hint.relation, hint.place, hint.direction, hint.anchor)
    place_id = place_of(world, object_id)
    if place_id is None or speakable(world.objects[place_id].object_type) != hint.place:
        return False
    if hint.level is not None and level(world.objects[place_id].position) != hint.level:
        return False
    if hint.anchor == "you":
        return follower_direction(world, _xz(world, object_id)) == hint.direction
    related = place_id if hint.direction in ("above", "below") else object_id  # over / under: the place
    return any(_direction(world, related, i, hint.direction) == hint.direction
               for i in landmarks(world) if speakable(world.objects[i].object_type) == hint.anchor)
