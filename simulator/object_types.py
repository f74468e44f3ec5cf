"""AI2-THOR object type facts: properties, default sizes and what can hold what.

Owns the run-time view of ``simulator/data/object_types.json`` (built by
``python -m simulator.scenes.build DATA_DIR`` from AI2-THOR's object type documentation and
ALFRED's receptacle pairs; see docs/scenes.md). ``can_contain`` is ALFRED's planner pairs
plus the AI2-THOR rules TEACh tasks need (sliced pieces, burners, toaster, coffee machine,
dishes, sink and bathtub basins).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from contracts.errors import NesyError

FLAGS = (
    "pickupable", "receptacle", "openable", "toggleable", "sliceable",
    "cookable", "dirtyable", "fillable", "breakable", "moveable",
)


@dataclass(frozen=True)
class TypeInfo:
    """What AI2-THOR says about one object type (plus an approximate default size)."""

    name: str
    pickupable: bool
    receptacle: bool
    openable: bool
    toggleable: bool
    sliceable: bool
    cookable: bool
    dirtyable: bool
    fillable: bool
    breakable: bool
    moveable: bool
    size: tuple[float, float, float]  # default full extents (x, y, z), metres


class UnknownObjectTypeError(NesyError):
    """An object type that is neither an AI2-THOR type nor one of ALFRED's extra types."""

    def __init__(self, object_type: str, known: list[str]):
        close = difflib.get_close_matches(object_type, known, n=3, cutoff=0.6)
        lower = {k.lower(): k for k in known}
        if object_type.lower() in lower and lower[object_type.lower()] not in close:
            close.insert(0, lower[object_type.lower()])
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        super().__init__(
            f"unknown object type {object_type!r} (expected one of the {len(known)} "
            f"AI2-THOR object types, e.g. Apple, Mug, CounterTop{hint})"
        )
        self.object_type = object_type


@dataclass(frozen=True)
class _Table:
    types: dict[str, TypeInfo]
    contains: dict[str, frozenset[str]]


def _parse(raw: dict) -> _Table:
    types = {
        name: TypeInfo(
            name=name,
            **{flag: flag in entry["properties"] for flag in FLAGS},
            size=(float(entry["size"][0]), float(entry["size"][1]), float(entry["size"][2])),
        )
        for name, entry in raw["types"].items()
    }
    contains = {rec: frozenset(objs) for rec, objs in raw["can_contain"].items()}
    return _Table(types, contains)


@lru_cache(maxsize=1)
def _table() -> _Table:
    path = resources.files("simulator") / "data" / "object_types.json"
    return _parse(json.loads(path.read_text(encoding="utf-8")))


def type_info(object_type: str) -> TypeInfo:
    """Properties and default size of ``object_type`` (raises UnknownObjectTypeError)."""
    table = _table()
    try:
        return table.types[object_type]
    except KeyError:
        raise UnknownObjectTypeError(object_type, sorted(table.types)) from None


def all_types() -> list[str]:
    """Every known object type, sorted."""
    return sorted(_table().types)


def can_contain(receptacle_type: str, object_type: str) -> bool:
    """Whether an object of ``object_type`` may be put in/on a ``receptacle_type``."""
    table = _table()
    for name in (receptacle_type, object_type):
        if name not in table.types:
            raise UnknownObjectTypeError(name, sorted(table.types))
    return object_type in table.contains.get(receptacle_type, frozenset())
