"""Where objects tend to be: P(receptacle type | object type), for ordering the search.

``learned`` reads ``mapping/data/search_prior.json`` (counts of object type in receptacle
type in ALFRED train start states, made by ``python -m mapping.prior_build``), smoothed
with add-one over the receptacle types the table knows; ``uniform`` gives every receptacle
type the same weight (the ablation). Under either, a type the data never saw pickupable
(``fixed``: furniture, fixtures, appliances) is never inside a container (``never_inside``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from contracts.errors import NesyError

PRIOR_PATH = Path(__file__).parent / "data" / "search_prior.json"
SEARCH_PRIORS = ("learned", "uniform")


@lru_cache(maxsize=1)
def _table() -> dict:
    try:
        table = json.loads(PRIOR_PATH.read_text())
        return {"counts": dict(table["counts"]), "fixed": frozenset(table["fixed"])}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise NesyError(f"search prior {PRIOR_PATH} is missing or unreadable ({exc!r}); rebuild it with "
                        "`python -m mapping.prior_build ../shared/data/alfred_train.jsonl.gz`") from None


def _counts() -> dict[str, dict[str, int]]:
    return _table()["counts"]


def never_inside(object_type: str) -> bool:
    """Is the type one never pickupable in the train worlds (a sink basin, a desk lamp)? No
    container holds one: opening cabinets to look for a sink only leaves them open."""
    return object_type in _table()["fixed"]


def receptacle_types() -> tuple[str, ...]:
    return tuple(sorted({r for row in _counts().values() for r in row}))


def likelihood(object_type: str, receptacle_type: str, prior: str = "learned") -> float:
    """P(receptacle type | object type) under the chosen prior."""
    if prior not in SEARCH_PRIORS:
        raise NesyError(f"search_prior must be one of {', '.join(SEARCH_PRIORS)}, got {prior!r}")
    kinds = receptacle_types()
    if prior == "uniform" or object_type not in _counts():
        return 1.0 / len(kinds)
    row = _counts()[object_type]
    return (row.get(receptacle_type, 0) + 1) / (sum(row.values()) + len(kinds))
