"""AI2-THOR's recorded interaction masks (ALFRED's ``discrete_action.args``): loading and decoding.

The masks file (``alfred_train_masks.jsonl.gz``, format in shared/data/README.md) holds one
record per trajectory, ``{"trial", "task_id", "interactions": [...]}``, in the same order as
the trajectories file. Each interaction has ``low_idx`` (the expert action it precedes),
``action``, ``objectId`` (and ``receptacleObjectId`` for PutObject, whose mask is then the
receptacle's), ``bbox`` [x1, y1, x2, y2], ``point`` [x, y] and ``mask``: a run-length code
[start0, length0, start1, length1, ...] over the row-major 300 x 300 frame (pixel index =
y * 300 + x), as ALFRED's ``compress_mask`` wrote it.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from contracts.errors import NesyError

FRAME = 300  # ALFRED's frames are 300 x 300


class MaskFileError(NesyError):
    """A masks file is missing, unreadable or not in ALFRED's interaction-mask format."""


@dataclass(frozen=True)
class RecordedInteraction:
    """One expert interaction as AI2-THOR rendered it."""

    low_idx: int
    action: str
    object_id: str
    receptacle_id: str | None
    bbox: tuple[int, int, int, int]
    point: tuple[int, int]
    rle: tuple[int, ...]

    @property
    def target_id(self) -> str:
        """The object the mask shows: the receptacle for PutObject, else the object."""
        return self.receptacle_id if self.action == "PutObject" and self.receptacle_id else self.object_id

    def mask(self, size: int = FRAME) -> np.ndarray:
        """The recorded mask as a boolean ``size`` x ``size`` array (row = y, column = x)."""
        return decode_rle(self.rle, size)


def decode_rle(rle: tuple[int, ...] | list[int], size: int = FRAME) -> np.ndarray:
    """ALFRED's run-length code -> boolean ``size`` x ``size`` mask."""
    flat = np.zeros(size * size, dtype=bool)
    for start, length in zip(rle[0::2], rle[1::2], strict=True):
        flat[int(start): int(start) + int(length)] = True
    return flat.reshape(size, size)


def _interaction(raw: dict[str, Any], where: str) -> RecordedInteraction:
    try:
        return RecordedInteraction(
            low_idx=int(raw["low_idx"]),
            action=str(raw["action"]),
            object_id=str(raw["objectId"]),
            receptacle_id=raw.get("receptacleObjectId") or None,
            bbox=tuple(int(v) for v in raw["bbox"]),
            point=(int(raw["point"][0]), int(raw["point"][1])),
            rle=tuple(int(v) for v in raw["mask"]),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise MaskFileError(f"{where}: not an ALFRED interaction mask ({exc!r} missing or malformed)") from None


def load_masks(path: str | Path) -> Iterator[tuple[str, tuple[RecordedInteraction, ...]]]:
    """Yield (task_id, interactions) per trajectory record of a masks .jsonl(.gz) file."""
    path = Path(path)
    if not path.is_file():
        raise MaskFileError(f"{path}: no such file (expected ALFRED interaction masks, .jsonl or .jsonl.gz)")
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                record = json.loads(line)
                where = f"{path}:{number}"
                if not isinstance(record, dict) or "interactions" not in record:
                    raise MaskFileError(f"{where}: not an interaction-mask record (no 'interactions')")
                task_id = record.get("task_id") or record.get("trial")
                yield str(task_id), tuple(_interaction(r, where) for r in record["interactions"])
    except (json.JSONDecodeError, UnicodeDecodeError, EOFError, gzip.BadGzipFile) as exc:
        raise MaskFileError(f"{path}: corrupt masks file ({exc})") from None


class MaskIndex:
    """Finds a trajectory's recorded interactions in a masks file read once, in order.

    The masks file lists trajectories in the trajectories file's order, so records are
    read ahead only until the wanted one; records skipped on the way are kept (a subset
    or a different order of trajectories still works, at the cost of memory).
    """

    def __init__(self, path: str | Path) -> None:
        self._records = load_masks(path)
        self._pending: dict[str, tuple[RecordedInteraction, ...]] = {}

    def get(self, task_id: str) -> tuple[RecordedInteraction, ...] | None:
        if task_id in self._pending:
            return self._pending.pop(task_id)
        for found, interactions in self._records:
            if found == task_id:
                return interactions
            self._pending[found] = interactions
        return None
