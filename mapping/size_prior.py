"""How big an object of each type can be: the size prior the mapper checks detections with.

``mapping/data/object_sizes.json`` holds, per AI2-THOR object type, the largest side of any
of its objects' boxes in the start states of our ALFRED train split (made with the search
prior by ``python -m mapping.prior_build``). A detection is the size of its class or it is
not that class: the mask of a "knife" whose points span 0.77 m (a counter's edge with the
floor behind it, a pan with its handle) is something else, and remembering it sends the
Follower to pick it up as a knife. ``too_big`` says when a detection's points span more
than ``SLACK`` times the type's largest side plus ``MARGIN`` (edge pixels that fall on
what lies behind, the depth's rounding). A type the table does not know is never too big.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from contracts.errors import NesyError

SIZES_PATH = Path(__file__).parent / "data" / "object_sizes.json"
SLACK = 1.5  # a detection's points may span this many times its type's largest side
MARGIN = 0.1  # metres, and this much more


@lru_cache(maxsize=1)
def largest_sides() -> dict[str, float]:
    try:
        return {t: float(v) for t, v in json.loads(SIZES_PATH.read_text())["largest_side"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise NesyError(f"size prior {SIZES_PATH} is missing or unreadable ({exc!r}); rebuild it with "
                        "`python -m mapping.prior_build ../shared/data/alfred_train.jsonl.gz`") from None


def too_big(object_type: str, extent: tuple[float, float, float]) -> bool:
    """Do the detection's points (their box's ``extent``, metres) span more than an object
    of ``object_type`` can?"""
    side = largest_sides().get(object_type)
    return side is not None and max(extent) > SLACK * side + MARGIN
