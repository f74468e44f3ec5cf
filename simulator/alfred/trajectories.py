"""Loading ALFRED trajectories (our jsonl(.gz) extract or ALFRED's ``traj_data.json``).

A ``Trajectory`` holds what the simulator needs to start and score an ALFRED episode:
the floor plan, the recorded start state (``object_poses``, ``object_toggles``,
``dirty_and_empty``), the start pose (``init_action``), the goal (task type and PDDL
params), the expert's low-level actions and the human annotations.
"""

from __future__ import annotations

import gzip
import json
import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from contracts.errors import NesyError
from simulator.start_state import ObjectPlacement, StartState

TASK_TYPES = (
    "pick_and_place_simple", "pick_two_obj_and_place", "look_at_obj_in_light",
    "pick_clean_then_place_in_recep", "pick_heat_then_place_in_recep",
    "pick_cool_then_place_in_recep", "pick_and_place_with_movable_recep",
)
REQUIRED = ("task_type", "pddl_params", "object_poses", "init_action", "expert_low_actions")


class TrajectoryFileError(NesyError):
    """A trajectory file is missing, unreadable or lacks ALFRED's fields."""


@dataclass(frozen=True)
class Trajectory:
    task_id: str
    task_type: str
    floor_plan: str
    pddl_params: dict[str, Any]
    init_action: dict[str, Any]
    object_poses: tuple[dict[str, Any], ...]
    object_toggles: tuple[dict[str, Any], ...]
    dirty_and_empty: bool
    expert_low_actions: tuple[dict[str, Any], ...]
    high_pddl: tuple[dict[str, Any], ...] = ()
    annotations: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def start_state(self) -> StartState:
        # a few recorded poses repeat an object at the same (rounded) spot: keep the first
        placements: dict[str, ObjectPlacement] = {}
        for pose in self.object_poses:
            p, r = pose["position"], pose.get("rotation") or {}
            placement = ObjectPlacement(
                pose["objectName"].split("_")[0], (p["x"], p["y"], p["z"]),
                rotation=(float(r.get("x", 0.0)), float(r.get("y", 0.0)), float(r.get("z", 0.0))),
                asset=pose["objectName"], at_pivot=True,
            )
            placements.setdefault(placement.resolved_id, placement)
        init = self.init_action
        pose = (float(init["x"]), float(init["z"]), int(round(init["rotation"])) % 360, float(init["horizon"]))
        return StartState(
            scene=self.floor_plan,
            objects=tuple(placements.values()),
            follower_pose=pose,
            toggles=tuple((t["objectType"], bool(t["isOn"])) for t in self.object_toggles),
            dirty_and_empty=self.dirty_and_empty,
        )


def _validate(record: dict[str, Any], where: str) -> None:
    """Every field the simulator reads has its type (and numbers are finite: a NaN position
    would make an object with a NaN id); a clear error naming the field if not."""

    def fail(field: str, expected: str, value: Any) -> NoReturn:
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise TrajectoryFileError(f"{where}: {field}: expected {expected}, got {shown}")

    def of_type(field: str, value: Any, kind: type | tuple[type, ...], expected: str) -> Any:
        if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float)):
            fail(field, expected, value)
        return value

    def number(field: str, value: Any) -> None:
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            fail(field, "a finite number", value)

    def numbers(field: str, value: Any, keys: tuple[str, ...]) -> None:
        of_type(field, value, dict, f"an object with {', '.join(keys)}")
        for key in keys:
            number(f"{field}.{key}", value.get(key))

    def items(field: str, value: Any) -> list[dict[str, Any]]:
        of_type(field, value, list, "a list")
        for i, item in enumerate(value):
            of_type(f"{field}[{i}]", item, dict, "an object")
        return value

    of_type("floor_plan", record["floor_plan"], str, "a floor plan name")
    of_type("task_id", record.get("task_id", ""), str, "a string")
    of_type("pddl_params", record["pddl_params"], dict, "an object")
    numbers("init_action", record["init_action"], ("x", "z", "rotation", "horizon"))
    for i, pose in enumerate(items("object_poses", record["object_poses"])):
        of_type(f"object_poses[{i}].objectName", pose.get("objectName"), str, "a string")
        numbers(f"object_poses[{i}].position", pose.get("position"), ("x", "y", "z"))
        if pose.get("rotation") is not None:
            numbers(f"object_poses[{i}].rotation", pose["rotation"], ("x", "y", "z"))
    for i, toggle in enumerate(items("object_toggles", record.get("object_toggles") or [])):
        of_type(f"object_toggles[{i}].objectType", toggle.get("objectType"), str, "a string")
        of_type(f"object_toggles[{i}].isOn", toggle.get("isOn"), bool, "true or false")
    of_type("dirty_and_empty", record.get("dirty_and_empty", False), bool, "true or false")
    items("expert_low_actions", record["expert_low_actions"])
    items("high_pddl", record.get("high_pddl") or [])
    for i, annotation in enumerate(items("annotations", record.get("annotations") or [])):
        of_type(f"annotations[{i}].task_desc", annotation.get("task_desc", ""), str, "a string")
        descs = of_type(f"annotations[{i}].high_descs", annotation.get("high_descs", []), list, "a list of strings")
        for j, text in enumerate(descs):
            of_type(f"annotations[{i}].high_descs[{j}]", text, str, "a string")


def _from_record(record: dict[str, Any], where: str) -> Trajectory:
    if not isinstance(record, dict):
        raise TrajectoryFileError(f"{where}: not an ALFRED trajectory (expected a JSON object)")
    if "plan" in record and "scene" in record:  # ALFRED's own traj_data.json
        try:
            record = _from_traj_data(record)
        except (KeyError, TypeError, AttributeError) as exc:
            raise TrajectoryFileError(f"{where}: malformed traj_data.json ({type(exc).__name__}: {exc})") from None
    missing = [k for k in (*REQUIRED, "floor_plan") if k not in record]
    if missing:
        raise TrajectoryFileError(f"{where}: not an ALFRED trajectory, missing {', '.join(missing)}")
    if record["task_type"] not in TASK_TYPES:
        raise TrajectoryFileError(
            f"{where}: unknown ALFRED task type {record['task_type']!r}; expected one of {', '.join(TASK_TYPES)}"
        )
    _validate(record, where)
    return Trajectory(
        task_id=record.get("task_id", record.get("trial", where)),
        task_type=record["task_type"],
        floor_plan=record["floor_plan"],
        pddl_params=dict(record["pddl_params"]),
        init_action=dict(record["init_action"]),
        object_poses=tuple(record["object_poses"]),
        object_toggles=tuple(record.get("object_toggles") or ()),
        dirty_and_empty=bool(record.get("dirty_and_empty", False)),
        expert_low_actions=tuple(record["expert_low_actions"]),
        high_pddl=tuple(record.get("high_pddl") or ()),
        annotations=tuple(record.get("annotations") or ()),
    )


def _from_traj_data(record: dict[str, Any]) -> dict[str, Any]:
    """ALFRED's traj_data.json in the shape of our extract's records."""
    return {
        **record,
        "floor_plan": record["scene"]["floor_plan"],
        "init_action": record["scene"]["init_action"],
        "object_poses": record["scene"]["object_poses"],
        "object_toggles": record["scene"].get("object_toggles", []),
        "dirty_and_empty": record["scene"].get("dirty_and_empty", False),
        "high_pddl": record["plan"]["high_pddl"],
        "expert_low_actions": [
            {**a["api_action"], "high_idx": a.get("high_idx", 0)} for a in record["plan"]["low_actions"]
        ],
        "annotations": record.get("turk_annotations", {}).get("anns", []),
    }


def load_trajectories(path: str | Path) -> Iterator[Trajectory]:
    """Yield trajectories from a .jsonl / .jsonl.gz file, a traj_data.json, or a folder of them."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.rglob("traj_data.json"))
        if not files:
            raise TrajectoryFileError(f"{path}: folder contains no traj_data.json files")
        for file in files:
            yield from load_trajectories(file)
        return
    if not path.is_file():
        raise TrajectoryFileError(f"{path}: no such file (expected ALFRED .jsonl(.gz) or traj_data.json)")
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt") as handle:
            if path.name.endswith(".json"):
                yield _from_record(json.load(handle), str(path))
                return
            for number, line in enumerate(handle, 1):
                if line.strip():
                    yield _from_record(json.loads(line), f"{path}:{number}")
    except (json.JSONDecodeError, UnicodeDecodeError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise TrajectoryFileError(f"{path}: corrupt trajectory file ({exc})") from None
    except OSError as exc:
        raise TrajectoryFileError(f"cannot read trajectory file {path}: {exc.strerror or exc}") from None
