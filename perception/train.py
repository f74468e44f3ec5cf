"""Seeded CPU training of the Mask R-CNN on a COCO set made by ``nesy detector data``.

SGD with momentum (lr 0.005 for a batch of 4: torchvision's 0.02 per 16 images; 0.02
diverged in a smoke run), gradient norms clipped at 10, linear warm-up then cosine decay;
a batch order, flips and the samplers' randomness derived from (seed, step) alone, so an
interrupted run resumed from its last checkpoint continues exactly as if it had not stopped. Checkpoints (model,
optimizer, step) go to ``OUT/checkpoints/`` every ``checkpoint_every`` steps (the last
three kept); the log of every step to ``OUT/train_log.jsonl``; at the end the weights
file ``OUT/maskrcnn.pt`` (what the ``maskrcnn`` module loads). Keep ``OUT`` out of git
(``runs/`` is ignored).

``init`` starts a run from a whole weights file (e.g. the shipped one) instead of the
ImageNet backbone alone: training continued across sessions whose run folders are gone,
since only the shipped weights outlive a session. The file's network must be the run's.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from contracts.errors import NesyError
from perception.classes import CLASSES
from perception.coco import CocoFrames, FrameSets, read_annotations
from perception.maskrcnn_model import (
    FORMAT,
    ModelConfig,
    WeightsError,
    _torch_load,
    backbone_checkpoint,
    build_model,
    save_weights,
)

KEEP_CHECKPOINTS = 3


@dataclass(frozen=True)
class TrainSpec:
    """One training run (what resuming must match: everything but ``steps``/``threads``)."""

    data: str | tuple[str, ...]  # set folders from ``nesy detector data`` (train split), trained on together
    out: str
    steps: int = 20000
    batch: int = 4
    lr: float = 0.005  # torchvision's 0.02 per 16 images, scaled to a batch of 4
    momentum: float = 0.9
    weight_decay: float = 1e-4
    warmup: int = 500
    clip: float = 10.0  # gradient norm clipping
    seed: int = 0
    threads: int = 2
    checkpoint_every: int = 500
    flip: bool = True
    pretrained: bool = True  # ImageNet MobileNetV2 backbone (else random: tests, ``scratch_config``)
    init: str = ""  # a weights file to start from (its SHA-256 is part of the resume key)
    model: ModelConfig = field(default_factory=lambda: ModelConfig(num_classes=len(CLASSES)))

    def resume_key(self) -> dict[str, Any]:
        key = asdict(self)
        for name in ("steps", "threads", "out", "checkpoint_every", "init"):
            key.pop(name)
        key["model"] = self.model.to_dict()
        if self.init:
            from perception.maskrcnn_model import sha256

            key["init"] = sha256(Path(self.init)) if Path(self.init).is_file() else self.init
        return key


def learning_rate(spec: TrainSpec, step: int) -> float:
    warm = min(1.0, (step + 1) / max(spec.warmup, 1))
    progress = min(step / max(spec.steps, 1), 1.0)
    return spec.lr * warm * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * progress)))


def batch_indices(spec: TrainSpec, size: int, step: int) -> list[int]:
    """The set indices of ``step``'s batch: a seeded permutation per epoch."""
    out = []
    for position in range(step * spec.batch, (step + 1) * spec.batch):
        epoch, offset = divmod(position, size)
        order = list(range(size))
        random.Random(f"{spec.seed}:epoch:{epoch}").shuffle(order)
        out.append(order[offset])
    return out


def check_training_set(folder: Path) -> None:
    """Refuse a set that is not from train floor plans only."""
    from simulator.episodes.splits import TEST_UNSEEN, VALID_UNSEEN

    held_out = set(VALID_UNSEEN + TEST_UNSEEN)
    info = read_annotations(folder).get("info", {})
    plans = set(info.get("floor_plans", ()))
    if info.get("split") != "train" or plans & held_out:
        raise NesyError(f"{folder}: a training set must come from train floor plans only (it says split "
                        f"{info.get('split')!r}, floor plans {sorted(plans & held_out) or 'ok'}); "
                        "make one with nesy detector data")


def latest_checkpoint(out: Path) -> Path | None:
    found = sorted((out / "checkpoints").glob("step_*.pt"))
    return found[-1] if found else None


def train(spec: TrainSpec, progress: bool = True) -> dict[str, Any]:
    """Train (or resume) and write the weights file; returns a summary."""
    import torch
    from tqdm import tqdm

    torch.set_num_threads(spec.threads)
    out = Path(spec.out)
    folders = [Path(spec.data)] if isinstance(spec.data, str) else [Path(f) for f in spec.data]
    for folder in folders:
        check_training_set(folder)
    frames = FrameSets([CocoFrames(folder) for folder in folders])
    torch.manual_seed(spec.seed)
    model = build_model(spec.model, backbone_checkpoint() if spec.pretrained and not spec.init else None)
    if spec.init:
        _start_from(model, spec)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=spec.lr, momentum=spec.momentum, weight_decay=spec.weight_decay)
    step = _resume(out, spec, model, optimizer)
    _trim_log(out / "train_log.jsonl", step)
    model.train()
    log = (out / "train_log.jsonl").open("a", encoding="utf-8")
    bar = tqdm(total=spec.steps, initial=step, desc="detector train", unit="step", disable=not progress)
    losses: list[float] = []
    seconds: list[float] = []
    try:
        while step < spec.steps:
            started = time.perf_counter()
            torch.manual_seed(spec.seed * 1_000_003 + step)  # the samplers' randomness, per step
            items = [frames.item(i, flip=spec.flip and random.Random(f"{spec.seed}:{step}:{j}").random() < 0.5)
                     for j, i in enumerate(batch_indices(spec, len(frames), step))]
            for group in optimizer.param_groups:
                group["lr"] = learning_rate(spec, step)
            parts = model([im for im, _ in items], [t for _, t in items])
            loss = sum(parts.values())
            if not torch.isfinite(loss):
                raise NesyError(f"training diverged at step {step} (loss {float(loss)}); lower --lr")
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, spec.clip)
            optimizer.step()
            step += 1
            seconds.append(time.perf_counter() - started)
            losses.append(loss.item())
            log.write(json.dumps({"step": step, "loss": round(losses[-1], 5), "lr": learning_rate(spec, step - 1),
                                  **{k: round(v.item(), 5) for k, v in parts.items()},
                                  "seconds": round(seconds[-1], 3)}) + "\n")
            log.flush()
            bar.update(1)
            bar.set_postfix(loss=f"{losses[-1]:.3f}")
            if step % spec.checkpoint_every == 0 or step == spec.steps:
                _save_checkpoint(out, spec, model, optimizer, step)
    finally:
        bar.close()
        log.close()
    weights = out / "maskrcnn.pt"
    save_weights(weights, model, spec.model, CLASSES, {
        "steps": step, "seed": spec.seed, "data": ", ".join(str(f) for f in folders),
        "data_info": [read_annotations(f).get("info", {}) for f in folders]})
    return {"steps": step, "steps_this_run": len(losses), "threads": spec.threads, "batch": spec.batch,
            "seconds_per_step": round(sorted(seconds)[len(seconds) // 2], 3) if seconds else None,
            "first_loss": round(losses[0], 4) if losses else None,
            "last_loss": round(sum(losses[-20:]) / len(losses[-20:]), 4) if losses else None,
            "weights": str(weights)}


def _save_checkpoint(out: Path, spec: TrainSpec, model, optimizer, step: int) -> None:
    import torch

    folder = out / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"step_{step:07d}.pt"
    tmp = path.with_name(path.name + ".tmp")
    torch.save({"format": FORMAT, "config": spec.model.to_dict(), "classes": list(CLASSES),
                "model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
                "train": json.loads(json.dumps(spec.resume_key())), "meta": {"steps": step}}, tmp)
    tmp.replace(path)
    for old in sorted(folder.glob("step_*.pt"))[:-KEEP_CHECKPOINTS]:
        old.unlink()


def _resume(out: Path, spec: TrainSpec, model, optimizer) -> int:
    path = latest_checkpoint(out)
    if path is None:
        out.mkdir(parents=True, exist_ok=True)
        return 0
    raw = _torch_load(path, "training checkpoint", f"delete it to restart from {path.parent.name}'s previous one")
    if not isinstance(raw, dict) or raw.get("format") != FORMAT or "optimizer" not in raw:
        raise WeightsError(f"{path}: not a nesy detector training checkpoint; delete it (or choose another --out)")
    if raw.get("train") != json.loads(json.dumps(spec.resume_key())):
        raise NesyError(f"{out} holds a run with other settings (data, seed, batch, lr or model); resume it with "
                        "the same arguments, or choose another --out")
    model.load_state_dict(raw["model"])
    optimizer.load_state_dict(raw["optimizer"])
    return int(raw["step"])


def _start_from(model, spec: TrainSpec) -> None:
    """Load ``spec.init``'s weights into the fresh network (checkpoints, if any, override them)."""
    from perception.maskrcnn_model import load_weights

    config, classes, state, _ = load_weights(Path(spec.init))
    if config != spec.model or tuple(classes) != tuple(CLASSES):
        raise NesyError(f"{spec.init}: its network or classes differ from this run's; train from the ImageNet "
                        "backbone instead (drop --init)")
    model.load_state_dict(state)


def _trim_log(path: Path, step: int) -> None:
    """Drop the log lines of steps after the checkpoint a run resumes from (they are redone)."""
    if path.is_file():
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        kept = [x for x in lines if json.loads(x).get("step", 0) <= step]
        if len(kept) != len(lines):
            path.write_text("".join(x + "\n" for x in kept), encoding="utf-8")
