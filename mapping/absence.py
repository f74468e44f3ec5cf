"""Phantoms refuted by looking again: an instance the frame should show and does not.

Mask R-CNN's false detections become instances the Follower walks to and acts on (TATC
valid_unseen 0121, Make Plate Of Toast: 163 of its 1,000 steps went to three "toasters" where
none stands; 0216, Prepare Sandwich: 477 of 1,000 steps to instances with no object of their
type within 0.5 m). Without this, such an instance goes only when the navigator gives it
up after walking to three poses around it. Here a frame refutes it as it passes (the
semantic mapper's ``refute_unseen``, off by default: on, real small things the detector
missed from two poses were forgotten too, and ALFRED dev trials were lost; docs/mapping.md):

an instance is *missed* in a frame when the frame shows the place it is believed at -- its
centre projects at least ``FRAME_MARGIN`` of the frame inside the edges, ``NEAR`` to ``FAR``
metres away (horizontally), its whole believed box projects inside the frame (a close look
that the frame cuts is no look: TATC 0048's sink basin, seen from over it) and spans at least
``MIN_SIZE`` of the frame's width across its smaller side (a far bowl is a few pixels), and the depth at
the centre's pixel does not lie in front of its box (nothing hides it) -- and no detection of
its type (a sink's for a sink basin, and the reverse) was fused into an instance within
``SAME_PLACE`` metres of it this frame. Misses from different poses (cell and heading) that
outnumber the frames it was seen in, and are at least ``MIN_MISSES``, forget it: a single
false detection falls to two clear looks, a thing seen in ten frames needs eleven. A sighting
starts the count over. Never forgotten: what is held, what the Follower handled, put, sliced
or was told of (a hint's guess, never seen), inferred instances (a faucet behind its basin),
what is believed inside an enclosure (a closed door hides it), what holds a thing the
Follower handled (a plate under the slices it put there shows little of itself),
and furniture and other fixtures seen in parts (counters, cabinets, drawers, shelves,
burners, knobs: a view of a part does not show the whole, and their detections name parts).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from contracts.belief import ObjectInstance, ObjectMemory
from contracts.geometry import CameraIntrinsics, Pose, camera_axes, project
from mapping import memory_updates
from mapping.boxes import FURNITURE

FRAME_MARGIN = 0.1  # of the frame: the centre must project this far inside its edges
NEAR, FAR = 0.4, 2.5  # metres (horizontal): the detector finds what lies in this range
SAME_PLACE = 0.5  # metres: a sighting of the type this near stands for it
# of the frame's width: the box's smaller side on screen must be this large (a bowl seen once
# from afar, then missed from two far poses, was forgotten: ALFRED dev 509427 lost four bowls)
MIN_SIZE = 0.08
OCCLUSION_MARGIN = 0.1  # metres in front of the box's near side that count as hiding it
MIN_MISSES = 2
POSE_CELL = 0.25  # metres: poses in one cell and heading are one look
# seen in parts or never whole in one view: a view of one part does not show the rest
# (the map's furniture but the bathtub basin: a kitchen's phantom bathtub basin is one to refute)
PARTS = tuple(t for t in FURNITURE if t != "BathtubBasin") + (
    "Cabinet", "Drawer", "Shelf", "StoveBurner", "StoveKnob", "Sink", "Floor", "Window", "Curtains", "Painting",
    "Mirror", "ShelvingUnit", "Fridge")
ENCLOSURES = memory_updates.ENCLOSURES + ("Box",)  # what lies in one may be hidden by its closed door
KIND = {"Sink": "SinkBasin", "Bathtub": "BathtubBasin"}  # a sighting of either is one of the other


class Absences:
    """Per instance, the poses it was missed from since it was last seen."""

    def __init__(self) -> None:
        self.missed: dict[str, set[tuple[int, int, int]]] = {}

    def update(self, memory: ObjectMemory, seen: set[str], depth: np.ndarray | None, pose: Pose,
               camera: CameraIntrinsics) -> list[str]:
        """Count this frame's misses (``seen``: the instances sightings were fused into this
        frame) and forget the refuted instances; their keys."""
        if depth is None:
            return []
        for key in seen:
            self.missed.pop(key, None)
        seen_places = [(KIND.get(memory.instances[k].object_type, memory.instances[k].object_type),
                        memory.instances[k].position) for k in seen if k in memory.instances]
        look = (round(pose.x / POSE_CELL), round(pose.z / POSE_CELL), round(pose.heading / 30.0) % 12)
        # what holds what the Follower put there: the plate under the slices shows little of itself
        holders = {i.container for i in memory.instances.values() if i.states.get("handled")}
        gone = []
        for instance in list(memory.instances.values()):
            if instance.key in seen or instance.key in holders or not self._refutable(instance, memory):
                continue
            if any(kind == KIND.get(instance.object_type, instance.object_type)
                   and _horizontal(place, instance.position) <= SAME_PLACE
                   for kind, place in seen_places):
                continue
            if not _shown(instance, depth, pose, camera):
                continue
            looks = self.missed.setdefault(instance.key, set())
            looks.add(look)
            if len(looks) >= max(MIN_MISSES, instance.times_seen + 1):
                gone.append(instance.key)
        for key in gone:
            forget(memory, key)
            self.missed.pop(key, None)
        return gone

    @staticmethod
    def _refutable(instance: ObjectInstance, memory: ObjectMemory) -> bool:
        states = instance.states
        if instance.key == memory.held or instance.times_seen == 0 or instance.object_type in PARTS:
            return False
        if states.get("handled") or states.get("inferred") or states.get("piece_of"):
            return False
        container = memory.instances.get(instance.container or "")
        return container is None or container.object_type not in ENCLOSURES


def forget(memory: ObjectMemory, key: str) -> None:
    """Drop an instance; what was believed in it is believed in nothing."""
    for other in memory.instances.values():
        if other.container == key:
            other.container = None
    del memory.instances[key]


def _shown(instance: ObjectInstance, depth: np.ndarray, pose: Pose, camera: CameraIntrinsics) -> bool:
    """Does the frame show the instance's believed centre, near enough, unhidden?"""
    right, up, forward = camera_axes(pose.heading, pose.horizon)
    d = np.array(instance.position, dtype=float) - np.array([pose.x, camera.camera_height, pose.z])
    along = float(d @ forward)
    if along <= 1e-3 or not NEAR <= math.hypot(d[0], d[2]) <= FAR:
        return False
    col = camera.width / 2 + float(d @ right) / along * camera.focal
    row = camera.height / 2 - float(d @ up) / along * camera.focal
    if not (FRAME_MARGIN * camera.width <= col <= (1 - FRAME_MARGIN) * camera.width
            and FRAME_MARGIN * camera.height <= row <= (1 - FRAME_MARGIN) * camera.height):
        return False
    corners = [project(corner, pose, camera) for corner in itertools.product(
        *((c - e / 2, c + e / 2) for c, e in zip(instance.position, instance.extent, strict=True)))]
    if any(p is None or not (0 <= p[0] <= camera.width and 0 <= p[1] <= camera.height) for p in corners):
        return False  # a box the frame cuts (a close look) is not shown whole
    cols, rows = [p[0] for p in corners], [p[1] for p in corners]
    if min(max(cols) - min(cols), max(rows) - min(rows)) < MIN_SIZE * camera.width:
        return False  # too small in the frame for the detector to find it reliably
    h, w = depth.shape
    seen = float(depth[min(int(row * h / camera.height), h - 1), min(int(col * w / camera.width), w - 1)])
    return seen > 0 and seen >= along - max(instance.extent) / 2 - OCCLUSION_MARGIN


def _horizontal(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return math.hypot(a[0] - b[0], a[2] - b[2])
