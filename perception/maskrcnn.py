"""``maskrcnn`` perception: a torchvision Mask R-CNN (MobileNetV2 + FPN, sized for a CPU and
300 x 300 frames; ``perception.maskrcnn_model``) trained on our rendered frames
(``nesy detector data`` / ``train``; docs/perception.md).

It reads the observation's RGB frame only and returns one ``Detection`` per detected
object above ``score_threshold``: the class (an AI2-THOR type), score, the predicted box
and the mask snapped to the frame's edges (``perception.mask_edges``) and thresholded at
``mask_threshold``. For the types the Follower said it looks for (``attend``) the bar is
``focus_threshold``, unless another class's box scores higher in the same place (the
mapper lets such a weak detection only confirm what it expects). Thin utensils the network takes for one another (``LOOKALIKES``) are one utensil where two
of their boxes coincide, of the higher-scoring type, whatever the scores. What lies mostly in
a house plant's mask is the plant (``without_plant_parts``).
A frame seen again (after a question, a refused Stop or a failed action, a turn undone, a walk
back) is not run through the network again: the outputs of the last ``frame_cache`` distinct
frames are kept (``perception.frame_cache``). Symbolic runs (no frames) see nothing.
Weights come from a file (default: the shipped ``perception/weights/maskrcnn.pt``), read
with ``torch.load(..., weights_only=True)``; a missing or damaged file is one line naming
it and the commands that make it. With the shipped weights the class of every region is
decided by the shipped region classifier (``perception.region_classifier``: the box head's
feature plus the region's own pixels); ``region_classifier: none`` leaves it to the box
head. The small and thin things the RPN rarely proposes (knives, sliced pieces...) get
proposals from the shipped fine segmenter (``perception.fine_segmenter``: where small things
are, per pixel, from the network's own stride-4 features; ``fine_segmenter: none``: the
RPN's proposals alone). Never imports the simulator.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from contracts.observation import ModuleContext, Observation
from contracts.perception import LOOKALIKES, Detection, Perception
from contracts.registry import perception
from perception.coco import image_tensor
from perception.fine_segmenter import (
    DEFAULT_FINE_WEIGHTS,
    FeatureTap,
    load_fine_segmenter,
    margins,
    refined_masks,
    region_boxes,
)
from perception.frame_cache import FrameCache
from perception.mask_edges import snapped_masks
from perception.maskrcnn_model import (
    DEFAULT_WEIGHTS,
    MAKE_WEIGHTS,
    MODEL_FLOOR,
    WeightsError,
    build_model,
    for_inference,
    load_weights,
    sha256,
)
from perception.region_classifier import (
    DEFAULT_REGION_WEIGHTS,
    load_region_classifier,
    region_inputs,
)

IN_PLANT = 0.6  # share of a detection's pixels in a house plant's mask that makes it a part of the plant


@dataclass(frozen=True)
class MaskedBoxes:
    """Which boxes ``detect`` can keep, so only they get masks: those scoring ``score`` or
    more, and those of the ``focus`` labels scoring ``focus_score`` or more. In the Follower's
    frames the focus floor lets through boxes of every class below ``score`` that ``detect``
    then drops, and their masks were made for nothing (the mask head and predictor were a
    fifth of ``detect``'s time)."""

    score: float
    focus: frozenset[int] = frozenset()  # labels (class index + 1)
    focus_score: float = 1.0

    def wants(self, labels: Any, scores: Any) -> Any:
        """A boolean tensor: per box (``labels``, ``scores``: tensors), whether it gets a mask."""
        import torch

        focused = torch.tensor([int(label) in self.focus for label in labels], dtype=torch.bool)
        return (scores >= self.score) | (focused & (scores >= self.focus_score))


@perception.register("maskrcnn")
class MaskRCNNPerception(Perception):
    @dataclass
    class Params:
        weights: str = ""  # a weights file; empty = the shipped perception/weights/maskrcnn.pt
        score_threshold: float = field(default=0.5, metadata={"range": (0.0, 1.0)})
        # the threshold for the types the Follower looks for (``attend``); = score_threshold: off
        focus_threshold: float = field(default=0.25, metadata={"range": (0.0, 1.0)})
        mask_threshold: float = field(default=0.45, metadata={"range": (0.0, 1.0)})
        # the masks snapped to the frame's edges by a guided filter of this radius in pixels
        # (0: the mask head's masks as pasted) and regulariser (perception.mask_edges)
        edge_radius: int = field(default=3, metadata={"range": (0, 16)})
        edge_eps: float = field(default=1e-4, metadata={"range": (1e-6, 1.0)})
        threads: int = field(default=1, metadata={"range": (1, 64)})  # torch CPU threads
        # a region classifier file fitted to ``weights``; "" = the shipped one with the shipped
        # weights (none with other weights), "none" = the box head's own classes
        region_classifier: str = ""
        # a fine segmenter file fitted to ``weights``; "" = the shipped one with the shipped
        # weights (none with other weights), "none" = the small things left to the network
        fine_segmenter: str = ""
        # distinct frames whose outputs are kept and reused when the frame is seen again (0: none)
        frame_cache: int = field(default=256, metadata={"range": (0, 100000)})

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
        self.weights_sha256 = sha256(path)
        regions = self.params.region_classifier
        if regions == "" and not self.params.weights:
            regions = str(DEFAULT_REGION_WEIGHTS)
        if regions not in ("", "none"):
            self.regions, self.region_config, region_meta = load_region_classifier(Path(regions), self.classes,
                                                                                   self.weights_sha256)
            self.meta = {**self.meta, "region_classifier": {"file": regions, **region_meta}}
        fine = self.params.fine_segmenter
        if fine == "" and not self.params.weights:
            fine = str(DEFAULT_FINE_WEIGHTS)
        if fine not in ("", "none"):
            self.attach_fine(Path(fine))

    @classmethod
    def from_model(cls, model: Any, classes: tuple[str, ...], params: Params | None = None) -> MaskRCNNPerception:
        """A module around a copy of an in-memory network (benchmarks, tests); the network
        itself is left as it was, so it may go on training."""
        self = cls.__new__(cls)
        self.params, self.meta = params or cls.Params(), {}
        self._setup(copy.deepcopy(model), classes)
        return self

    def _setup(self, model: Any, classes: tuple[str, ...]) -> None:
        self._set_threads()
        self.model = for_inference(model)
        self.classes = tuple(classes)
        self.regions = self.region_config = None
        self.fine = self.fine_config = None
        self.weights_sha256 = ""
        self.tap = FeatureTap(self.model)
        self.frames = FrameCache(self.params.frame_cache)

    def attach_fine(self, path: Path | None) -> None:
        """Add the regions of the fine segmenter file ``path`` (``None``: none) to the
        proposals; the file must be fitted to this module's weights."""
        self.frames.clear()
        if path is None:
            self.fine = self.fine_config = None
            self.meta.pop("fine_segmenter", None)
            return
        self.fine, self.fine_config, fine_meta = load_fine_segmenter(path, self.classes, self.weights_sha256)
        self.meta = {**self.meta, "fine_segmenter": {"file": str(path), **fine_meta}}

    def _predicted(self, rgb: np.ndarray, floor: float, masked: MaskedBoxes | None = None) -> dict[str, np.ndarray]:
        """``predict``'s output with the masks cut at ``mask_threshold`` (booleans), from the
        frame cache when this frame was seen lately with this floor and mask rule."""
        key = self.frames.key(rgb, floor, masked)
        out = self.frames.get(key)
        if out is None:
            out = self.predict(rgb, floor=floor, masked=masked)
            out = {**out, "masks": out["masks"] >= self.params.mask_threshold}
            self.frames.put(key, out)
        return out

    def reset(self, context: ModuleContext) -> None:
        super().reset(context)
        self._set_threads()
        self.frames.clear()

    def _set_threads(self) -> None:
        """torch's and OpenCV's (the masks' guided filter) CPU threads: ``params.threads``."""
        import cv2
        import torch

        torch.set_num_threads(self.params.threads)
        cv2.setNumThreads(self.params.threads)

    def predict(self, rgb: np.ndarray, floor: float = MODEL_FLOOR,
                masked: MaskedBoxes | None = None) -> dict[str, np.ndarray]:
        """The network's raw output for one H x W x 3 uint8 frame (boxes, labels, scores,
        masks as N x H x W probabilities), for the boxes scoring above ``floor`` (the
        evaluation keeps the model's 0.05; ``detect`` passes its threshold, which spares
        the mask head and the mask pasting for boxes it would drop: the boxes above it are
        the same either way, since dropping lower-scoring boxes changes neither which
        higher-scoring ones survive per-class NMS nor the top ``detections_per_image``).
        With ``masked`` only the boxes it names get a mask (the others' are all zero: the
        mask head is most of the time after the backbone)."""
        import cv2
        import torch
        from torchvision.models.detection.roi_heads import paste_masks_in_image

        image = image_tensor(rgb)
        model, heads = self.model, self.model.roi_heads
        with torch.inference_mode():
            images, features, proposals = first_stages(model, image)
            sizes = images.image_sizes
            margin = None
            if self.fine is not None:  # the small things' regions join the RPN's proposals
                fine, coarse = self.tap.inputs(features)
                margin = margins(self.fine(fine, coarse, images.tensors)[0], self.fine_config, sizes[0])
                proposals = [torch.cat([proposals[0], region_boxes(margin, self.fine_config)])]
            logits, deltas = self.classify(image, features, proposals[0], sizes[0])
            heads.score_thresh = floor
            try:
                boxes, scores, labels = heads.postprocess_detections(logits, deltas, proposals, sizes)
            finally:
                heads.score_thresh = MODEL_FLOOR
            boxes, scores, labels = boxes[0], scores[0], labels[0]
            wanted = masked.wants(labels, scores) if masked is not None else torch.ones(len(labels), dtype=torch.bool)
            probabilities = own_class_masks(heads, features, boxes[wanted], labels[wanted], sizes)
            frame_boxes = model.transform.postprocess([{"boxes": boxes}], sizes, [tuple(image.shape[1:])])[0]["boxes"]
            masks = torch.zeros((len(boxes), *image.shape[1:]))
            masks[wanted] = paste_masks_in_image(probabilities, frame_boxes[wanted], tuple(image.shape[1:]))[:, 0]
        out = {"boxes": frame_boxes.numpy(), "labels": labels.numpy(), "scores": scores.numpy(),
               "masks": snapped_masks(masks.numpy(), rgb, self.params.edge_radius, self.params.edge_eps)}
        if margin is not None:  # the small things outlined by the segmenter's pixels
            if margin.shape != out["masks"].shape[1:]:
                margin = cv2.resize(margin, out["masks"].shape[:0:-1], interpolation=cv2.INTER_LINEAR)
            out["masks"] = refined_masks(out, margin, self.fine_config, self.classes, wanted.numpy())
        return out

    def classify(self, image: Any, features: Any, boxes: Any, size: tuple[int, int]) -> tuple[Any, Any]:
        """(class logits, box regression) of ``boxes`` (N x 4 in the network's resized frame of
        ``size``): the box head's, the logits from the region classifier when one is loaded."""
        heads = self.model.roi_heads
        box_features = heads.box_head(heads.box_roi_pool(features, [boxes], [size]))
        logits, deltas = heads.box_predictor(box_features)
        if self.regions is not None:
            crops, shapes = region_inputs(image, boxes * frame_scale(image, size), self.region_config)
            logits = self.regions(box_features, crops, shapes)
        return logits, deltas

    def detect(self, observation: Observation) -> list[Detection]:
        if observation.rgb is None:  # a symbolic run: no frames
            return []
        focus = self.focus
        floor = min(self.params.score_threshold, self.params.focus_threshold) if focus else self.params.score_threshold
        masked = MaskedBoxes(self.params.score_threshold,
                             frozenset(self.classes.index(t) + 1 for t in focus if t in self.classes),
                             self.params.focus_threshold)
        out = self._predicted(observation.rgb, floor, masked)
        h, w = observation.rgb.shape[:2]
        outranked = _outranked(out) if focus else np.zeros(len(out["scores"]), dtype=bool)
        # two lookalike utensils' boxes in one place (IoU >= 0.5) are one, of the higher-scoring type
        # (ALFRED dev 062552: a spatula scoring 0.90 was also a knife at 0.67, picked up to slice with)
        lookalike = _outranked(out, among=np.array([self.classes[int(label) - 1] in LOOKALIKES for label in out["labels"]],
                                                   dtype=bool))
        detections = []
        for box, label, score, mask, other, mistaken in zip(out["boxes"], out["labels"], out["scores"], out["masks"],
                                                            outranked, lookalike, strict=True):
            object_type = self.classes[int(label) - 1]
            if mistaken or (score < self.params.score_threshold
                            and not (object_type in focus and score >= self.params.focus_threshold and not other)):
                continue
            if not mask.any():
                continue
            x0, y0, x1, y1 = (float(v) for v in np.clip(box, 0, [w, h, w, h]))
            detections.append(Detection(object_type, float(min(max(score, 0.0), 1.0)),
                                        (x0, y0, x1, y1), mask))
        return without_plant_parts(detections)


def without_plant_parts(detections: list[Detection]) -> list[Detection]:
    """The detections but those lying mostly (``IN_PLANT`` of their pixels) in a house plant's
    mask: its pot and leaves taken for things. In a frame of TATC valid_unseen 0120 (stop 96),
    FloorPlan10's plant (in 261 of the 288 valid_unseen episodes) held a tomato at 0.91,
    wholly in the plant's mask, where no tomato is. Nothing is ever put into a house plant, so
    nothing seen in it is lost."""
    plants = [d.mask for d in detections if d.object_type == "HousePlant"]
    if not plants:
        return detections
    plant = np.logical_or.reduce(plants)
    return [d for d in detections
            if d.object_type == "HousePlant" or np.count_nonzero(d.mask & plant) < IN_PLANT * d.pixels]


def own_class_masks(heads: Any, features: Any, boxes: Any, labels: Any, sizes: list[tuple[int, int]]) -> Any:
    """The mask head's probabilities (N x 1 x 28 x 28) for ``boxes`` (in the network's resized
    frame) of their ``labels``, as torchvision's ``maskrcnn_inference`` gives them, but
    computing only each box's own class of the predictor's last 1 x 1 convolution instead of
    all 117."""
    import torch

    predictor = heads.mask_predictor
    x = heads.mask_head(heads.mask_roi_pool(features, [boxes], sizes))
    x = predictor.relu(predictor.conv5_mask(x))
    last = predictor.mask_fcn_logits
    weights, bias = last.weight[labels, :, 0, 0], last.bias[labels]
    n, channels, height, width = x.shape
    logits = torch.bmm(weights[:, None, :], x.reshape(n, channels, height * width)) + bias[:, None, None]
    return logits.sigmoid().reshape(n, 1, height, width)


def first_stages(model: Any, image: Any) -> tuple[Any, Any, list[Any]]:
    """(transformed images, feature maps, proposals) of one 3 x H x W frame: the network's
    eval forward up to the box head (``predict`` goes on from there, as torchvision's
    ``MaskRCNN.forward`` does, so the region classifier can see each proposal's pixels)."""
    images, _ = model.transform([image])
    features = model.backbone(images.tensors)
    proposals, _ = model.rpn(images, features)
    return images, features, proposals


def frame_scale(image: Any, size: tuple[int, int]) -> Any:
    """The factors (x, y, x, y) from the network's resized frame of ``size`` (H, W) back to ``image``'s pixels."""
    import torch

    return torch.tensor([image.shape[2] / size[1], image.shape[1] / size[0]] * 2)


def _outranked(out: dict[str, np.ndarray], among: np.ndarray | None = None) -> np.ndarray:
    """Per box: another class's box scores higher where it is (IoU >= 0.5) -- a pan that also
    scores a little as a mug is a pan. ``among`` (a flag per box): only flagged boxes, by
    flagged boxes."""
    import torch
    from torchvision.ops import box_iou

    boxes = torch.from_numpy(out["boxes"])
    overlap = box_iou(boxes, boxes).numpy() >= 0.5
    higher = out["scores"][None, :] > out["scores"][:, None]
    other = out["labels"][None, :] != out["labels"][:, None]
    pairs = overlap & higher & other
    if among is not None:
        pairs &= among[:, None] & among[None, :]
    return pairs.any(axis=1)
