"""``oracle-map``: the belief read from the simulator's full state (navigable grid, every
object with its position, container and states; ground truth; an oracle)."""

from __future__ import annotations

from typing import Any

from agent.interfaces import OracleModule
from contracts.language import Belief, Detection, MapObject
from contracts.registry import mapper

FOLLOWER = 1
STATES = ("is_open", "is_toggled", "is_dirty", "is_filled", "is_cooked", "is_sliced")


@mapper.register("oracle-map")
class OracleMap(OracleModule):
    def reset(self) -> None:
        pass

    def update(self, observation: Any, detections: list[Detection]) -> Belief:
        world = self.oracle.world
        objects = {
            oid: MapObject(oid, o.object_type, tuple(o.position), tuple(o.size), o.parent,
                           {s: getattr(o, s) for s in STATES})
            for oid, o in world.objects.items()
        }
        return Belief(world.scene.navigable, objects, observation.pose, observation.holding)
