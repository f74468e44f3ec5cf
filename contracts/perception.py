"""The perception contract: ``Perception.detect(observation) -> list[Detection]``.

A ``Detection`` is what Mask R-CNN gives: a class (an AI2-THOR object type), a score, a
pixel box and a boolean H x W mask of the current frame. Oracle backends produce exactly
the same shape, so they mix freely with learned mappers and skills.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from contracts.observation import ModuleContext, Observation

# thin utensils a detector from pixels takes for one another (a spatula for a knife, a spoon
# for a butter knife): where two of them are seen in one place they are one utensil
LOOKALIKES = frozenset({"Knife", "ButterKnife", "Spatula", "Spoon", "Fork", "Ladle"})


@dataclass(frozen=True, eq=False)
class Detection:
    """One detected object in the current frame.

    ``box`` is (x0, y0, x1, y1) in pixels (x right, y down; x1/y1 exclusive); ``mask`` is an
    H x W boolean array of the frame with at least one pixel set.
    """

    object_type: str
    score: float
    box: tuple[float, float, float, float]
    mask: np.ndarray

    def __post_init__(self) -> None:
        if not isinstance(self.mask, np.ndarray) or self.mask.dtype != bool or self.mask.ndim != 2:
            raise TypeError(f"Detection.mask must be an H x W bool numpy array, got {type(self.mask).__name__}"
                            + (f" {self.mask.dtype} {self.mask.shape}" if isinstance(self.mask, np.ndarray) else ""))
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"Detection.score must be in [0, 1], got {self.score}")

    @property
    def pixels(self) -> int:
        return int(self.mask.sum())

    def click_point(self) -> tuple[float, float]:
        """A TEACh-style click (x, y relative in [0, 1], y down) on a mask pixel: the one
        nearest the mask's centroid, so a click lands on the object even for concave masks."""
        rows, cols = np.nonzero(self.mask)
        if len(rows) == 0:
            raise ValueError(f"the {self.object_type} detection has an empty mask: nothing to click")
        k = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
        h, w = self.mask.shape
        return (cols[k] + 0.5) / w, (rows[k] + 0.5) / h


def box_mask(box: tuple[float, float, float, float], height: int, width: int) -> np.ndarray:
    """The H x W boolean mask of a pixel box (clipped to the frame)."""
    x0, y0, x1, y1 = box
    mask = np.zeros((height, width), dtype=bool)
    c0, c1 = int(max(0, np.floor(x0))), int(min(width, np.ceil(x1)))
    r0, r1 = int(max(0, np.floor(y0))), int(min(height, np.ceil(y1)))
    mask[r0:r1, c0:c1] = True
    return mask


def mask_box(mask: np.ndarray) -> tuple[float, float, float, float]:
    """The tight pixel box (x0, y0, x1, y1; exclusive max) of a non-empty mask."""
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    return float(cols[0]), float(rows[0]), float(cols[-1] + 1), float(rows[-1] + 1)


class Perception(ABC):
    """Frames -> detections. ``reset`` is called at the start of every episode."""

    focus: frozenset[str] = frozenset()

    def reset(self, context: ModuleContext) -> None:
        self.context = context
        self.focus = frozenset()

    @abstractmethod
    def detect(self, observation: Observation) -> list[Detection]:
        """The objects in this observation's frame (empty if there is nothing to see)."""

    def attend(self, object_types: frozenset[str]) -> None:
        """The object types the Follower looks for now (its plan's objects), told before each
        ``detect`` and kept as ``focus``: a module may report these on less evidence."""
        self.focus = frozenset(object_types)
