"""What the Follower put down itself, and where: the semantic mapper's memory of its own puts.

A put believes the thing at the receptacle's middle until it is seen there (where the view's
centre meets the top, AI2-THOR's rule, was nearer but lost TATC episodes: stop 83); into an
enclosure (a microwave, a cabinet, a fridge), where AI2-THOR puts it: at the spawn point nearest the
agent, across the front in line with it, and, above the eye, at the very front
(``front_spot``; a slice believed in the middle of FloorPlan10's high microwave was clicked for
behind the real one, TATC 0193). Sightings of its
type are then matched to it (``Placements.around``) more widely than ``match_radius``, and
while it is seen resting on that receptacle it is believed in it (``Placements.container``),
whatever geometry alone would say.
"""

from __future__ import annotations

import numpy as np

from contracts.belief import ObjectInstance, ObjectMemory
from contracts.geometry import Pose
from mapping.boxes import boxes_meet
from mapping.memory_updates import ENCLOSURES, believed_container, move_with_load, rests_on

WALL = 0.02  # metres: a thing put into an enclosure keeps this far inside its believed box's walls
PUT_REACH = 1.5  # metres: what the Follower put lies within this of where it stood (AI2-THOR's reach)


class Placements:
    def __init__(self) -> None:
        # what the Follower put down itself -> (where it put it, where it stood (x, z), the step it did)
        self.placed: dict[str, tuple[str, tuple[float, float], int]] = {}

    def remember(self, memory: ObjectMemory, held: str | None, pose: Pose, step: int, eye: float) -> None:
        """After the Follower's own action (``held``: what it held before; ``eye``: the
        camera's height): what it put down is believed where it put it (``inferred`` until
        detected there: a pot in a sink basin mostly is not)."""
        if memory.held is not None:
            self.placed.pop(memory.held, None)
            memory.instances[memory.held].states.pop("inferred", None)
        elif held in memory.instances and memory.instances[held].container is not None:
            item = memory.instances[held]
            self.placed[held] = (item.container, (pose.x, pose.z), step)
            item.states["inferred"] = True  # believed there, unseen, until detected
            receptacle = memory.instances.get(item.container or "")
            if receptacle is not None and receptacle.object_type in ENCLOSURES:
                move_with_load(memory, item, front_spot(receptacle, item, pose, eye))

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
