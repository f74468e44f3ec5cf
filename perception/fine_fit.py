"""Fitting the fine segmenter (``nesy detector fine``) to one set of Mask R-CNN weights.

From COCO sets of train floor plans (``nesy detector data``) it labels every pixel of a frame
small thing (an object of one of the segmenter's classes drawn there) or not, and fits the
segmenter by cross-entropy with the small things' pixels weighted ``object_weight`` times
the others (they are about one pixel in 300), the Mask R-CNN frozen (its backbone and FPN
run under ``no_grad`` and give the segmenter's inputs). Adam with a one-cycle schedule,
batches and flips drawn from (seed, epoch) alone; a checkpoint every ``checkpoint_every``
steps (``OUT.ckpt``), from which an interrupted fit resumes exactly. At the end, on a
tuning set of other train floor plans (``tune``), the module is scored (mask mAP@0.5 plus
mask mAP) without the segmenter, with its regions as proposals under each set of
inference shifts of ``SHIFT_SETS`` (how much of the loss's leaning to small things is
taken back, one region map per shift), then with the small things' masks cut from its
pixels at each of ``MASK_SHIFTS``; the best set and mask shift are kept in the file. The
file records the Mask R-CNN weights' SHA-256, the sets, the scores and CPU time.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from perception.classes import CLASSES
from perception.coco import CocoFrames, decode_mask, image_tensor
from perception.fine_segmenter import (
    FineConfig,
    build_fine_segmenter,
    full_logits,
    save_fine_segmenter,
)

# the sets of inference shifts tried on the tuning frames for the proposals (``FineConfig.shifts``),
# then the masks' shifts (``FineConfig.mask_shift``; -1: the mask head's masks) with the best set
SHIFT_SETS = ((0.0,), (1.0,), (0.0, 1.0))
MASK_SHIFTS = (-1.0, 0.0, 0.5, 1.0)


@dataclass(frozen=True)
class FineFitSpec:
    """One fit: the sets, how many frames of each, the optimisation (resuming must match all
    but ``tune``)."""

    data: tuple[str, ...]  # set folders of train floor plans
    out: str
    tune: str = ""  # a set folder of other train floor plans choosing the shifts ("": FineConfig's defaults)
    images: int = 20000  # frames per set at most (the first ones)
    epochs: int = 2
    batch: int = 8
    lr: float = 2e-3
    object_weight: float = 20.0
    seed: int = 0
    checkpoint_every: int = 100


def label_map(frames: CocoFrames, index: int, config: FineConfig) -> np.ndarray:
    """H x W int64: per pixel, 1 where an object of one of ``config.classes`` is drawn, else 0."""
    labels = np.zeros((frames.images[index]["height"], frames.images[index]["width"]), dtype=np.int64)
    for ann in frames.by_image[frames.images[index]["id"]]:
        if CLASSES[ann["category_id"] - 1] in config.classes:
            labels[decode_mask(ann["segmentation"])] = 1
    return labels


def _batch(frames_by_set: list[CocoFrames], items: list[tuple[int, int]], config: FineConfig, flips: list[bool]):
    import torch

    images, labels = [], []
    for (s, index), flip in zip(items, flips, strict=True):
        rgb, label = frames_by_set[s].rgb(index), label_map(frames_by_set[s], index, config)
        if flip:
            rgb, label = rgb[:, ::-1], label[:, ::-1]
        images.append(image_tensor(np.ascontiguousarray(rgb)))
        labels.append(torch.from_numpy(np.ascontiguousarray(label)))
    return images, torch.stack(labels)


def fit(spec: FineFitSpec, module: Any, base_sha256: str, progress: bool = True) -> dict[str, Any]:
    """Fit, save to ``spec.out`` and (with ``spec.tune``) choose the inference shifts; ``module``
    is a ``MaskRCNNPerception`` of the weights (its fine segmenter off)."""
    import torch
    from torch.nn import functional
    from tqdm import tqdm

    started, wall = time.process_time(), time.perf_counter()
    fine_channels, coarse_channels = module.tap.channels()
    config = FineConfig(fine_channels=fine_channels, coarse_channels=coarse_channels, object_weight=spec.object_weight)
    frames_by_set = [CocoFrames(Path(folder)) for folder in spec.data]
    items = [(s, i) for s, frames in enumerate(frames_by_set) for i in range(min(spec.images, len(frames)))]
    per_epoch = (len(items) + spec.batch - 1) // spec.batch
    steps = spec.epochs * per_epoch
    torch.manual_seed(spec.seed)
    model = build_fine_segmenter(config)
    optimizer = torch.optim.Adam(model.parameters(), lr=spec.lr)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=spec.lr, total_steps=steps, pct_start=0.05)
    checkpoint = Path(spec.out + ".ckpt")
    resumable = {k: v for k, v in asdict(spec).items() if k != "tune"}  # what a resumed fit must match
    step, losses, prior_cpu = 0, [], 0.0
    if checkpoint.is_file():
        saved = torch.load(checkpoint, weights_only=True)
        if saved["spec"] != resumable:
            raise ValueError(f"{checkpoint}: a checkpoint of another fit; delete it or use another --out")
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        schedule.load_state_dict(saved["schedule"])
        step, losses, prior_cpu = saved["step"], saved["losses"], saved["cpu_seconds"]
    weight = torch.tensor([1.0, spec.object_weight])
    bar = tqdm(total=steps, initial=step, desc="fine segmenter", unit="step", disable=not progress)
    model.train()
    while step < steps:
        epoch, offset = divmod(step, per_epoch)
        order = random.Random(spec.seed * 1_000_003 + epoch).sample(items, len(items))
        chosen = order[offset * spec.batch:(offset + 1) * spec.batch]
        flips = [random.Random(spec.seed * 7_919 + step * 131 + k).random() < 0.5 for k in range(len(chosen))]
        images, labels = _batch(frames_by_set, chosen, config, flips)
        with torch.no_grad():
            pixels, fine, coarse, size = module.tap(images)
        if tuple(labels.shape[1:]) != size:  # the network resizes its frames: the labels follow, nearest
            labels = functional.interpolate(labels[:, None].float(), size=size, mode="nearest")[:, 0].long()
        logits = full_logits(model(fine, coarse, pixels), config)[..., :size[0], :size[1]]
        loss = functional.cross_entropy(logits, labels, weight=weight)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        step += 1
        losses.append(round(loss.item(), 5))
        bar.update(1)
        bar.set_postfix(loss=f"{np.mean(losses[-50:]):.4f}")
        if step % spec.checkpoint_every == 0 or step == steps:
            torch.save({"spec": resumable, "model": model.state_dict(),
                        "optimizer": optimizer.state_dict(), "schedule": schedule.state_dict(), "step": step,
                        "losses": losses, "cpu_seconds": prior_cpu + time.process_time() - started},
                       f"{checkpoint}.tmp")
            Path(f"{checkpoint}.tmp").replace(checkpoint)
    bar.close()
    model.eval()
    meta = {"base_sha256": base_sha256, "spec": asdict(spec), "frames": len(items), "steps": steps,
            "loss_per_epoch": [round(float(np.mean(losses[e * per_epoch:(e + 1) * per_epoch])), 4)
                               for e in range(spec.epochs)],
            "threads": torch.get_num_threads()}
    save_fine_segmenter(Path(spec.out), model, config, meta)
    if spec.tune:
        meta["tune"] = tune_segmenter(Path(spec.out), Path(spec.tune), module, config.classes, progress)
        config = replace(config, shifts=tuple(meta["tune"]["shifts"]), mask_shift=meta["tune"]["mask_shift"])
    meta["cpu_seconds"] = round(prior_cpu + time.process_time() - started, 1)
    meta["wall_seconds"] = round(time.perf_counter() - wall, 1)
    save_fine_segmenter(Path(spec.out), model, config, meta)
    return {"out": spec.out, **meta}


def tune_segmenter(path: Path, tune: Path, module: Any, classes: tuple[str, ...], progress: bool) -> dict[str, Any]:
    """The scores on ``tune`` (mask mAP@0.5, mask mAP, and mask AP@0.5 per class of
    ``classes``, the segmenter's) of the module without the segmenter, with it under each
    set of ``SHIFT_SETS`` (the masks the mask head's), then under each of ``MASK_SHIFTS``
    with the best set; the best set (``shifts``) and mask shift (``mask_shift``): the most
    mask mAP@0.5 + mask mAP."""
    from perception.evaluate import evaluate

    def scores(**change: Any) -> dict[str, Any]:
        if change:
            module.attach_fine(path)
            module.fine_config = replace(module.fine_config, **change)
        result = evaluate(module, tune, progress=progress)
        return {"mask_map50": result["mask_map50"], "mask_map": result["mask_map"],
                "mask_ap50": {name: row["mask_ap50"] for name, row in result["per_class"].items() if name in classes}}

    def best(options: dict) -> Any:
        return max(options, key=lambda k: options[k]["mask_map50"] + options[k]["mask_map"])

    try:
        base = scores()
        by_set = {shifts: scores(shifts=shifts, mask_shift=-1.0) for shifts in SHIFT_SETS}
        shifts = best(by_set)
        by_mask = {m: by_set[shifts] if m == -1.0 else scores(shifts=shifts, mask_shift=m) for m in MASK_SHIFTS}
    finally:
        module.attach_fine(None)
    return {"without": base, "by_shifts": {" ".join(map(str, s)): v for s, v in by_set.items()},
            "by_mask_shift": {str(m): v for m, v in by_mask.items()}, "shifts": list(shifts),
            "mask_shift": best(by_mask)}
