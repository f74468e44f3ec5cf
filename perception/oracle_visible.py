"""``oracle-visible`` perception: the objects the simulator says are visible, with their
ids, types, true 3-D positions and projected screen boxes (ground truth; an oracle)."""

from __future__ import annotations

from typing import Any

import numpy as np

from agent.interfaces import OracleModule
from contracts.language import Detection
from contracts.registry import perception
from simulator.geometry import project_boxes

FOLLOWER = 1


@perception.register("oracle-visible")
class OracleVisiblePerception(OracleModule):
    def reset(self) -> None:
        pass

    def detect(self, observation: Any) -> list[Detection]:
        world = self.oracle.world
        ids = world.visible_ids(FOLLOWER)
        if not ids:
            return []
        objects = [world.objects[i] for i in ids]
        camera = world.agents[FOLLOWER].camera(world.field_of_view)
        rects = project_boxes(camera, np.array([o.position for o in objects]), np.array([o.size for o in objects]))
        return [
            Detection(o.object_type, tuple(float(v) for v in np.clip(r, 0, 1)), 1.0, None, o.object_id, tuple(o.position))
            for o, r in zip(objects, rects, strict=True)
        ]
