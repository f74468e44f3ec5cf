"""Refit the box head's classifier (``nesy detector refit``): the last layer of trained
weights, fitted again on the box features of a training set with class-balanced weights.

Full training sees a knife in one frame of sixteen, as one region among 256 of which three
quarters are background, and learns to call it background. Its box features still tell a
knife from a fork (``nesy detector stages`` and docs/perception.md): the last linear layer,
fitted again with each class weighted by (largest class count / its count) ** ``balance``,
finds them. Everything else is kept: the backbone, the RPN, the box regression, the masks.
The regions are those the network trains on (its own proposals at test time, plus the
ground-truth boxes, sampled by torchvision's rule: at most a quarter of 256 foreground);
their 512-number features are extracted once, then the layer is fitted for ``epochs``
passes with Adam. Minutes on one thread, seeded, from train floor plans only.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perception.classes import CLASSES
from perception.coco import CocoFrames

BACKGROUND_WEIGHT = 1.0  # the background class keeps weight 1 whatever ``balance`` is


@dataclass(frozen=True)
class RefitSpec:
    """One refit: the training set, the weights it starts from, what it writes."""

    data: str  # a train set folder from ``nesy detector data``
    out: str  # the weights file to write (float32; ``nesy detector export`` makes the shipped form)
    weights: str = ""  # weights to start from ("" = the shipped file)
    images: int = 3000  # the set's first N images give the regions
    balance: float = 0.5  # class weight = (largest count / count) ** balance; 0 = plain cross-entropy
    epochs: int = 20
    lr: float = 1e-3
    batch: int = 512
    seed: int = 0
    threads: int = 1


def refit(spec: RefitSpec, progress: bool = True) -> dict[str, Any]:
    """Extract the regions' features, fit the classifier, write ``spec.out``; a summary."""
    import torch

    from perception.maskrcnn_model import DEFAULT_WEIGHTS, build_model, load_weights, save_weights
    from perception.train import check_training_set

    torch.set_num_threads(spec.threads)
    torch.manual_seed(spec.seed)
    data = Path(spec.data)
    check_training_set(data)
    source = Path(spec.weights) if spec.weights else DEFAULT_WEIGHTS
    config, classes, state, meta = load_weights(source)
    model = build_model(config)
    model.load_state_dict(state)
    model.eval()
    started = time.perf_counter()
    features, labels = extract(model, CocoFrames(data), spec.images, progress)
    extracted = time.perf_counter() - started
    layer = model.roi_heads.box_predictor.cls_score
    losses = fit(layer, features, labels, spec)
    out = Path(spec.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    counts = torch.bincount(labels, minlength=len(CLASSES) + 1)
    note = {"refit": {**asdict(spec), "from": str(source), "regions": int(len(labels)),
                      "foreground": int((labels > 0).sum()), "losses": losses}}
    save_weights(out, model, config, tuple(classes), {**meta, **note})
    return {"weights": str(out), "from": str(source), "regions": int(len(labels)),
            "foreground": int((labels > 0).sum()), "classes_seen": int((counts[1:] > 0).sum()),
            "first_loss": losses[0], "last_loss": losses[-1], "seconds_extract": round(extracted, 1),
            "seconds": round(time.perf_counter() - started, 1), "threads": spec.threads}


def extract(model: Any, frames: CocoFrames, images: int, progress: bool = True) -> tuple[Any, Any]:
    """The box head's features (float16, N x 512) and class labels (0 = background) of the
    regions torchvision would train the box classifier on, over the first ``images`` frames."""
    import torch
    from tqdm import tqdm

    heads = model.roi_heads
    features, labels = [], []
    for index in tqdm(range(min(images, len(frames))), desc="refit regions", unit="img", disable=not progress):
        image, target = frames.item(index)
        if len(target["labels"]) == 0:
            continue
        with torch.inference_mode():
            batch, targets = model.transform([image], [target])
            maps = model.backbone(batch.tensors)
            proposals, _ = model.rpn(batch, maps)
            proposals, _, region_labels, _ = heads.select_training_samples(proposals, targets)
            pooled = heads.box_roi_pool(maps, proposals, batch.image_sizes)
            features.append(heads.box_head(pooled).to(torch.float16))
        labels.append(region_labels[0])
    if not features:
        raise ValueError(f"{frames.folder}: no annotated image among the first {images}")
    return torch.cat(features), torch.cat(labels)


def class_weights(labels: Any, classes: int, balance: float) -> Any:
    """(largest foreground count / count) ** balance per class (unseen classes: 1), background 1."""
    import torch

    counts = torch.bincount(labels, minlength=classes).float()
    weights = torch.ones(classes)
    seen = counts > 0
    seen[0] = False
    if seen.any():
        weights[seen] = (counts[seen].max() / counts[seen]) ** balance
    weights[0] = BACKGROUND_WEIGHT
    return weights


def fit(layer: Any, features: Any, labels: Any, spec: RefitSpec) -> list[float]:
    """Fit ``layer`` (in place, from its current weights) by weighted cross-entropy; the mean
    loss of each epoch."""
    import torch

    weights = class_weights(labels, layer.out_features, spec.balance)
    optimizer = torch.optim.Adam(layer.parameters(), lr=spec.lr)
    generator = torch.Generator().manual_seed(spec.seed)
    losses = []
    with torch.enable_grad():
        for _ in range(spec.epochs):
            order = torch.randperm(len(labels), generator=generator)
            total = 0.0
            for start in range(0, len(labels), spec.batch):
                pick = order[start:start + spec.batch]
                loss = torch.nn.functional.cross_entropy(layer(features[pick].float()), labels[pick], weight=weights)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total += loss.item() * len(pick)
            losses.append(round(total / len(labels), 4))
    return losses
