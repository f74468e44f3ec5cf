"""``oracle-visible`` perception (symbolic; an oracle): the objects the simulator says the
Follower sees, with their true types, score 1, and masks filled from their projected boxes
at the camera's frame size. Same ``Detection`` shape as every other backend; no rendering
needed, so no occlusion and box-shaped masks."""

from __future__ import annotations

import numpy as np

from contracts.agents import OracleModule
from contracts.observation import FOLLOWER, Observation
from contracts.perception import Detection, Perception, box_mask
from contracts.registry import perception
from simulator.geometry import project_boxes


@perception.register("oracle-visible")
class OracleVisiblePerception(OracleModule, Perception):
    def detect(self, observation: Observation) -> list[Detection]:
        world = self.oracle.world
        ids = world.visible_ids(FOLLOWER)
        if not ids:
            return []
        camera = self.context.camera
        objects = [world.objects[i] for i in ids]
        view = world.agents[FOLLOWER].camera(world.field_of_view)
        rects = project_boxes(view, np.array([o.position for o in objects]), np.array([o.size for o in objects]))
        scale = np.array([camera.width, camera.height, camera.width, camera.height])
        detections = []
        for obj, rect in zip(objects, np.clip(rects, 0, 1) * scale, strict=True):
            box = tuple(float(v) for v in rect)
            mask = box_mask(box, camera.height, camera.width)
            if mask.any():
                detections.append(Detection(obj.object_type, 1.0, box, mask))
        return detections
