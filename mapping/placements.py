"""What the Follower put down itself, and where: the semantic mapper's memory of its own puts.

A put believes the thing at the receptacle's middle until it is seen there (where the view's
centre meets the top, AI2-THOR's rule, was nearer but lost TATC episodes: stop 83); into an
enclosure (a microwave, a cabinet, a fridge), where AI2-THOR puts it: at the spawn point nearest the
agent, across the front in line with it, and, above the eye, at the very front
(``front_spot``; a slice believed in the middle of FloorPlan10's high microwave was clicked for
behind the real one, TATC 0193) -- or, where the frames before and after the put show it, where
it came into view (``landed_at``: the believed box of an enclosure seen in part is larger than
it, and its front was a slice's width or more off: TATC 0218). Sightings of its
type are then matched to it (``Placements.around``) more widely than ``match_radius``, and
while it is seen resting on that receptacle it is believed in it (``Placements.container``),
whatever geometry alone would say.
"""

from __future__ import annotations

import cv2
import numpy as np

from contracts.belief import ObjectInstance, ObjectMemory
from contracts.geometry import CameraIntrinsics, Pose, depth_to_points
from contracts.observation import DEPTH_CHANGE, Observation, frame_changes
from mapping.boxes import boxes_meet
from mapping.memory_updates import (
    ENCLOSURES,
    PIECES,
    believed_container,
    move_with_load,
    piece_of,
    rests_on,
)

WALL = 0.02  # metres: a thing put into an enclosure keeps this far inside its believed box's walls
PUT_REACH = 1.5  # metres: what the Follower put lies within this of where it stood (AI2-THOR's reach)
LANDED_PIXELS = 4  # pixels that came nearer at a put below which the frames do not tell where it landed
LANDED_MARGIN = 0.25  # metres around the receptacle's believed box within which the frames' landing is believed
MIN_SIDE = 0.03  # metres: the least side of what a put's frames showed (a slice seen edge-on)


class Placements:
    def __init__(self) -> None:
        # what the Follower put down itself -> (where it put it, where it stood (x, z), the step it did)
        self.placed: dict[str, tuple[str, tuple[float, float], int]] = {}
        self.last_frame: Observation | None = None  # the frame the Follower chose its last action in

    def remember(self, memory: ObjectMemory, held: str | None, after: Observation, step: int,
                 camera: CameraIntrinsics) -> None:
        """After the Follower's own action (``held``: what it held before; ``after``: the frame
        it left): what it put down is believed where it put it (``inferred`` until detected
        there: a pot in a sink basin mostly is not)."""
        pose = after.pose
        if memory.held is not None:
            self.placed.pop(memory.held, None)
            memory.instances[memory.held].states.pop("inferred", None)
        elif held in memory.instances and memory.instances[held].container is not None:
            item = memory.instances[held]
            self.placed[held] = (item.container, (pose.x, pose.z), step)
            item.states["inferred"] = True  # believed there, unseen, until detected
            receptacle = memory.instances.get(item.container or "")
            if receptacle is not None and receptacle.object_type in ENCLOSURES:
                landed = landed_at(self.last_frame, after, camera) if self.last_frame is not None else None
                if landed is not None and boxes_meet((receptacle.position, np.add(receptacle.extent, 2 * LANDED_MARGIN)),
                                                     (landed[0], (0.0, 0.0, 0.0))):
                    move_with_load(memory, item, landed[0])
                    item.extent = landed[1]  # what showed of it: a stand-in click aims there, not at the walls
                else:
                    move_with_load(memory, item, front_spot(receptacle, item, pose, camera.camera_height))

    def around(self, memory: ObjectMemory, object_type: str, centre: tuple[float, float, float], exclude: set[str],
               step: int, match_radius: float) -> ObjectInstance | None:
        """An instance of the type the Follower put into or onto a receptacle whose box (plus
        ``BOX_MARGIN``) holds ``centre``: a put believes it at the receptacle's middle, where a
        microwave's opened door or a wide counter may leave it farther than ``match_radius``
        from where it is seen (and a new twin would be heated or fetched instead). Also, in
        the two frames after the put, the one just put when no other instance of its type
        explains the sighting and the sighting lies within ``PUT_REACH`` of where the Follower
        stood: a counter seen in part is smaller in memory than the counter the mug landed on
        (a mug put down, taken for a second mug, picked up and put down again, 60 times).
        Not by the box for a thing a refused slice showed is no knife: a knife seen on that
        counter is more likely a real one (TATC 0192 lost its only knife to the thing)."""
        just_put = None
        for key, (place, (x, z), put_at) in self.placed.items():
            instance, receptacle = memory.instances.get(key), memory.instances.get(place)
            if instance is None or receptacle is None or instance.object_type != object_type or key in exclude:
                continue
            if not instance.states.get("not_a_knife") and boxes_meet((receptacle.position, receptacle.extent),
                                                                      (centre, (0.0, 0.0, 0.0))):
                return instance
            if step - put_at <= 1 and np.hypot(centre[0] - x, centre[2] - z) <= PUT_REACH:
                just_put = instance
        if just_put is None:
            return None
        explained = any(np.hypot(i.position[0] - centre[0], i.position[2] - centre[2]) <= match_radius
                        for i in memory.of_type(object_type) if i.key not in exclude and i is not just_put)
        return None if explained else just_put

    def seen_as(self, memory: ObjectMemory, object_type: str, centre: tuple[float, float, float], exclude: set[str],
                step: int, match_radius: float) -> ObjectInstance | None:
        """``around``; for a sighting of a whole where the Follower put none of that type but
        put a piece of it, that piece: a slice lying face-on is a disc the detector takes for
        the whole (TATC 0267: the potato slice put into FloorPlan10's microwave, seen as a
        potato at 0.83, was never taken out again)."""
        found = self.around(memory, object_type, centre, exclude, step, match_radius)
        if found is None and object_type in PIECES:
            found = self.around(memory, piece_of(object_type), centre, exclude, step, match_radius)
        return found

    def container(self, memory: ObjectMemory, instance: ObjectInstance) -> str | None:
        """Where the Follower put it while it is seen there, some of it over the receptacle's
        box (geometry would put a pot on the burner's counter: a burner is smaller than the
        pot; a book put at a bed's edge lies half beyond the bed's box, and was taken from a
        "side table" there and put back, again and again, ALFRED-L 065434), else from geometry."""
        receptacle = memory.instances.get(self.placed.get(instance.key, ("",))[0])
        if receptacle is not None and rests_on(instance, receptacle, footprint=True):
            return receptacle.key
        self.placed.pop(instance.key, None)  # it landed elsewhere, or was moved
        return believed_container(memory, instance)


def front_spot(receptacle: ObjectInstance, item: ObjectInstance, pose: Pose, eye: float) -> tuple[float, float, float]:
    """Where AI2-THOR puts ``item`` into the enclosure ``receptacle`` (the simulator's rule,
    ``simulator.placement.inside_spot``, on the believed box): its front is the side towards
    the agent; across the front in line with the agent, as far as the thing fits inside the
    walls; in depth at the middle, or at the front when its floor is above the eye (from
    below, the shelf's edge hides all but the front)."""
    centre, size = np.array(receptacle.position), np.array(receptacle.extent)
    agent, item_size = np.array([pose.x, 0.0, pose.z]), np.array(item.extent)
    offset = agent - centre
    depth_axis = 0 if abs(offset[0]) * size[2] >= abs(offset[2]) * size[0] else 2  # the front faces the agent
    across_axis = 2 - depth_axis
    room = np.maximum(size / 2 - item_size / 2 - WALL, 0.0)
    spot = np.array(item.position, dtype=float)
    high = centre[1] - size[1] / 2 > eye
    spot[depth_axis] = centre[depth_axis] + (np.sign(offset[depth_axis]) or 1.0) * (room[depth_axis] if high else 0.0)
    spot[across_axis] = np.clip(agent[across_axis], centre[across_axis] - room[across_axis],
                                centre[across_axis] + room[across_axis])
    return (float(spot[0]), float(spot[1]), float(spot[2]))


def landed_at(before: Observation, after: Observation,
              camera: CameraIntrinsics) -> tuple[tuple[float, float, float], tuple[float, float, float]] | None:
    """Where a put landed, from the frames either side of it (the camera does not move): the
    median point of the largest blob of pixels whose surface came nearer, and the extent of
    those points (10th to 90th percentile, at least ``MIN_SIDE``); None when fewer than
    ``LANDED_PIXELS`` did (no frames, or it landed out of view)."""
    diff = frame_changes(before, after)
    if diff is None or before.depth is None or after.depth is None:
        return None
    nearer = (diff & (after.depth > 0) & ((before.depth <= 0) | (after.depth < before.depth - DEPTH_CHANGE)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(nearer.astype(np.uint8), connectivity=8)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[largest, cv2.CC_STAT_AREA] < LANDED_PIXELS:
        return None
    points = depth_to_points(after.depth, after.pose, camera)[labels == largest]
    low, middle, high = np.percentile(points, (10, 50, 90), axis=0)
    return tuple(float(v) for v in middle), tuple(float(v) for v in np.maximum(high - low, MIN_SIDE))
