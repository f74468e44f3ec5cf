"""``oracle-seg`` perception (rendered; an oracle): the renderer's exact instance masks of
the current frame with the objects' true types, score 1 -- what a perfect Mask R-CNN would
give (HLSM's ground-truth-segmentation ablation). Needs ``simulator.render=egl``."""

from __future__ import annotations

import numpy as np

from contracts.agents import OracleModule
from contracts.errors import NesyError
from contracts.observation import FOLLOWER, ModuleContext, Observation
from contracts.perception import Detection, Perception, mask_box
from contracts.registry import perception


@perception.register("oracle-seg")
class OracleSegPerception(OracleModule, Perception):
    min_pixels = 1

    def reset(self, context: ModuleContext) -> None:
        if not context.rendering:
            raise NesyError("perception 'oracle-seg' reads the rendered instance masks: set simulator.render=egl "
                            "(or use perception 'oracle-visible' for symbolic runs)")
        super().reset(context)

    def detect(self, observation: Observation) -> list[Detection]:
        frames = self.oracle.instance_frame(FOLLOWER)
        world = self.oracle.world
        labels, counts = np.unique(frames.instance, return_counts=True)
        detections = []
        for label, count in zip(labels.tolist(), counts.tolist(), strict=True):
            object_id = frames.ids.get(label)
            if object_id is None or count < self.min_pixels or object_id not in world.objects:
                continue
            mask = frames.instance == label
            detections.append(Detection(world.objects[object_id].object_type, 1.0, mask_box(mask), mask))
        return detections
