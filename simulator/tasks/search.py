"""SearchObject: the Commander's oracle lookup of an object and a view of it (TEACh's tool).

``search_object(world, query)`` accepts an objectId (exact, or within AI2-THOR's rounding
of ids) or a type name, matched fuzzily ("coffee machine", "mugs" and "Mug" all find Mug;
a class such as "Silverware" finds its members); among the instances of the best-matching
type it picks the one nearest to the agent, skipping objects in someone's hand, as TEACh
does. The view is a navigable agent pose (x, z, rotation, horizon) from which the object
is visible by the simulator's own rule (``World.visible_from``: in the frustum, within
reach, not inside something closed, not occluded; a pose that only has it in the frustum
when none sees it). An object shut inside a fridge or drawer cannot be
seen: the view then shows the closed container that hides it (``shown_objectId``), as
TEACh backs off to the parent receptacle. ``mask`` stays ``None`` until rendering is wired.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

import numpy as np

from contracts.observation import FOLLOWER
from contracts.tasks import object_class_table
from simulator.geometry import Camera, box_distances, boxes_in_frustum
from simulator.objects import SimObject, encloses
from simulator.scenes import cell_center
from simulator.targeting import lookup
from simulator.world import CAMERA_HEIGHT, World

HORIZONS = (30.0, 0.0, 60.0, -30.0)  # reachable with TEACh's 30-degree and ALFRED's 15-degree looks
MIN_SCORE = 0.6


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _score(query: str, name: str) -> float:
    q, n = _norm(query), _norm(name)
    if q == n or q.rstrip("s") == n or q.removesuffix("es") == n:
        return 1.0
    return difflib.SequenceMatcher(None, q, n).ratio()


def match_types(world: World, query: str) -> list[str]:
    """The object types in ``world`` that best match ``query`` (several for a class name)."""
    present = sorted({o.object_type for o in world.objects.values()})
    best_class = max(object_class_table(), key=lambda c: (_score(query, c), c))
    best_type = max(present, key=lambda t: (_score(query, t), t), default=None)
    class_score = _score(query, best_class)
    type_score = _score(query, best_type) if best_type else 0.0
    if class_score > type_score and class_score >= MIN_SCORE:
        return [t for t in object_class_table()[best_class] if t in present]
    if best_type is None or type_score < MIN_SCORE:
        return []
    return [t for t in present if _score(query, t) == type_score]


def _distance(world: World, obj: SimObject, agent_id: int) -> float:
    agent = world.agents[agent_id]
    return float(np.hypot(obj.position[0] - agent.x, obj.position[2] - agent.z))


def find_object(world: World, query: str, agent_id: int = FOLLOWER) -> SimObject | None:
    """Resolve a query (objectId or type/class name) to one object, or None."""
    if "|" in query:
        return lookup(world, query)
    types = set(match_types(world, query))
    pool = [o for o in world.objects.values() if o.object_type in types and world.holder(o.object_id) is None]
    if not pool:
        pool = [o for o in world.objects.values() if o.object_type in types]
    return min(pool, key=lambda o: (_distance(world, o, agent_id), o.object_id), default=None)


def shown_object(world: World, object_id: str) -> str:
    """The object to look at: itself, or the outermost closed container that hides it."""
    shown = object_id
    for parent_id in world.container_chain(object_id):
        parent = world.objects[parent_id]
        if encloses(parent) and not parent.is_open:
            shown = parent_id
    return shown


def view_pose(world: World, object_id: str) -> tuple[float, float, int, float] | None:
    """A navigable pose from which ``object_id`` is visible (nearest cell first), or None."""
    obj = world.objects[object_id]
    center = np.array([obj.position], dtype=float)
    size = np.array([obj.size], dtype=float)
    reach = world.interaction_distance
    cells = []
    for cell in world.scene.navigable:
        x, z = cell_center(cell)
        d = float(box_distances(np.array([x, CAMERA_HEIGHT, z]), center, size)[0])
        if d <= reach:
            cells.append((d, cell))
    fallback = None  # in the frustum but occluded: only if no pose truly sees it
    for _, cell in sorted(cells, key=lambda c: (c[0] < 0.2, c)):  # not standing over it, if possible
        x, z = cell_center(cell)
        facing = np.degrees(np.arctan2(obj.position[0] - x, obj.position[2] - z)) % 360
        rotations = sorted((0, 90, 180, 270), key=lambda r: (min(abs(r - facing), 360 - abs(r - facing)), r))
        for rotation in rotations:
            for horizon in HORIZONS:
                camera = Camera(x, CAMERA_HEIGHT, z, rotation, horizon, world.field_of_view)
                if bool(boxes_in_frustum(camera, center, size)[0]):
                    if object_id in world.visible_from(camera):
                        return (x, z, rotation, horizon)
                    fallback = fallback or (x, z, rotation, horizon)
    return fallback


def search_object(world: World, query: str, agent_id: int = FOLLOWER) -> dict[str, Any]:
    """TEACh's SearchObject on our world: the object, where it is, and a pose that sees it."""
    obj = find_object(world, query.strip(), agent_id) if query and query.strip() else None
    if obj is None:
        return {"success": False, "objectId": None, "objectType": None, "position": None, "view": None,
                "message": f"no object matches {query!r}"}
    x, y, z = obj.position
    holder = world.holder(obj.object_id)
    if holder is not None:  # in a hand: the holder's own view
        shown, pose = obj.object_id, world.agents[holder].pose()
    else:
        shown = shown_object(world, obj.object_id)
        pose = view_pose(world, shown)
    view = None if pose is None else {
        "pose": [float(pose[0]), float(pose[1]), int(pose[2]), float(pose[3])],
        "shown_objectId": shown,
        "mask": None,
    }
    return {
        "success": True,
        "objectId": obj.object_id,
        "objectType": obj.object_type,
        "position": {"x": x, "y": y, "z": z},
        "parentReceptacles": world.container_chain(obj.object_id) or None,
        "held_by": holder,
        "view": view,
    }
