"""Benchmark splits by floor plan, as ALFRED and TEACh define them.

valid_unseen and test_unseen use ALFRED's held-out floor plans; train and valid_seen share
the remaining (supported) floor plans with different episodes. test_unseen's eight floor
plans are among the 13 without recorded receptacles in our data, so that split cannot be
built yet (``split_floor_plans`` says so).
"""

from __future__ import annotations

from contracts.errors import NesyError
from simulator.scenes import supported_scenes

VALID_UNSEEN = ("FloorPlan10", "FloorPlan219", "FloorPlan308", "FloorPlan424")
TEST_UNSEEN = ("FloorPlan9", "FloorPlan29", "FloorPlan215", "FloorPlan226", "FloorPlan315",
               "FloorPlan325", "FloorPlan404", "FloorPlan425")
SPLITS = ("train", "valid_seen", "valid_unseen", "test_unseen")


class SplitError(NesyError):
    """An unknown split, or one that cannot be built from our data."""


def split_floor_plans(split: str) -> list[str]:
    supported = supported_scenes()
    if split in ("train", "valid_seen"):
        return [s for s in supported if s not in VALID_UNSEEN and s not in TEST_UNSEEN]
    if split == "valid_unseen":
        return [s for s in VALID_UNSEEN if s in supported]
    if split == "test_unseen":
        usable = [s for s in TEST_UNSEEN if s in supported]
        if not usable:
            raise SplitError(
                "test_unseen's floor plans (9, 29, 215, 226, 315, 325, 404, 425) have no recorded "
                "receptacles in our floor-plan data, so test_unseen episodes cannot be built; "
                "use valid_unseen"
            )
        return usable
    raise SplitError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
