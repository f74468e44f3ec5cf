"""Which stage of the Mask R-CNN loses a class (``nesy detector stages``): the region
proposal network or the box head.

For every ground-truth object of a COCO set from ``nesy detector data`` it measures two
things. First, the best IoU between the object's box and the RPN's proposals, at the
module's own test-time proposal count. Second, the box head's class for the object's exact
ground-truth box, pooled as if it were a proposal (decided by the region classifier when the
module has one). A class whose objects get good proposals
but whose exact boxes the head calls background is lost in the head; more anchors would not
find it. Results are grouped per class, and per shape: thin boxes (long side at least four
times the short) against compact ones."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from perception.classes import CLASSES
from perception.coco import CocoFrames, image_tensor
from perception.maskrcnn import MaskRCNNPerception, first_stages, frame_scale

THIN_RATIO = 4.0  # long side / short side at or above which a box counts as thin
PROPOSED_IOU = 0.5  # a proposal this close is one the box head would be trained to keep


@dataclass(frozen=True)
class StageRow:
    """One ground-truth object through the two stages."""

    name: str
    thin: bool
    proposal_iou: float  # best IoU of the object's box with any RPN proposal
    head_right: bool  # the box head's top class for the exact box is the object's
    head_own_probability: float  # the box head's probability of the object's class


def stages(module: MaskRCNNPerception, data: Path, classes: tuple[str, ...] = (),
           limit: int | None = None, progress: bool = True) -> dict[str, Any]:
    """Per class and per shape: ``instances``, ``proposal_iou_median``, ``proposed`` (share with a
    proposal at IoU >= 0.5), ``head_right`` (share whose exact box the head gives its own class
    as its top class) and ``head_own_probability_median``."""
    from tqdm import tqdm

    frames = CocoFrames(Path(data))  # its categories are checked to be CLASSES: id k + 1 is CLASSES[k]
    unknown = sorted(set(classes) - set(CLASSES))
    if unknown:
        raise ValueError(f"not classes of this set: {', '.join(unknown)} (see perception/classes.py)")
    wanted = set(classes) or set(CLASSES)
    count = len(frames) if limit is None else min(limit, len(frames))
    rows: list[StageRow] = []
    for index in tqdm(range(count), desc="detector stages", unit="img", disable=not progress):
        objects = [(CLASSES[a["category_id"] - 1], a["bbox"]) for a in frames.by_image[frames.images[index]["id"]]
                   if CLASSES[a["category_id"] - 1] in wanted and a["bbox"][2] >= 1 and a["bbox"][3] >= 1]
        if objects:
            rows.extend(probe(module, frames.rgb(index), objects))
    per_class: dict[str, list[StageRow]] = defaultdict(list)
    per_shape: dict[str, list[StageRow]] = defaultdict(list)
    for row in rows:
        per_class[row.name].append(row)
        per_shape["thin" if row.thin else "compact"].append(row)
    return {"images": count, "instances": len(rows), "thin_ratio": THIN_RATIO,
            "per_shape": {k: _summary(v) for k, v in sorted(per_shape.items())},
            "per_class": {k: _summary(v) for k, v in sorted(per_class.items())}}


def probe(module: MaskRCNNPerception, rgb: np.ndarray, objects: list[tuple[str, Any]]) -> list[StageRow]:
    """Each object, given as (class name, COCO box x y w h in pixels of ``rgb``), through the
    RPN and through the box head on its exact box."""
    import torch
    from torchvision.ops import box_iou

    model = module.model
    image = image_tensor(rgb)
    boxes = torch.tensor([[x, y, x + w, y + h] for _, (x, y, w, h) in objects], dtype=torch.float32)
    with torch.inference_mode():
        images, features, proposals = first_stages(model, image)
        proposals = proposals[0]
        boxes = boxes / frame_scale(image, images.image_sizes[0])
        best = box_iou(boxes, proposals).max(dim=1).values if len(proposals) else torch.zeros(len(objects))
        probabilities = torch.softmax(module.classify(image, features, boxes, images.image_sizes[0])[0], dim=-1)
    out = []
    for k, (name, (_, _, w, h)) in enumerate(objects):
        label = module.classes.index(name) + 1
        out.append(StageRow(name, max(w, h) >= THIN_RATIO * min(w, h), float(best[k]),
                            int(probabilities[k].argmax()) == label, float(probabilities[k, label])))
    return out


def _summary(rows: list[StageRow]) -> dict[str, Any]:
    return {"instances": len(rows),
            "proposal_iou_median": round(float(np.median([r.proposal_iou for r in rows])), 3),
            "proposed": round(float(np.mean([r.proposal_iou >= PROPOSED_IOU for r in rows])), 3),
            "head_right": round(float(np.mean([r.head_right for r in rows])), 3),
            "head_own_probability_median": round(float(np.median([r.head_own_probability for r in rows])), 3)}
