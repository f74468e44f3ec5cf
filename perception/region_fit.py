"""Fitting the region classifier (``nesy detector regions``) to one set of Mask R-CNN weights.

From COCO sets of train floor plans (``nesy detector data``) it collects, per frame, the
regions the box head sees at test time: the RPN's proposals and the exact ground-truth
boxes, each labelled with the class of the object it overlaps at box IoU >= 0.5, else as
background (every object region and at most ``background_ratio`` times as many background
ones, drawn with a seeded generator). For each region it keeps the box head's feature, the
resampled pixels and the shape, then fits the classifier with Adam and a class-balanced
cross-entropy (each object class weighted by count ** -``balance``, normalised to mean 1
over the object regions; the background weighted 1), in seeded mini-batches. The Mask R-CNN itself is not changed. The result file
records the Mask R-CNN weights' SHA-256, the sets, counts and CPU time.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from perception.coco import CocoFrames, corner_boxes, image_tensor
from perception.maskrcnn import MaskRCNNPerception, first_stages, frame_scale
from perception.region_classifier import (
    RegionConfig,
    build_region_classifier,
    region_inputs,
    save_region_classifier,
)

FOREGROUND_IOU = 0.5  # torchvision's box head threshold for an object region
FIELDS = ("features", "crops", "shapes", "labels")


@dataclass(frozen=True)
class RegionFitSpec:
    """One fit: the sets, how many frames of each, the optimisation."""

    data: tuple[str, ...]  # set folders of train floor plans
    out: str
    images: int = 4000  # frames per set at most (the first ones)
    background_ratio: float = 3.0
    epochs: int = 6
    batch: int = 256
    lr: float = 1e-3
    balance: float = 0.5
    seed: int = 0
    cache: str = ""  # a folder keeping each set's collected regions for another fit with the same weights


@dataclass
class Regions:
    """Collected regions: box head features, crops (uint8), shapes and labels."""

    features: Any
    crops: Any
    shapes: Any
    labels: Any


def collect(module: MaskRCNNPerception, folder: Path, images: int, config: RegionConfig,
            spec: RegionFitSpec, progress: bool = True) -> Regions:
    import torch
    from torchvision.ops import box_iou
    from tqdm import tqdm

    frames = CocoFrames(folder)
    heads = module.model.roi_heads
    parts: dict[str, list] = {k: [] for k in FIELDS}
    count = min(images, len(frames))
    for index in tqdm(range(count), desc=f"regions of {folder.parent.name}/{folder.name}", unit="img",
                      disable=not progress):
        rgb = frames.rgb(index)
        anns = frames.by_image[frames.images[index]["id"]]
        gt = torch.from_numpy(corner_boxes(anns))
        gt_labels = torch.tensor([a["category_id"] for a in anns], dtype=torch.int64)
        image = image_tensor(rgb)
        with torch.inference_mode():
            images_, features, proposals = first_stages(module.model, image)
            scale = frame_scale(image, images_.image_sizes[0])
            boxes = torch.cat([proposals[0] * scale, gt])
            labels = torch.zeros(len(boxes), dtype=torch.int64)
            if len(gt):
                iou, best = box_iou(boxes, gt).max(dim=1)
                labels = torch.where(iou >= FOREGROUND_IOU, gt_labels[best], labels)
            keep = _sample(labels, spec, index)
            boxes, labels = boxes[keep], labels[keep]
            x = heads.box_head(heads.box_roi_pool(features, [boxes / scale], images_.image_sizes))
            crops, shapes = region_inputs(image, boxes, config)
        parts["features"].append(x.half())
        parts["crops"].append((crops * 255).round().to(torch.uint8))
        parts["shapes"].append(shapes)
        parts["labels"].append(labels)
    return Regions(**{k: torch.cat(v) for k, v in parts.items()})


def _collect_cached(module: MaskRCNNPerception, folder: Path, config: RegionConfig, spec: RegionFitSpec,
                    base_sha256: str, progress: bool) -> Regions:
    """``collect``, kept in the ``spec.cache`` folder under a name made of everything the
    regions depend on (the set, frames, sampling, crop and the weights), so another fit of
    the same set and weights skips the collection."""
    import hashlib
    import json

    import torch

    if not spec.cache:
        return collect(module, folder, spec.images, config, spec, progress)
    key = {"set": str(folder.resolve()), "images": spec.images, "background_ratio": spec.background_ratio,
           "seed": spec.seed, "crop": config.crop, "context": config.context, "base_sha256": base_sha256}
    path = Path(spec.cache) / f"regions-{hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]}.pt"
    if path.is_file():
        raw = torch.load(path, weights_only=True)
        return Regions(*(raw[k] for k in FIELDS))
    regions = collect(module, folder, spec.images, config, spec, progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"key": key, **{k: getattr(regions, k) for k in FIELDS}}, path.with_suffix(".tmp"))
    path.with_suffix(".tmp").replace(path)
    return regions


def _sample(labels, spec: RegionFitSpec, index: int):
    import torch

    fg = torch.nonzero(labels > 0).flatten().tolist()
    bg = torch.nonzero(labels == 0).flatten().tolist()
    rng = random.Random(spec.seed * 1_000_003 + index)
    bg = rng.sample(bg, min(len(bg), max(int(spec.background_ratio * len(fg)), 16)))
    return torch.tensor(sorted(fg + bg), dtype=torch.int64)


def fit(spec: RegionFitSpec, module: MaskRCNNPerception, base_sha256: str, progress: bool = True) -> dict[str, Any]:
    import torch
    from tqdm import tqdm

    started = time.process_time()
    wall = time.perf_counter()
    config = RegionConfig(num_classes=len(module.classes), feature=module.model.roi_heads.box_head.fc7.out_features)
    torch.manual_seed(spec.seed)
    collected = [_collect_cached(module, Path(folder), config, spec, base_sha256, progress) for folder in spec.data]
    regions = Regions(*(torch.cat([getattr(r, k) for r in collected]) for k in FIELDS))
    classes = len(module.classes) + 1
    counts = torch.bincount(regions.labels, minlength=classes).float()
    weight = torch.where(counts > 0, counts.clamp(min=1) ** -spec.balance, torch.zeros_like(counts))
    objects = regions.labels[regions.labels > 0]
    weight = weight / weight[objects].mean()
    weight[0] = 1.0  # the background keeps its full weight: most regions at test time are background
    model = build_region_classifier(config, base_classifier=module.model.roi_heads.box_predictor.cls_score)
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=spec.lr)
    n = len(regions.labels)
    steps = spec.epochs * ((n + spec.batch - 1) // spec.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=spec.lr, total_steps=steps, pct_start=0.1)
    generator = torch.Generator().manual_seed(spec.seed)
    losses, per_epoch = [], []
    bar = tqdm(total=steps, desc="region classifier", unit="step", disable=not progress)
    for _ in range(spec.epochs):
        first = len(losses)
        order = torch.randperm(n, generator=generator)
        for start in range(0, n, spec.batch):
            idx = order[start:start + spec.batch]
            crops = regions.crops[idx].float() / 255.0
            flip = torch.rand(len(idx), generator=generator) < 0.5
            crops[flip] = crops[flip].flip(-1)
            logits = model(regions.features[idx].float(), crops, regions.shapes[idx])
            loss = torch.nn.functional.cross_entropy(logits, regions.labels[idx], weight=weight)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            losses.append(loss.item())
            bar.update(1)
            bar.set_postfix(loss=f"{np.mean(losses[-50:]):.3f}")
        per_epoch.append(round(float(np.mean(losses[first:])), 4))
    bar.close()
    meta = {"base_sha256": base_sha256, "spec": asdict(spec), "regions": n,
            "object_regions": int((regions.labels > 0).sum()), "steps": steps,
            "loss_per_epoch": per_epoch,
            "cpu_seconds": round(time.process_time() - started, 1), "wall_seconds": round(time.perf_counter() - wall, 1),
            "threads": torch.get_num_threads()}
    save_region_classifier(Path(spec.out), model.eval(), config, module.classes, meta)
    return {"out": spec.out, **meta}
