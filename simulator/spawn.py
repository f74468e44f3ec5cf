"""Seeded random start states for a floor plan (like AI2-THOR's InitialRandomSpawn).

For each pickupable type the floor plan lists, one instance (a few for common small
things) is placed on or in a fixed receptacle that can hold it (``can_contain``) and
that the agent can reach (its recorded interaction pose stands on navigable floor),
where AI2-THOR's things rest (``_spot``) and not inside anything placed before it.
TEACh-style states follow: some dishes start dirty, fillable things start empty, the
lights may be off. The same scene and seed always give the same start state.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

from simulator.calibration.table import seat_top
from simulator.geometry import CAMERA_HEIGHT
from simulator.object_types import can_contain, type_info
from simulator.objects import encloses_type
from simulator.placement import INNER_FLOOR, collides, inside_spot
from simulator.scenes import FixedObject, Scene, cell_center, load_scene, to_cell
from simulator.start_state import ObjectPlacement, StartState

Vec3 = tuple[float, float, float]

DIRTY_FRACTION = 0.5
EXTRA_COPIES = {"Mug": 1, "Plate": 1, "Bowl": 1, "Fork": 1, "Spoon": 1, "Knife": 1, "Apple": 1,
                "Tomato": 1, "Potato": 1, "Egg": 1, "Cup": 1, "Pen": 1, "Pencil": 1, "CreditCard": 1}
ATTEMPTS = 10  # spots tried per object before it is left out
NEVER_SPAWNED = ("AppleSliced", "BreadSliced", "LettuceSliced", "PotatoSliced", "TomatoSliced", "EggCracked")


def reachable_receptacles(scene: Scene) -> list[FixedObject]:
    out = []
    for obj in scene.fixed_objects.values():
        pose = obj.interaction_pose
        if obj.receptacle and pose is not None and to_cell(pose[0], pose[1]) in scene.navigable:
            out.append(obj)
    return sorted(out, key=lambda o: o.object_id)


def _spot(rng: random.Random, recep: FixedObject, size: Vec3) -> Vec3:
    """A random spot for a thing of ``size`` (centre): anywhere on a surface's top (a sofa's
    seat, a garbage can's bottom); in a fridge, cabinet or microwave on its shelf nearest
    the middle (calibrated; its floor if none), anywhere across the front, and as near the
    front as a put from its interaction pose would land (``placement.inside_spot``), so that
    the agent sees it when it opens it, as AI2-THOR's spawn points inside are."""
    (cx, cy, cz), (sx, sy, sz) = recep.position, recep.size
    mx, mz = max(sx / 2 - size[0] / 2 - 0.02, 0.0), max(sz / 2 - size[2] / 2 - 0.02, 0.0)
    x, z = cx + rng.uniform(-mx, mx), cz + rng.uniform(-mz, mz)
    if not encloses_type(recep.object_type):  # on its top, a sofa's or armchair's seat, a garbage can's bottom
        seat = seat_top(recep.object_type, cy - sy / 2, sy, recep.levels)
        y = cy + sy / 2 if seat is None else seat
    else:
        y = min(recep.levels, key=lambda level: (abs(level - cy), level)) if recep.levels else cy - sy / 2 + INNER_FLOOR
        pose = recep.interaction_pose
        assert pose is not None  # reachable_receptacles keeps only receptacles with one
        x, z = inside_spot(recep, SimpleNamespace(x=pose[0], y=CAMERA_HEIGHT, z=pose[1]), y, size, at=(x, z))
    return (round(x, 3), round(y + size[1] / 2, 3), round(z, 3))


def random_start(scene_name: str | int, seed: int, dirty_and_empty: bool = True) -> StartState:
    """A seeded random start state for a floor plan (raises for unsupported ones)."""
    scene = load_scene(scene_name)
    rng = random.Random(f"{scene.name}:{seed}")
    receptacles = reachable_receptacles(scene)
    placements: list[ObjectPlacement] = []
    taken: set[str] = set()
    boxes: list[tuple[Vec3, Vec3]] = []  # what is placed so far: nothing interpenetrates
    for object_type in sorted(scene.object_types):
        info = type_info(object_type)
        if not info.pickupable or object_type in NEVER_SPAWNED:
            continue
        hosts = [r for r in receptacles if can_contain(r.object_type, object_type)]
        if not hosts:
            continue
        for _ in range(1 + EXTRA_COPIES.get(object_type, 0)):
            for _attempt in range(ATTEMPTS):
                position = _spot(rng, rng.choice(hosts), info.size)
                placement = ObjectPlacement(object_type, position)
                if placement.resolved_id not in taken and not collides(position, info.size, boxes):
                    taken.add(placement.resolved_id)
                    placements.append(placement)
                    boxes.append((position, info.size))
                    break
    states = {}
    for placement in placements:
        info = type_info(placement.object_type)
        if dirty_and_empty and info.dirtyable and rng.random() < DIRTY_FRACTION:
            states[placement.resolved_id] = {"isDirty": True}
    cells = sorted(scene.navigable)
    start_cell = rng.choice(cells)
    x, z = cell_center(start_cell)
    pose = (x, z, rng.choice((0, 90, 180, 270)), 30.0)
    lights_on = rng.random() < 0.5
    return StartState(
        scene=scene.name,
        objects=tuple(placements),
        follower_pose=pose,
        commander_pose=pose,
        toggles=(("LightSwitch", lights_on), ("DeskLamp", False), ("FloorLamp", False)),
        dirty_and_empty=False,
        object_states=states,
    )
