"""Start states: what an episode begins with, and building a ``World`` from one.

A ``StartState`` names the floor plan, the movable objects with their positions (ALFRED's
``object_poses`` or a randomizer's output), appliance toggles, ALFRED's ``dirty_and_empty``
flag, per-object state overrides (TEACh-style: a dirty mug, an empty pot) and the agents'
poses. ``build_world`` places every movable object in the receptacle that contains its
recorded position (the smallest one whose box holds it), or on the floor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from contracts.errors import NesyError
from simulator.calibration.table import placed_box
from simulator.object_types import can_contain, type_info
from simulator.objects import SimObject, encloses, format_object_id
from simulator.scenes import load_scene
from simulator.world import AgentState, World

DEFAULT_ON = ("LightSwitch",)
START_OPEN = ("Box", "Laptop")  # AI2-THOR's cardboard boxes and laptops start open
STATE_FIELDS = {
    "isDirty": "is_dirty", "isOpen": "is_open", "isToggled": "is_toggled",
    "isFilledWithLiquid": "is_filled", "isCooked": "is_cooked", "fillLiquid": "liquid",
}
XZ_MARGIN = 0.05
Y_BELOW, Y_ABOVE = 0.08, 0.12


class StartStateError(NesyError):
    """A start state names something the floor plan cannot hold."""


@dataclass(frozen=True)
class ObjectPlacement:
    """One movable object at its start position (its id defaults to AI2-THOR's)."""

    object_type: str
    position: tuple[float, float, float]
    object_id: str | None = None
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)  # AI2-THOR's Euler angles, degrees
    asset: str | None = None  # ALFRED's objectName (e.g. 'Mug_2a940808'): its calibrated shape
    at_pivot: bool = False  # position is AI2-THOR's recorded pivot (ALFRED), not the box centre

    @property
    def resolved_id(self) -> str:
        return self.object_id or format_object_id(self.object_type, self.position)


@dataclass(frozen=True)
class StartState:
    """Everything an episode starts from."""

    scene: str
    objects: tuple[ObjectPlacement, ...]
    follower_pose: tuple[float, float, int, float]
    commander_pose: tuple[float, float, int, float] | None = None
    toggles: tuple[tuple[str, bool], ...] = ()
    dirty_and_empty: bool = False
    object_states: dict[str, dict] = field(default_factory=dict)


def build_world(start: StartState, field_of_view: float = 90.0, interaction_distance: float = 1.5,
                occlusion: bool = False) -> World:
    scene = load_scene(start.scene)
    objects: dict[str, SimObject] = {}
    for fixed in scene.fixed_objects.values():
        objects[fixed.object_id] = SimObject(
            fixed.object_id, fixed.object_type, tuple(fixed.position), tuple(fixed.size), fixed=True,
            levels=fixed.levels, front=fixed.front,
        )
    movables = []
    for placement in start.objects:
        oid = placement.resolved_id
        if oid in objects:
            raise StartStateError(f"{start.scene}: object {oid} is listed twice in the start state")
        center, size, extent = placed_box(placement.object_type, tuple(placement.position), placement.rotation,
                                          placement.asset, type_info(placement.object_type).size,
                                          placement.at_pivot)
        objects[oid] = SimObject(oid, placement.object_type, center, size, rotation=placement.rotation, extent=extent)
        movables.append(objects[oid])
    _assign_parents(objects, movables)
    _apply_states(objects, start)
    pose = start.follower_pose
    commander = start.commander_pose or pose
    agents = [
        AgentState(commander[0], commander[1], int(commander[2]) % 360, float(commander[3]), embodied=False),
        AgentState(pose[0], pose[1], int(pose[2]) % 360, float(pose[3])),
    ]
    xmin, xmax, zmin, zmax = scene.bounds
    if not (xmin - 0.5 <= pose[0] <= xmax + 0.5 and zmin - 0.5 <= pose[1] <= zmax + 0.5):
        # a recorded start pose may lie just off the grid we derive (AI2-THOR teleported the
        # agent there); one outside the room is a mistake
        raise StartStateError(
            f"{start.scene}: the Follower's start position ({pose[0]}, {pose[1]}) is outside the "
            f"room (x in [{xmin}, {xmax}], z in [{zmin}, {zmax}])"
        )
    return World(scene, objects, agents, field_of_view, interaction_distance, occlusion)


def _contains(recep: SimObject, obj: SimObject) -> bool:
    """Is ``obj`` inside (an openable receptacle) or on top of (a surface) ``recep``?"""
    (rx, ry, rz), (sx, sy, sz) = recep.position, recep.size
    x, y, z = obj.position
    if abs(x - rx) > sx / 2 + XZ_MARGIN or abs(z - rz) > sz / 2 + XZ_MARGIN:
        return False
    bottom, top = ry - sy / 2, ry + sy / 2
    if encloses(recep):  # inside: the object's centre above the floor of the box, its bottom below the top
        return bottom - 0.02 <= y and y - obj.size[1] / 2 <= top - 0.01
    return bottom - Y_BELOW <= y <= top + obj.size[1] / 2 + Y_ABOVE


def _footprint(obj: SimObject) -> float:
    return obj.size[0] * obj.size[2]


def _assign_parents(objects: dict[str, SimObject], movables: list[SimObject]) -> None:
    receptacles = [o for o in objects.values() if o.receptacle]
    for obj in movables:
        holders = [
            r for r in receptacles
            if r is not obj and _footprint(r) > _footprint(obj) and _contains(r, obj)
        ]
        allowed = [r for r in holders if can_contain(r.object_type, obj.object_type)]
        pool = allowed or holders
        if not pool:
            continue  # on the floor
        # the smallest box that holds it; ties broken by the closest centre, then id
        parent = min(pool, key=lambda r: (_footprint(r) * r.size[1], _dist(r, obj), r.object_id))
        obj.parent = parent.object_id
        parent.children.append(obj.object_id)
    for obj in movables:  # a movable receptacle must not end up inside its own content
        _break_cycle(objects, obj)


def _break_cycle(objects: dict[str, SimObject], obj: SimObject) -> None:
    seen, parent = {obj.object_id}, obj.parent
    while parent is not None:
        if parent in seen:
            objects[obj.parent].children.remove(obj.object_id)
            obj.parent = None
            return
        seen.add(parent)
        parent = objects[parent].parent


def _dist(a: SimObject, b: SimObject) -> float:
    return sum((p - q) ** 2 for p, q in zip(a.position, b.position, strict=True)) ** 0.5


def _apply_states(objects: dict[str, SimObject], start: StartState) -> None:
    toggles = dict(start.toggles)
    for obj in objects.values():
        obj.is_open = obj.openable and obj.object_type in START_OPEN
        if obj.toggleable:
            obj.is_toggled = toggles.get(obj.object_type, obj.object_type in DEFAULT_ON)
        if start.dirty_and_empty and obj.dirtyable:
            obj.is_dirty = True
    for oid, states in start.object_states.items():
        if oid not in objects:
            raise StartStateError(f"{start.scene}: state given for unknown object {oid}")
        for key, value in states.items():
            if key not in STATE_FIELDS:
                raise StartStateError(
                    f"{start.scene}: unknown state {key!r} for {oid}; expected one of {', '.join(STATE_FIELDS)}"
                )
            setattr(objects[oid], STATE_FIELDS[key], value)
