"""COCO evaluation (pycocotools) of the ``maskrcnn`` module on a set from ``nesy detector
data`` (by default the valid_unseen set): mask and box mAP (IoU 0.5:0.95) and mAP@0.5,
per class and per object size (COCO's small < 32^2 < medium < 96^2 pixels < large), how
often a detection is right by its score (box IoU >= 0.5 with an object of its class): what
a score threshold buys, and what the module calls each class's objects at its own score
threshold (``confusion``: look-alikes such as apples taken for tomatoes, and misses)."""

from __future__ import annotations

import contextlib
import io
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from perception.coco import CocoFrames, encode_mask, read_annotations
from perception.maskrcnn import MaskRCNNPerception

SIZES = ("small", "medium", "large")
SCORE_BANDS = (0.05, 0.25, 0.35, 0.5, 0.7, 1.0)


def evaluate(module: MaskRCNNPerception, data: Path, limit: int | None = None, progress: bool = True) -> dict[str, Any]:
    from pycocotools.coco import COCO
    from tqdm import tqdm

    data = Path(data)
    frames = CocoFrames(data)
    gt_raw = read_annotations(data)
    count = len(frames) if limit is None else min(limit, len(frames))
    keep = {im["id"] for im in frames.images[:count]}
    gt_raw["images"] = [im for im in gt_raw["images"] if im["id"] in keep]
    gt_raw["annotations"] = [a for a in gt_raw["annotations"] if a["image_id"] in keep]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    for index in tqdm(range(count), desc="detector eval", unit="img", disable=not progress):
        image_id = frames.images[index]["id"]
        out = module.predict(frames.rgb(index))
        for box, label, score, prob in zip(out["boxes"], out["labels"], out["scores"], out["masks"], strict=True):
            x0, y0, x1, y1 = (float(v) for v in box)
            results.append({"image_id": image_id, "category_id": int(label), "score": float(score),
                            "bbox": [x0, y0, x1 - x0, y1 - y0],
                            "segmentation": encode_mask(prob >= module.params.mask_threshold)})
    seconds = time.perf_counter() - started
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = gt_raw
        gt.createIndex()
        segm = _run(gt, results, "segm")
        bbox = _run(gt, results, "bbox")
    names = {c["id"]: c["name"] for c in gt_raw["categories"]}
    instances: dict[int, int] = {}
    for ann in gt_raw["annotations"]:
        instances[ann["category_id"]] = instances.get(ann["category_id"], 0) + 1
    per_class = {}
    for k, cat in enumerate(sorted(names)):
        if cat in instances:
            per_class[names[cat]] = {"instances": instances[cat], "mask_ap": _class_ap(segm, k),
                                     "mask_ap50": _class_ap(segm, k, iou=0), "box_ap": _class_ap(bbox, k)}
    return {
        "mask_map50": _stat(segm, 1), "mask_map": _stat(segm, 0),
        "box_map50": _stat(bbox, 1), "box_map": _stat(bbox, 0),
        "images": count, "instances": len(gt_raw["annotations"]), "detections": len(results),
        "per_class": per_class,
        "per_size": {size: {"mask_map": _stat(segm, 3 + i), "box_map": _stat(bbox, 3 + i)}
                     for i, size in enumerate(SIZES)},
        "precision_by_score": _precision_by_score(bbox),
        "confusion": confusion(gt_raw["annotations"], results, names, module.params.score_threshold),
        "ms_per_frame": round(1000 * seconds / max(count, 1), 1),
        "weights_meta": {k: v for k, v in module.meta.items() if k != "data_info"},
    }


def _run(gt: Any, results: list[dict[str, Any]], kind: str) -> Any:
    from pycocotools.cocoeval import COCOeval

    if not results:
        return None
    dt = gt.loadRes([dict(r) for r in results])
    evaluation = COCOeval(gt, dt, kind)
    evaluation.evaluate()
    evaluation.accumulate()
    evaluation.summarize()
    return evaluation


def _stat(evaluation: Any, index: int) -> float:
    if evaluation is None:
        return 0.0
    value = float(evaluation.stats[index])
    return round(max(value, 0.0), 4)  # -1: no ground truth of that size


def _class_ap(evaluation: Any, k: int, iou: int | None = None) -> float:
    """AP of category index ``k`` (area all, 100 detections), averaged over IoUs or at one."""
    if evaluation is None:
        return 0.0
    precision = evaluation.eval["precision"]  # [iou, recall, class, area, max dets]
    values = precision[:, :, k, 0, -1] if iou is None else precision[iou, :, k, 0, -1]
    values = values[values > -1]
    return round(float(np.mean(values)), 4) if values.size else 0.0


def confusion(annotations: list[dict[str, Any]], results: list[dict[str, Any]], names: dict[int, str],
              threshold: float) -> dict[str, dict[str, int]]:
    """Per ground-truth class, what its objects are called: the class of the highest-scoring
    detection at or above ``threshold`` whose box meets the object's at IoU >= 0.5, else
    "missed"; most frequent first."""
    from pycocotools import mask as mask_utils

    kept: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        if result["score"] >= threshold:
            kept[result["image_id"]].append(result)
    table: dict[str, Counter] = defaultdict(Counter)
    for ann in annotations:
        detections = kept.get(ann["image_id"], [])
        called = "missed"
        if detections:
            ious = mask_utils.iou([d["bbox"] for d in detections], [ann["bbox"]], [0])[:, 0]
            overlapping = [(d["score"], d["category_id"]) for d, iou in zip(detections, ious, strict=True) if iou >= 0.5]
            if overlapping:
                called = names[max(overlapping)[1]]
        table[names[ann["category_id"]]][called] += 1
    return {name: dict(counts.most_common()) for name, counts in sorted(table.items())}


def _precision_by_score(evaluation: Any) -> dict[str, dict[str, float]]:
    """Per band of ``SCORE_BANDS``: detections, and the share matched at IoU 0.5 (all sizes)."""
    if evaluation is None:
        return {}
    scores, matched = [], []
    for image in evaluation.evalImgs:
        if image is None or list(image["aRng"]) != list(evaluation.params.areaRng[0]):
            continue
        keep = ~np.asarray(image["dtIgnore"][0], dtype=bool)
        scores.extend(np.asarray(image["dtScores"])[keep])
        matched.extend(np.asarray(image["dtMatches"][0])[keep] > 0)
    scores, matched = np.asarray(scores), np.asarray(matched, dtype=bool)
    out = {}
    for low, high in zip(SCORE_BANDS, SCORE_BANDS[1:], strict=False):
        band = (scores >= low) & (scores < high if high < 1.0 else scores <= high)
        out[f"{low:.2f}-{high:.2f}"] = {"detections": int(band.sum()),
                                         "precision": round(float(matched[band].mean()), 3) if band.any() else 0.0}
    return out
