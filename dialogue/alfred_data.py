"""Reading ALFRED-format trajectories (our jsonl(.gz) extract or ALFRED ``traj_data.json``)
into annotation records, and the deterministic train/dev split BY FLOOR PLAN
(``simulator.episodes.alfred.dev_split``: the dev floor plans are unseen in training).

For tuning, ``fit``/``val`` split our train part again by floor plan (``VAL_FLOOR_PLANS``,
3 of the remaining train floor plans of each room kind, by a hash with seed 1), so
choices are made without looking at the dev floor plans.
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts.errors import NesyError
from contracts.language import ALFRED_FIELDS, ALFRED_TASK_TYPES
from simulator.episodes.alfred import DEV_FRACTION, SPLIT_SEED, dev_floor_plans, dev_split

# The shared data folder beside the repository (override with NESY_SHARED_DATA).
DEFAULT_DATA = Path(os.environ.get("NESY_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")) / "alfred_train.jsonl.gz"
_ALIASES = {"Glassbottle": "Bottle", "GlassBottle": "Bottle"}
SPLITS = ("all", "train", "dev", "fit", "val")  # fit + val = train (validation carved from train floor plans)


def val_floor_plans(seed: int = SPLIT_SEED) -> tuple[str, ...]:
    """Train floor plans held out for tuning (never the dev ones)."""
    return dev_floor_plans(seed + 1, DEV_FRACTION, dev_floor_plans(seed))


def in_split(floor_plan: str, split: str, seed: int = SPLIT_SEED) -> bool:
    if split == "all":
        return True
    part = dev_split(floor_plan, seed)
    if split in ("train", "dev"):
        return part == split
    return part == "train" and (floor_plan in val_floor_plans(seed)) == (split == "val")


class DataFormatError(NesyError):
    """A trajectory file that is not ALFRED-format."""


@dataclass(frozen=True)
class Annotation:
    """One human annotation of one trajectory: goal sentence, step instructions, gold spec."""

    trial: str
    goal: str
    steps: tuple[str, ...]
    gold: dict[str, Any]  # the ALFRED_FIELDS
    high_pddl: tuple[dict[str, Any], ...] = ()
    floor_plan: str = ""


def _open_records(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        raise DataFormatError(f"trajectory file {path} does not exist")
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        raise DataFormatError(f"{path}: cannot read ({exc}); expected ALFRED jsonl(.gz) or traj_data.json") from None
    stripped = text.lstrip()
    if not stripped:
        raise DataFormatError(f"{path}: empty file; expected ALFRED trajectories (jsonl or traj_data.json)")
    try:
        if path.name.endswith((".jsonl", ".jsonl.gz")):
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFormatError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}); expected ALFRED "
                              "jsonl (one trajectory per line) or a traj_data.json object") from None
    return data if isinstance(data, list) else [data]


def _gold(record: dict[str, Any], where: str) -> dict[str, Any]:
    params = record.get("pddl_params")
    task_type = record.get("task_type")
    if not isinstance(params, dict) or task_type not in ALFRED_TASK_TYPES:
        raise DataFormatError(f"{where}: expected 'task_type' (one of {', '.join(ALFRED_TASK_TYPES)}) and a "
                              f"'pddl_params' object, got task_type={task_type!r}")
    gold = {"task_type": task_type}
    for name in ALFRED_FIELDS[1:]:
        value = params.get(name, False if name == "object_sliced" else "")
        gold[name] = bool(value) if name == "object_sliced" else _ALIASES.get(value or "", value or "")
    return gold


def load_annotations(path: str | Path, split: str = "all", seed: int = SPLIT_SEED) -> list[Annotation]:
    """Every annotation in an ALFRED-format file; ``split`` = all | train | dev (by floor plan),
    or fit | val (train split again by floor plan, for tuning)."""
    if split not in SPLITS:
        raise NesyError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    path = Path(path)
    out: list[Annotation] = []
    for n, record in enumerate(_open_records(path)):
        where = f"{path}: trajectory {n + 1}"
        if not isinstance(record, dict):
            raise DataFormatError(f"{where}: expected a JSON object, got {type(record).__name__}")
        trial = str(record.get("trial") or record.get("task_id") or f"{path.name}#{n}")
        floor_plan = record.get("floor_plan") or (record.get("scene") or {}).get("floor_plan")
        if split != "all" and not isinstance(floor_plan, str):
            raise DataFormatError(f"{where}: the {split} split is by floor plan, but the trajectory has no "
                                  "'floor_plan' (or ALFRED 'scene.floor_plan')")
        if not in_split(floor_plan or "", split, seed):
            continue
        gold = _gold(record, where)
        anns = record.get("annotations")
        if anns is None:  # ALFRED traj_data.json
            anns = (record.get("turk_annotations") or {}).get("anns")
        if not isinstance(anns, list) or not anns:
            raise DataFormatError(f"{where}: expected 'annotations' (or ALFRED 'turk_annotations.anns'), "
                                  "a non-empty list of {task_desc, high_descs}")
        high = record.get("high_pddl") or (record.get("plan") or {}).get("high_pddl") or []
        high = tuple({"action": h.get("discrete_action", h).get("action"), "args": h.get("discrete_action", h).get("args", [])}
                     for h in high if isinstance(h, dict))
        for ann in anns:
            if not isinstance(ann, dict) or not isinstance(ann.get("task_desc"), str):
                raise DataFormatError(f"{where}: an annotation lacks the string 'task_desc'")
            steps = tuple(str(s) for s in ann.get("high_descs") or ())
            out.append(Annotation(trial, ann["task_desc"], steps, gold, high, floor_plan or ""))
    return out
