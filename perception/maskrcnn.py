"""``maskrcnn`` perception: a torchvision Mask R-CNN (MobileNetV2 + FPN, sized for a CPU and
300 x 300 frames; ``perception.maskrcnn_model``) trained on our rendered frames
(``nesy detector data`` / ``train``; docs/perception.md).

It reads the observation's RGB frame only and returns one ``Detection`` per detected
object above ``score_threshold``: the class (an AI2-THOR type), score, the predicted box
and the mask thresholded at ``mask_threshold``. For the types the Follower said it looks
for (``attend``) the bar is ``focus_threshold``, unless another class's box scores higher
in the same place (the mapper lets such a weak detection only confirm what it expects).
Symbolic runs (no frames) see nothing.
Weights come from a file (default: the shipped ``perception/weights/maskrcnn.pt``), read
with ``torch.load(..., weights_only=True)``; a missing or damaged file is one line naming
it and the commands that make it. Never imports the simulator.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from contracts.observation import ModuleContext, Observation
from contracts.perception import Detection, Perception
from contracts.registry import perception
from perception.coco import image_tensor
from perception.maskrcnn_model import (
    DEFAULT_WEIGHTS,
    MAKE_WEIGHTS,
    MODEL_FLOOR,
    WeightsError,
    build_model,
    for_inference,
    load_weights,
)


@perception.register("maskrcnn")
class MaskRCNNPerception(Perception):
    @dataclass
    class Params:
        weights: str = ""  # a weights file; empty = the shipped perception/weights/maskrcnn.pt
        score_threshold: float = field(default=0.5, metadata={"range": (0.0, 1.0)})
        # the threshold for the types the Follower looks for (``attend``); = score_threshold: off
        focus_threshold: float = field(default=0.25, metadata={"range": (0.0, 1.0)})
        mask_threshold: float = field(default=0.5, metadata={"range": (0.0, 1.0)})
        threads: int = field(default=1, metadata={"range": (1, 64)})  # torch CPU threads

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()
        path = Path(self.params.weights) if self.params.weights else DEFAULT_WEIGHTS
        config, classes, state, self.meta = load_weights(path)
        model = build_model(config)
        try:
            model.load_state_dict(state)
        except RuntimeError as exc:
            raise WeightsError(f"{path}: its tensors do not fit the network it describes "
                               f"({str(exc).splitlines()[0][:100]}); make it again with: {MAKE_WEIGHTS}") from None
        self._setup(model, classes)

    @classmethod
    def from_model(cls, model: Any, classes: tuple[str, ...], params: Params | None = None) -> MaskRCNNPerception:
        """A module around a copy of an in-memory network (benchmarks, tests); the network
        itself is left as it was, so it may go on training."""
        self = cls.__new__(cls)
        self.params, self.meta = params or cls.Params(), {}
        self._setup(copy.deepcopy(model), classes)
        return self

    def _setup(self, model: Any, classes: tuple[str, ...]) -> None:
        import torch

        torch.set_num_threads(self.params.threads)
        self.model = for_inference(model)
        self.classes = tuple(classes)

    def reset(self, context: ModuleContext) -> None:
        import torch

        super().reset(context)
        torch.set_num_threads(self.params.threads)

    def predict(self, rgb: np.ndarray, floor: float = MODEL_FLOOR) -> dict[str, np.ndarray]:
        """The network's raw output for one H x W x 3 uint8 frame (boxes, labels, scores,
        masks as N x H x W probabilities), for the boxes scoring above ``floor`` (the
        evaluation keeps the model's 0.05; ``detect`` passes its threshold, which spares
        the mask head and the mask pasting for boxes it would drop: the boxes above it are
        the same either way, since dropping lower-scoring boxes changes neither which
        higher-scoring ones survive per-class NMS nor the top ``detections_per_image``)."""
        import torch

        image = image_tensor(rgb)
        heads = self.model.roi_heads
        with torch.inference_mode():
            heads.score_thresh = floor
            try:
                out = self.model([image])[0]
            finally:
                heads.score_thresh = MODEL_FLOOR
        return {"boxes": out["boxes"].numpy(), "labels": out["labels"].numpy(),
                "scores": out["scores"].numpy(), "masks": out["masks"][:, 0].numpy()}

    def detect(self, observation: Observation) -> list[Detection]:
        if observation.rgb is None:  # a symbolic run: no frames
            return []
        focus = self.focus
        floor = min(self.params.score_threshold, self.params.focus_threshold) if focus else self.params.score_threshold
        out = self.predict(observation.rgb, floor=floor)
        h, w = observation.rgb.shape[:2]
        outranked = _outranked(out) if focus else np.zeros(len(out["scores"]), dtype=bool)
        detections = []
        for box, label, score, prob, other in zip(out["boxes"], out["labels"], out["scores"], out["masks"], outranked,
                                                  strict=True):
            object_type = self.classes[int(label) - 1]
            if score < self.params.score_threshold and not (object_type in focus and score >= self.params.focus_threshold
                                                            and not other):
                continue
            mask = prob >= self.params.mask_threshold
            if not mask.any():
                continue
            x0, y0, x1, y1 = (float(v) for v in np.clip(box, 0, [w, h, w, h]))
            detections.append(Detection(object_type, float(min(max(score, 0.0), 1.0)),
                                        (x0, y0, x1, y1), mask))
        return detections


def _outranked(out: dict[str, np.ndarray]) -> np.ndarray:
    """Per box: another class's box scores higher where it is (IoU >= 0.5) -- a pan that also
    scores a little as a mug is a pan."""
    import torch
    from torchvision.ops import box_iou

    boxes = torch.from_numpy(out["boxes"])
    overlap = box_iou(boxes, boxes).numpy() >= 0.5
    higher = out["scores"][None, :] > out["scores"][:, None]
    other = out["labels"][None, :] != out["labels"][:, None]
    return (overlap & higher & other).any(axis=1)
