"""Dialogue location hints in the object memory: "the knife is in the drawer left of the stove".

``HintBook`` keeps the hints of the latest answer about each object as a trail. Once a
place of the hinted type is in memory, it believes the object there with
``HINT_CONFIDENCE`` (below any sighting): in the place that fits every hint of the answer
("in the cabinet right of the stove. ... in the cabinet to your right": a cabinet both right
of the stove and to the Follower's right as it stood when it heard it), the one nearest the
first hint's anchor (or the Follower); else one that fits the first hint, else the next.
"The upper cabinet" is one whose middle is believed above ``contracts.geometry.LEVEL_SPLIT``. A
direction from a landmark is taken as seen from the landmark's front, which faces the free
floor around it (``landmark_front``); "above" / "below" a landmark as higher / lower than its
middle (``contracts.geometry.vertical_side``), nearest across first.

For a place the object is shut in (a drawer, a cabinet, the fridge), the trail goes on:
once that place has been in view open, within ``LOOKED_INTO`` and its middle at least
``FRAME_MARGIN`` inside the frame (``shows_inside``; a cabinet under the counter seen from
1 m at eye level shows its door, not what is inside), or the navigator gave up on it (the
mapper says so), for ``LOOKS`` frames without the object seen there, or once the navigator
gave up on the hinted object itself there, the object is believed in the next place that
fits, until none is left. A hint that places the object where an instance of it is seen (or
believed from the Follower's own doing) confirms that one, and one that places an instance
believed from hints alone places it again: ``states["hint_confirmed"]`` counts those answers
(the planner tries again what it gave up on there). A new answer about the object starts a
new trail, which skips the places already looked into. Cabinets and drawers come in rows:
"the cabinet to your right" is one of several, and the first one opened was often another
(TATC train: a "Which way is the cup?" followed one "Where is a cup?" in 24 of 37 answers).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from contracts.belief import Cell, GridMap, ObjectInstance, ObjectMemory
from contracts.geometry import (
    SECTORS,
    CameraIntrinsics,
    Pose,
    landmark_side,
    level,
    project,
    sector,
    vertical_side,
)
from contracts.language import LocationHint
from mapping.memory_updates import ENCLOSURES, rests_on

HINT_CONFIDENCE = 0.3
LANDMARK_SIDES = ("left", "right", "behind")  # a hint's direction from a landmark
FRONT_RADIUS = 1.25  # metres: the free floor around a landmark that says where its front is
LOOKED_INTO = 1.5  # metres: an open enclosure seen this near, its middle well in the frame, has shown what it holds
FRAME_MARGIN = 0.15  # of the frame's width and height: "well in the frame"
LOOKS = 2  # frames it must have been seen so before the hinted object is believed elsewhere
HEIGHT_MARGIN = 0.1  # metres: what is seen this far above or below an enclosure's box is not in it


@dataclass
class HintTrail:
    """The hints of one answer about one object, and the places tried for it."""

    hints: list[tuple[LocationHint, Pose]]  # each with the Follower's pose when it heard it
    tried: set[str] = field(default_factory=set)  # places looked into without the object there
    place: str | None = None  # the place it is believed in now (None: no place of the type known yet)
    instance: str | None = None  # the memory instance believed there
    looks: int = 0  # frames the place has been in view open and near since it was believed there


class HintBook:
    """The trails of the latest hints about each object type."""

    def __init__(self) -> None:
        self.trails: dict[str, HintTrail] = {}
        self.tried: dict[str, set[str]] = {}  # object type -> places looked into without it, this episode

    @property
    def pending(self) -> list[tuple[LocationHint, Pose]]:
        """Hints waiting for a place of their type to be in memory."""
        return [h for trail in self.trails.values() if trail.place is None for h in trail.hints]

    def add(self, hints: Iterable[LocationHint], pose: Pose) -> None:
        heard = [h for h in hints if h.object and h.place]
        for kind in dict.fromkeys(h.object for h in heard):  # a new answer about it: a new trail
            tried = self.tried.setdefault(kind, set())  # (not back to a place it was not in)
            self.trails[kind] = HintTrail([(h, pose) for h in heard if h.object == kind], tried)

    def renamed(self, gone: str, kept: str) -> None:
        """The mapper folded place ``gone`` into ``kept`` (one object seen in parts)."""
        for trail in self.trails.values():
            if trail.place == gone:
                trail.place = kept
        for tried in self.tried.values():  # (each trail's ``tried`` is one of these)
            if gone in tried:
                tried.discard(gone)
                tried.add(kept)

    def resolve(self, memory: ObjectMemory, grid: GridMap | None = None,
                shown: Callable[[ObjectInstance], bool] = lambda place: False,
                given_up: Callable[[ObjectInstance], bool] = lambda instance: False) -> None:
        """Believe each trail's object in its place; move on from places looked into in vain
        (``shown``: does this frame show inside this place; ``shows_inside``) and from those
        where the navigator gave the hinted object up (``given_up``: no goal pose around it
        showed it there)."""
        for kind, trail in list(self.trails.items()):
            if not self._follow(kind, trail, memory, grid, shown, given_up):
                del self.trails[kind]

    def _follow(self, kind: str, trail: HintTrail, memory: ObjectMemory, grid: GridMap | None,
                shown: Callable[[ObjectInstance], bool], given_up: Callable[[ObjectInstance], bool]) -> bool:
        """Advance one trail; False when it has done its work (or has nowhere left to go)."""
        if trail.place is not None:
            place, believed = memory.instances.get(trail.place), memory.instances.get(trail.instance or "")
            if place is None or believed is None or believed.times_seen > 0 or believed.container != place.key \
                    or _seen_in(kind, place, memory):
                return False  # seen (there or as itself), or moved by something else: the hint has done its work
            if given_up(believed):  # the plate hinted into a cabinet, looked for there from three poses
                trail.looks = LOOKS  # in vain, stayed there to the step limit (TATC valid_unseen 0231)
            elif shown(place):
                trail.looks += 1
            if trail.looks < LOOKS:
                return True
            trail.tried.add(place.key)
            trail.looks = 0
        candidates = self._candidates(trail, memory, grid)
        if not candidates:
            return trail.place is None and not memory.of_type(trail.hints[-1][0].place)  # still pending
        hint = trail.hints[-1][0]
        place = candidates[0]
        container = place.key if hint.relation in ("in", "on") else None  # "near the microwave": beside it
        seen = _seen_in(kind, place, memory)
        if seen:  # the hint confirms an instance seen there: no unseen twin (a skill would look for it in vain)
            seen[0].confidence = max(seen[0].confidence, HINT_CONFIDENCE)
            _confirmed(seen[0])
            return False
        # an earlier hint's: move it; not what the Follower believes from its own doing (the
        # slices it cut in the microwave were moved to another, TATC valid_unseen 0120)
        believed = [i for i in memory.of_type(kind) if i.times_seen == 0 and not i.states.get("inferred")]
        if believed:
            believed[0].position, believed[0].container = place.position, container
            instance = believed[0]
            _confirmed(instance)  # (placed again where it was: TATC valid_seen 0048's plate, found at the third try)
        else:
            instance = memory.add(kind, place.position, confidence=HINT_CONFIDENCE, container=container)
        trail.place, trail.instance = place.key, instance.key
        return container is not None and place.object_type in ENCLOSURES  # only what is shut in is looked for further

    @staticmethod
    def _candidates(trail: HintTrail, memory: ObjectMemory, grid: GridMap | None) -> list[ObjectInstance]:
        """The untried places that fit every hint of the trail, then those that fit each hint
        in the order they were said; each group best first by the first hint (``python -m
        agent.hint_sides``, the Commander of stop 46: the place a landmark hint and a "to your
        right" mean is the first tried 40.3% of the time, by the last hint's order 35.4%, by
        the landmark alone 37.0%; with the answers of stop 47, which single the place out
        where a relation can: 56.1% and 54.3%)."""
        fitting = [[p.key for p in _fitting(hint, memory, pose, grid)] for hint, pose in trail.hints]
        every = [k for k in fitting[0] if all(k in other for other in fitting[1:])]
        ordered = list(dict.fromkeys(every + [k for f in fitting for k in f]))
        return [memory.instances[k] for k in ordered if k not in trail.tried]


def _confirmed(instance: ObjectInstance) -> None:
    """Count a hint placing ``instance``: the planner tries again what it gave up on where the
    Commander says it is (``planner.history.History``)."""
    instance.states["hint_confirmed"] = instance.states.get("hint_confirmed", 0) + 1


def shows_inside(place: ObjectInstance, distance: float, pose: Pose, camera: CameraIntrinsics) -> bool:
    """Does a frame show inside ``place``: open, seen within ``LOOKED_INTO`` (``distance``:
    the mapper's ``in_view``), its middle ``FRAME_MARGIN`` inside the frame?"""
    if not place.states.get("is_open") or distance > LOOKED_INTO:
        return False
    pixel = project(place.position, pose, camera)
    return pixel is not None and FRAME_MARGIN <= pixel[0] / camera.width <= 1 - FRAME_MARGIN \
        and FRAME_MARGIN <= pixel[1] / camera.height <= 1 - FRAME_MARGIN


def _seen_in(kind: str, place: ObjectInstance, memory: ObjectMemory) -> list[ObjectInstance]:
    """Instances of ``kind`` seen in or on ``place``, or believed there from the Follower's
    own doing (``inferred``: the pieces of what it sliced there, what it put there). In an
    enclosure only what is within its height: a plate seen on the counter is not the one
    hinted into the cabinet under it (that trail ended there, TATC valid_unseen 0231)."""
    return [i for i in memory.of_type(kind) if (i.times_seen > 0 or i.states.get("inferred"))
            and (i.container == place.key or rests_on(i, place, 0.5) and _within_height(i, place))]


def _within_height(instance: ObjectInstance, place: ObjectInstance) -> bool:
    """Is the instance's middle within ``place``'s height (plus ``HEIGHT_MARGIN``), or is the
    place open above (not an enclosure)?"""
    return place.object_type not in ENCLOSURES \
        or abs(instance.position[1] - place.position[1]) <= place.extent[1] / 2 + HEIGHT_MARGIN


def _fitting(hint: LocationHint, memory: ObjectMemory, pose: Pose, grid: GridMap | None) -> list[ObjectInstance]:
    """The places of the hint's type at the level it names, on the side it names (all of
    them when none is), the one nearest the anchor (or the Follower) first."""
    places = memory.of_type(hint.place)
    if hint.level is not None:  # "the upper cabinet": the wall cabinets (all, when none is known)
        places = [p for p in places if level(p.position) == hint.level] or places
    anchors = memory.of_type(hint.anchor) if hint.anchor and hint.anchor != "you" else []
    if anchors:  # the stove's four burners are one landmark: their middle
        origin = tuple(float(np.mean([a.position[k] for a in anchors])) for k in range(3))
        if hint.direction in LANDMARK_SIDES:
            front = landmark_front(origin, grid, pose)
            places = [p for p in places if landmark_side((origin[0], origin[2]), front,
                                                         (p.position[0], p.position[2])) == hint.direction] or places
        elif hint.direction in ("above", "below"):  # over or under it: the nearest across of those higher / lower
            places = [p for p in places if vertical_side(origin, p.position) == hint.direction] or places
    else:
        origin = (pose.x, 0.0, pose.z)
        if hint.direction in SECTORS:  # from the Follower (also for a landmark not seen yet)
            places = [p for p in places if sector(pose, p.position) == hint.direction] or places
    return sorted(places, key=lambda p: (math.hypot(p.position[0] - origin[0], p.position[2] - origin[2]), p.key))


def landmark_front(landmark: Sequence[float], grid: GridMap | None, pose: Pose) -> tuple[float, float]:
    """The horizontal direction a viewer faces a landmark (x, y, z) from its front: from the
    middle of the free cells within ``FRONT_RADIUS`` of it (a stove against a wall is used
    from the room); without any, from the Follower. With the free cells of an explored room
    this picks the hinted side often enough to matter (``python -m agent.hint_sides``)."""
    x, z = landmark[0], landmark[2]
    if grid is not None:
        r0, c0 = grid.cell_of(x - FRONT_RADIUS, z - FRONT_RADIUS)
        r1, c1 = grid.cell_of(x + FRONT_RADIUS, z + FRONT_RADIUS)
        r0, c0 = max(r0, 0), max(c0, 0)
        r1, c1 = min(r1 + 1, grid.shape[0]), min(c1 + 1, grid.shape[1])
        rows, cols = np.nonzero(grid.occupancy[r0:r1, c0:c1] == Cell.FREE)
        if len(rows):
            cx = grid.origin[0] + (cols + c0 + 0.5) * grid.resolution
            cz = grid.origin[1] + (rows + r0 + 0.5) * grid.resolution
            near = np.hypot(cx - x, cz - z) <= FRONT_RADIUS
            if near.any() and math.hypot(cx[near].mean() - x, cz[near].mean() - z) > 0.05:
                return x - float(cx[near].mean()), z - float(cz[near].mean())
    return x - pose.x, z - pose.z
