"""Training the ``trained`` parser on ALFRED train annotations (our train split BY FLOOR PLAN:
the dev floor plans are never seen):
an ensemble of goal models (goal [+ steps] -> ALFRED fields) and a step model (step instruction -> the
expert's high-level action and its arguments). CPU, a few minutes, reproducible from a seed.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import torch
from torch import nn

from contracts.language import ALFRED_FIELDS
from dialogue import model as M
from dialogue.alfred_data import DEFAULT_DATA, Annotation, load_annotations
from dialogue.model import DEFAULT_MODEL
from simulator.episodes.alfred import DEV_FRACTION, SPLIT_SEED, dev_floor_plans

STEP_HEADS = ("action", "arg0", "arg1")


@dataclass
class TrainConfig:
    data: Path = DEFAULT_DATA
    out: Path = DEFAULT_MODEL
    seed: int = 0
    split_seed: int = SPLIT_SEED
    split: str = "train"  # or "fit" (train minus the validation floor plans, for tuning)
    epochs: int = 8
    ensemble: int = 3  # goal models with seeds seed, seed+1, ...; their probabilities are averaged
    batch_size: int = 64
    lr: float = 3e-3
    dim: int = 32
    hidden: int = 256
    min_count: int = 2
    goal_only_fraction: float = 0.35  # train some goals without their steps (goal-only parsing)
    folds: int = 3  # floor-plan folds for the step readings the goal models train on


Example = tuple[dict[str, list[str]], dict[str, str]]


def goal_examples(anns: list[Annotation], rng: random.Random, goal_only_fraction: float,
                  programs: list[M.Program] | None = None) -> list[Example]:
    """``programs``: each annotation's steps as a step model reads them (``crossfit_programs``)."""
    out = []
    for k, ann in enumerate(anns):
        labels = {name: str(ann.gold[name]) for name in ALFRED_FIELDS}
        out.append((M.features(ann.goal, ann.steps, programs[k] if programs else ()), labels))
        if rng.random() < goal_only_fraction:
            out.append((M.features(ann.goal), labels))
    return out


def step_examples(anns: list[Annotation]) -> list[Example]:
    out = []
    for ann in anns:
        high = [h for h in ann.high_pddl if h["action"] != "NoOp"]
        if len(high) != len(ann.steps):
            continue  # a misaligned annotation (0.1%)
        for text, h in zip(ann.steps, high, strict=True):
            args = [str(a) for a in h["args"]] + ["", ""]
            out.append((M.features(text), {"action": h["action"], "arg0": args[0], "arg1": args[1]}))
    return out


def crossfit_programs(anns: list[Annotation], cfg: TrainConfig, log: Callable[[str], None] = print) -> list[M.Program]:
    """Each annotation's program as read by a step model trained on the other ``cfg.folds``
    folds of floor plans, so that the goal models learn how far to trust a reading of
    unseen rooms' steps (an in-sample reading would be nearly always right)."""
    plans = sorted({a.floor_plan or "" for a in anns})
    if len(plans) < 2:
        log("one floor plan: the goal models train without step readings")
        return [()] * len(anns)
    random.Random(cfg.seed).shuffle(plans)
    fold = {plan: k % cfg.folds for k, plan in enumerate(plans)}
    out: list[M.Program] = [()] * len(anns)
    for k in range(cfg.folds):
        log(f"reading the steps of fold {k + 1}/{cfg.folds} with a step model trained on the others")
        model = fit(step_examples([a for a in anns if fold[a.floor_plan or ""] != k]), STEP_HEADS, cfg, log)
        held = [i for i, a in enumerate(anns) if fold[a.floor_plan or ""] == k]
        for i, program in zip(held, M.programs(model, [anns[i].steps for i in held]), strict=True):
            out[i] = program
    return out


def _build(examples: list[Example], heads: tuple[str, ...], cfg: TrainConfig) -> M.FieldModel:
    counts = Counter(f for feats, _ in examples for seg in M.SEGMENTS for f in feats[seg])
    vocab = {"<pad>": 0}
    for f, n in sorted(counts.items()):
        if n >= cfg.min_count:
            vocab[f] = len(vocab)
    labels = {h: sorted({lab[h] for _, lab in examples}) for h in heads}
    net = M.BagModel(len(vocab), {h: len(v) for h, v in labels.items()}, cfg.dim, cfg.hidden)
    return M.FieldModel(net, vocab, labels)


def fit(examples: list[Example], heads: tuple[str, ...], cfg: TrainConfig,
        log: Callable[[str], None] = print) -> M.FieldModel:
    torch.manual_seed(cfg.seed)
    fm = _build(examples, heads, cfg)
    index = {h: {lab: i for i, lab in enumerate(v)} for h, v in fm.labels.items()}
    targets = {h: torch.tensor([index[h][lab[h]] for _, lab in examples]) for h in heads}
    opt = torch.optim.Adam(fm.model.parameters(), lr=cfg.lr)
    loss_fn = nn.CrossEntropyLoss()
    order = list(range(len(examples)))
    rng = random.Random(cfg.seed)
    for epoch in range(cfg.epochs):
        fm.model.train()
        rng.shuffle(order)
        total = 0.0
        for lo in range(0, len(order), cfg.batch_size):
            batch = order[lo: lo + cfg.batch_size]
            logits = fm.model(*fm.encode([examples[i][0] for i in batch]))
            loss = sum(loss_fn(logits[h], targets[h][batch]) for h in heads)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(batch)
        log(f"  epoch {epoch + 1}/{cfg.epochs}: loss {total / len(order):.4f}")
    fm.model.eval()
    return fm


def train(cfg: TrainConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train both models on our train split and write ``cfg.out``; returns a summary."""
    start = time.perf_counter()
    torch.set_num_threads(1)
    anns = load_annotations(cfg.data, cfg.split, cfg.split_seed)
    rng = random.Random(cfg.seed)
    goals = goal_examples(anns, rng, cfg.goal_only_fraction, crossfit_programs(anns, cfg, log))
    steps = step_examples(anns)
    models: dict[str, M.FieldModel] = {}
    for k in range(cfg.ensemble):
        log(f"training goal model {k + 1}/{cfg.ensemble} on {len(goals)} examples ({len(anns)} train annotations)")
        models[f"goal{k}"] = fit(goals, ALFRED_FIELDS, replace(cfg, seed=cfg.seed + k), log)
    log(f"training the step model on {len(steps)} step instructions")
    models["step"] = fit(steps, STEP_HEADS, cfg, log)
    combos = sorted({tuple(str(a.gold[f]) for f in ALFRED_FIELDS) for a in anns})
    meta = {"seed": cfg.seed, "split": cfg.split, "split_seed": cfg.split_seed, "dev_fraction": DEV_FRACTION,
            "dev_floor_plans": list(dev_floor_plans(cfg.split_seed)), "epochs": cfg.epochs,
            "ensemble": cfg.ensemble, "folds": cfg.folds, "train_annotations": len(anns), "data": Path(cfg.data).name,
            "lexicon": M.lexicon_digest(), "combos": [list(c) for c in combos]}
    M.save(Path(cfg.out), models, meta)
    seconds = time.perf_counter() - start
    return {"model": str(cfg.out), "bytes": Path(cfg.out).stat().st_size, "seconds": round(seconds, 1),
            "goal_vocab": len(models["goal0"].vocab), "step_vocab": len(models["step"].vocab),
            **{k: v for k, v in meta.items() if k != "combos"}, "combos": len(combos)}
