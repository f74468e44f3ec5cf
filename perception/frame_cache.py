"""``FrameCache``: a detector's outputs for the frames it saw lately, looked up by the frame's bytes.

The Follower sees the same frame again and again: a question, a refused Stop or a failed
action leaves the view as it was; a turn or look undone by the next action (a goal pose that
did not show the target, a search's look around, a scan up and down) and a walk back to where
it stood show exactly what they showed before (the renderer is deterministic). In TATC
valid_unseen 0240 (1,000 steps) 395 of the 1,011 frames the detector was given repeated an
earlier frame: 21 the frame just before, 171 within 8 frames, 374 more from farther back.
The network's output depends on the frame, the score floor and which boxes get masks, so a
frame seen again is answered from here instead of by the network (about 100 ms per frame on
one CPU thread).

Entries are keyed by a 128-bit BLAKE2b digest of the frame's bytes and shape, the floor and
the rule for which boxes get masks;
each keeps the boxes, labels, scores and the masks cut at the module's mask threshold,
bit-packed (about 11 kB per 300 x 300 mask), so ``capacity`` frames of ten detections hold
about 0.1 MB each. The least recently used frame goes first; ``capacity`` 0 keeps nothing.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CachedFrame:
    """One frame's detector output with its masks packed to bits."""

    boxes: np.ndarray
    labels: np.ndarray
    scores: np.ndarray
    packed_masks: np.ndarray  # N x ceil(H * W / 8) uint8
    mask_shape: tuple[int, int]

    @classmethod
    def of(cls, out: dict[str, np.ndarray]) -> CachedFrame:
        masks = np.asarray(out["masks"], dtype=bool)  # N x H x W
        h, w = masks.shape[1:]
        return cls(out["boxes"], out["labels"], out["scores"], np.packbits(masks.reshape(len(masks), h * w), axis=1),
                   (h, w))

    def output(self) -> dict[str, np.ndarray]:
        h, w = self.mask_shape
        masks = np.unpackbits(self.packed_masks, axis=1, count=h * w).reshape(-1, h, w).astype(bool)
        return {"boxes": self.boxes, "labels": self.labels, "scores": self.scores, "masks": masks}


class FrameCache:
    """The outputs of the last ``capacity`` distinct (frame, floor) pairs, least recently used out first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple[bytes, float, Hashable], CachedFrame] = OrderedDict()
        self.hits = 0  # frames answered from here

    def clear(self) -> None:
        self._entries.clear()

    @staticmethod
    def key(rgb: np.ndarray, floor: float, rule: Hashable = None) -> tuple[bytes, float, Hashable]:
        """The key of ``rgb``'s output at score ``floor`` under the detector's ``rule`` (any
        hashable that changes the output, e.g. which boxes get masks)."""
        digest = hashlib.blake2b(np.ascontiguousarray(rgb).data, digest_size=16)
        digest.update(repr((rgb.shape, str(rgb.dtype))).encode())
        return digest.digest(), float(floor), rule

    def get(self, key: tuple[bytes, float, Hashable]) -> dict[str, np.ndarray] | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self.hits += 1
        self._entries.move_to_end(key)
        return entry.output()

    def put(self, key: tuple[bytes, float, Hashable], out: dict[str, np.ndarray]) -> None:
        if self.capacity <= 0:
            return
        self._entries[key] = CachedFrame.of(out)
        self._entries.move_to_end(key)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)
