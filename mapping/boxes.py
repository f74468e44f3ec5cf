"""Sightings fused with remembered instances by their 3-D boxes (centre, extent): drawers,
cabinets and shelves in rows and columns, objects seen in parts, an opened container with
its door. Used by the ``semantic`` mapper (``mapping.semantic``)."""

from __future__ import annotations

import numpy as np

from contracts.belief import ObjectInstance, ObjectMemory

# never stand touching another of their type: a sighting that meets one's box is a part of it
# (an opened fridge's door seen alone, the side of a microwave)
SINGLE = ("Fridge", "Microwave", "CoffeeMachine", "Toaster", "SinkBasin", "Sink", "GarbageCan", "Television")
BOX_MARGIN = 0.05  # metres: a sighting belongs to an instance whose box (plus this) holds its centre, or the reverse


def observe_box(memory: ObjectMemory, object_type: str, position: tuple[float, float, float],
                extent: tuple[float, float, float], score: float, step: int) -> ObjectInstance:
    """Fuse a sighting of a drawer, cabinet, shelf, burner or knob: the nearest instance of the type
    (3-D) whose box, grown by ``BOX_MARGIN``, holds the sighting's centre, or whose centre
    the sighting's box holds, absorbs it (``ObjectMemory.fuse``); else a new instance. (A
    horizontal radius merges a column of drawers into one, and the drawers below the
    opened one are never searched.)"""
    best = nearest_box(memory.of_type(object_type), position, extent)
    return memory.fuse(best, object_type, position, extent, score, step)


def nearest_box(instances: list[ObjectInstance], position: tuple[float, float, float],
                extent: tuple[float, float, float], meeting: bool = False) -> ObjectInstance | None:
    """The nearest (3-D) of ``instances`` whose box, grown by ``BOX_MARGIN``, holds the
    sighting's centre or whose centre the sighting's box holds; with ``meeting``, whose box
    meets the sighting's box (a part of an object cut by the frame's side: its centre is not
    the object's)."""
    here, half = np.asarray(position), np.asarray(extent) / 2
    best, best_distance = None, np.inf
    for instance in instances:
        gap = np.abs(np.asarray(instance.position) - here)
        if meeting:
            near = boxes_meet((instance.position, instance.extent), (position, extent))
        else:
            near = bool(np.all(gap <= np.maximum(np.asarray(instance.extent) / 2, half) + BOX_MARGIN))
        if near:
            distance = float(np.linalg.norm(gap))
            if distance < best_distance:
                best, best_distance = instance, distance
    return best


def boxes_meet(a: tuple[tuple[float, ...], tuple[float, ...]], b: tuple[tuple[float, ...], tuple[float, ...]]) -> bool:
    """Whether two (centre, extent) boxes, grown by ``BOX_MARGIN``, meet."""
    gap = np.abs(np.asarray(a[0]) - np.asarray(b[0]))
    return bool(np.all(gap <= (np.asarray(a[1]) + np.asarray(b[1])) / 2 + BOX_MARGIN))


def union_box(memory: ObjectMemory, instance: ObjectInstance, position: tuple[float, float, float],
              extent: tuple[float, float, float], score: float, step: int) -> ObjectInstance:
    """Fold a sighting known to be ``instance`` into it (``ObjectMemory.fuse``) as the box
    holding both (an opened container's body and its door)."""
    boxes = [(np.asarray(p), np.asarray(e) / 2) for p, e in ((instance.position, instance.extent), (position, extent))]
    low = np.minimum(*(p - h for p, h in boxes))
    high = np.maximum(*(p + h for p, h in boxes))
    memory.fuse(instance, instance.object_type, position, extent, score, step)
    instance.position = tuple(float(v) for v in (low + high) / 2)
    instance.extent = tuple(float(v) for v in high - low)
    return instance


def merge_singles(memory: ObjectMemory) -> list[str]:
    """Instances of a ``SINGLE`` type whose boxes have come to meet are one object seen in
    parts before either box was whole: the later one is folded into the earlier (its box,
    sightings and states; what was believed in it is believed in the earlier one). Returns
    the keys that are gone."""
    gone = []
    for object_type in SINGLE:
        instances = sorted(memory.of_type(object_type), key=lambda i: (len(i.key), i.key))  # oldest first
        for n, later in enumerate(instances[1:], start=1):
            earlier = nearest_box([i for i in instances[:n] if i.key in memory.instances],
                                  later.position, later.extent, meeting=True)
            if earlier is None or earlier.key == memory.held:
                continue
            union_box(memory, earlier, later.position, later.extent, later.confidence, max(earlier.last_seen, later.last_seen))
            earlier.states = {**later.states, **earlier.states}
            for inst in memory.instances.values():
                if inst.container == later.key:
                    inst.container = earlier.key
            del memory.instances[later.key]
            gone.append(later.key)
    return gone
