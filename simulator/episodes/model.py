"""The ``Episode`` record and its versioned JSON form (episode sets are shipped as JSON).

An episode is one evaluation instance: the suite (``tatc`` or ``alfred``), its split, the
task (a TEACh task name with parameters, or an ALFRED task type with PDDL params), the
start state, the expert's action count (for path-length weighting) and, for ALFRED, the
human language of one annotation; an ALFRED-L variant also says where the Follower must end.
"""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from contracts.errors import NesyError
from simulator.start_state import ObjectPlacement, StartState

FORMAT_VERSION = 1
POSITION_REACH = 1.25  # metres: an ALFRED-L Follower must end this near ``Episode.final_position``
SHIPPED_DIR = Path(__file__).resolve().parent / "data"


def shipped_path(split: str) -> Path:
    """The shipped, versioned TATC episode set of a split."""
    return SHIPPED_DIR / f"tatc_{split}.json.gz"


class EpisodeFileError(NesyError):
    """An episode file is missing, corrupt or of another format version."""


@dataclass(frozen=True)
class Episode:
    episode_id: str
    suite: str  # "tatc" | "alfred"
    split: str
    task_type: str  # TEACh benchmark task type, or ALFRED task type
    start: StartState
    expert_actions: int
    task_name: str = ""  # TEACh task definition name
    task_params: tuple[str, ...] = ()
    pddl_params: dict[str, Any] = field(default_factory=dict)  # ALFRED
    goal_text: str = ""  # ALFRED: the human goal of this annotation
    step_texts: tuple[str, ...] = ()  # ALFRED: the human step instructions
    annotation: int = 0  # ALFRED: which of its trial's annotations (about 3 per trial) this episode is
    seed: int = 0
    variant: str = ""  # ALFRED-L: "nav-only" (no task: only where to end), "rev-1", "rev-n"
    final_position: tuple[float, float] | None = None  # ALFRED-L: where the Follower must end (world x, z; POSITION_REACH)

    @property
    def floor_plan(self) -> str:
        return self.start.scene


def start_to_dict(start: StartState) -> dict[str, Any]:
    data = asdict(start)
    data["objects"] = [_placement_to_dict(o) for o in start.objects]
    return data


def _placement_to_dict(placement: ObjectPlacement) -> dict[str, Any]:
    """An object's start as JSON, every field that shapes the world (an ALFRED object's
    rotation, asset and pivot too: without them a worker process rebuilds another world)."""
    data: dict[str, Any] = {"type": placement.object_type, "position": list(placement.position)}
    if placement.object_id:
        data["id"] = placement.object_id
    if placement.rotation != ObjectPlacement.rotation:
        data["rotation"] = list(placement.rotation)
    if placement.asset:
        data["asset"] = placement.asset
    if placement.at_pivot:
        data["at_pivot"] = True
    return data


def _placement_from_dict(data: dict[str, Any], i: int) -> ObjectPlacement:
    asset = data.get("asset")
    if asset is not None and not isinstance(asset, str):
        raise ValueError(f"start.objects[{i}].asset: expected an asset name, got {asset!r}")
    rotation = data.get("rotation")
    return ObjectPlacement(
        data["type"], _numbers(data.get("position"), 3, f"start.objects[{i}].position"), data.get("id"),
        _numbers(rotation, 3, f"start.objects[{i}].rotation") if rotation is not None else ObjectPlacement.rotation,
        asset, bool(data.get("at_pivot", False)),
    )


def _numbers(value: Any, count: int, where: str) -> tuple:
    """``count`` finite numbers (a NaN position would make an object with a NaN id)."""
    if (not isinstance(value, list | tuple) or len(value) != count
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value)):
        raise ValueError(f"{where}: expected {count} finite numbers, got {value!r}")
    return tuple(value)


def start_from_dict(data: dict[str, Any]) -> StartState:
    if not isinstance(data.get("scene"), str) or not isinstance(data.get("objects"), list):
        raise ValueError("start: expected a 'scene' name and a list of 'objects'")
    for i, o in enumerate(data["objects"]):
        if not isinstance(o, dict) or not isinstance(o.get("type"), str):
            raise ValueError(f"start.objects[{i}]: expected an object with a 'type' name, got {o!r}")
    return StartState(
        scene=data["scene"],
        objects=tuple(_placement_from_dict(o, i) for i, o in enumerate(data["objects"])),
        follower_pose=_numbers(data.get("follower_pose"), 4, "start.follower_pose"),
        commander_pose=(_numbers(data["commander_pose"], 4, "start.commander_pose")
                        if data.get("commander_pose") else None),
        toggles=tuple(tuple(t) for t in data.get("toggles", ())),
        dirty_and_empty=bool(data.get("dirty_and_empty", False)),
        object_states=dict(data.get("object_states", {})),
    )


def episode_to_dict(episode: Episode) -> dict[str, Any]:
    data = asdict(episode)
    data["start"] = start_to_dict(episode.start)
    data["task_params"] = list(episode.task_params)
    data["step_texts"] = list(episode.step_texts)
    return data


def episode_from_dict(data: dict[str, Any]) -> Episode:
    return Episode(
        **{
            **data,
            "start": start_from_dict(data["start"]),
            "task_params": tuple(data.get("task_params", ())),
            "step_texts": tuple(data.get("step_texts", ())),
            "final_position": tuple(data["final_position"]) if data.get("final_position") else None,
        }
    )


def save_episodes(episodes: list[Episode], path: str | Path, meta: dict[str, Any] | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"format_version": FORMAT_VERSION, **(meta or {}), "episodes": [episode_to_dict(e) for e in episodes]}
    text = json.dumps(payload, indent=1, sort_keys=True) + "\n"
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
    else:
        path.write_text(text)
    return path


def load_episodes(path: str | Path) -> tuple[list[Episode], dict[str, Any]]:
    """Episodes and the file's metadata; clear errors for missing, corrupt or foreign files."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        payload = json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)
    except FileNotFoundError:
        raise EpisodeFileError(f"{path}: no such episode file") from None
    except IsADirectoryError:
        raise EpisodeFileError(f"{path} is a folder; expected an episode file (.json or .json.gz)") from None
    except OSError as exc:
        raise EpisodeFileError(f"cannot read episode file {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, gzip.BadGzipFile, EOFError) as exc:
        raise EpisodeFileError(f"{path}: corrupt episode file ({exc}); rebuild it with `nesy episodes build`") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("episodes"), list):
        raise EpisodeFileError(f"{path}: not an episode file (expected an object with a list of 'episodes')")
    if payload.get("format_version") != FORMAT_VERSION:
        raise EpisodeFileError(
            f"{path}: episode format version {payload.get('format_version')!r}, this nesy reads "
            f"version {FORMAT_VERSION}; rebuild it with `nesy episodes build`"
        )
    episodes = []
    for index, item in enumerate(payload["episodes"]):
        name = item.get("episode_id", f"#{index}") if isinstance(item, dict) else f"#{index}"
        try:
            episodes.append(episode_from_dict(item))
        except KeyError as exc:
            raise EpisodeFileError(f"{path}: malformed episode {name} (no {exc})") from None
        except (TypeError, ValueError) as exc:
            raise EpisodeFileError(f"{path}: malformed episode {name} ({exc})") from None
    meta = {k: v for k, v in payload.items() if k != "episodes"}
    return episodes, meta
