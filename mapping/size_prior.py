"""How big an object of each type can be: the size prior the mapper trims detections and
caps boxes with.

``mapping/data/object_sizes.json`` holds, per AI2-THOR object type, the largest side of any
of its objects' boxes in the start states of our ALFRED train split (made with the search
prior by ``python -m mapping.prior_build``): ``largest_side`` for the pickupable types,
``largest_side_fixed`` for those never pickupable (appliances, fixtures, furniture).

``capped`` clips a remembered box to its type's largest side plus ``MARGIN`` along each
axis (the mapper's ``size_cap``): a box grown past that holds what its sightings bled onto,
not the object (TATC valid_unseen 0049: one toaster sighting whose mask bled onto the wall
behind made the toaster 1.8 x 0.7 x 2.7 m, and the wall cabinet above it was believed to
stand on it). A detection's mask often bleeds
past the object's outline onto what lies behind it: a knife at a counter's edge seen with
the floor below it spanned 0.73 m (TATC valid_unseen 0192), and its box, from the mask's
points, reached down to the floor. ``trim`` keeps the points within the type's largest
side plus ``MARGIN`` of their median (the median lies on the object when most of the mask
does): farther points cannot be the object's. Rejecting such detections
instead (a "knife" spanning more than that is no knife) dropped the real knife of 0192,
whose slice then failed (BENCHMARKS.md, stop 56). A type the table does not know keeps
all its points.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from contracts.errors import NesyError

SIZES_PATH = Path(__file__).parent / "data" / "object_sizes.json"
MARGIN = 0.1  # metres beyond the type's largest side that a detection's points may lie from their median


@lru_cache(maxsize=1)
def largest_sides() -> dict[str, float]:
    """The pickupable types' largest sides (metres)."""
    return _table("largest_side")


@lru_cache(maxsize=1)
def fixed_sides() -> dict[str, float]:
    """The largest sides (metres) of the types never pickupable."""
    return _table("largest_side_fixed")


def _table(key: str) -> dict[str, float]:
    try:
        return {t: float(v) for t, v in json.loads(SIZES_PATH.read_text())[key].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise NesyError(f"size prior {SIZES_PATH} is missing or unreadable ({exc!r}); rebuild it with "
                        "`python -m mapping.prior_build ../shared/data/alfred_train.jsonl.gz`") from None


def capped(object_type: str, extent: tuple[float, ...], opened: bool = False) -> tuple[float, ...]:
    """``extent`` with no side longer than the type's largest plus ``MARGIN``, or twice the
    largest when ``opened`` (the box of an open container holds its door, which swings out
    by at most its own width); unchanged for a type the table does not know."""
    side = largest_sides().get(object_type) or fixed_sides().get(object_type)
    if side is None:
        return extent
    return tuple(min(float(v), side * (2 if opened else 1) + MARGIN) for v in extent)


def trim(object_type: str, points: np.ndarray) -> np.ndarray:
    """The rows of ``points`` (N x 3, metres) near enough to their median to belong to an
    object of ``object_type``."""
    side = largest_sides().get(object_type)
    if side is None or len(points) == 0:
        return points
    near = np.linalg.norm(points - np.median(points, axis=0), axis=1) <= side + MARGIN
    return points[near]
