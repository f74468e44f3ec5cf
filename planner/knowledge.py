"""What the planner knows about object types (general AI2-THOR knowledge, not an episode's
ground truth): each type's properties (pickupable, receptacle, openable, toggleable, ...),
what the restricted receptacles take (toaster, coffee machine, burner, holders), and
TEACh's object classes (Dishware, Silverware, ...) with the Sink/SinkBasin aliases.

The data is ``planner/data/object_knowledge.json``, a copy of the simulator's type and class
tables (the planner may not import the simulator); ``tests/test_planner_knowledge.py``
checks that the copies agree.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

ALIASES = {"Sink": "SinkBasin", "SinkBasin": "Sink", "Bathtub": "BathtubBasin", "BathtubBasin": "Bathtub"}
BASINS = ("SinkBasin", "BathtubBasin")
KNIVES = ("Knife", "ButterKnife")
HEATING_VESSELS = ("Pot", "Pan", "Kettle")
# restricted receptacles that hold one thing at a time in AI2-THOR (a second one needs clearing)
SINGLE_SLOT = ("StoveBurner", "CoffeeMachine", "Toaster")


@lru_cache(maxsize=1)
def _data() -> dict:
    path = resources.files("planner") / "data" / "object_knowledge.json"
    return json.loads(path.read_text(encoding="utf-8"))


def properties(object_type: str) -> frozenset[str]:
    """AI2-THOR properties of a type ("pickupable", "receptacle", ...); empty if unknown."""
    return frozenset(_data()["properties"].get(object_type, ()))


POUR_TARGETS = ("HousePlant", "SinkBasin", "BathtubBasin")  # take a pour besides fillable things


def affords(object_type: str, affordance: str | None) -> bool:
    """Can a click for an action needing ``affordance`` ("pickupable", ..., "pourable";
    None: any) select an object of this type?"""
    if affordance is None:
        return True
    if affordance == "pourable":
        return has(object_type, "fillable") or object_type in POUR_TARGETS
    return has(object_type, affordance)


def has(object_type: str, prop: str) -> bool:
    return prop in properties(object_type)


def open_surface(object_type: str) -> bool:
    """A plain place to put a held thing down on: a receptacle that is neither carried, opened
    nor switched, not a basin (a running tap would wash what goes in), not single-slot, not a
    toilet or garbage can (counters, tables, shelves, chairs...)."""
    props = properties(object_type)
    return "receptacle" in props and not props & {"pickupable", "openable", "toggleable"} \
        and object_type not in BASINS and object_type not in SINGLE_SLOT and object_type not in ("Toilet", "GarbageCan")


def can_put(object_type: str, receptacle_type: str) -> bool:
    """May an object of this type go in/on a receptacle of that type (AI2-THOR's restricted
    receptacles take only their listed types; every other receptacle takes anything)?"""
    if not has(receptacle_type, "receptacle") or not has(object_type, "pickupable"):
        return False
    restricted = _data()["restricted"]
    return object_type in restricted[receptacle_type] if receptacle_type in restricted else True


def usual_place(object_type: str, receptacle_type: str) -> bool:
    """Is this a receptacle such objects are usually put in (ALFRED's pairs)? Used to put a
    held object down somewhere sensible."""
    return object_type in _data()["can_contain"].get(receptacle_type, ())


@lru_cache(maxsize=1024)
def classes_of(object_type: str) -> frozenset[str]:
    """Every class a type belongs to, starting with itself (sliced pieces inherit the
    whole object's classes; Sink/SinkBasin and Bathtub/BathtubBasin name each other)."""
    out = {object_type}
    if object_type in ALIASES:
        out.add(ALIASES[object_type])
    base = whole_of(object_type)
    for name, members in _data()["classes"].items():
        if object_type in members or (base != object_type and base in members):
            out.add(name)
    return frozenset(out)


def is_kind(object_type: str, wanted: str) -> bool:
    """TEACh's test: the type is ``wanted`` or belongs to the class ``wanted``."""
    return wanted in classes_of(object_type)


def known_name(name: str) -> bool:
    """A type or class name the planner knows."""
    return name in _data()["properties"] or name in _data()["classes"] or name in ALIASES


def whole_of(object_type: str) -> str:
    """The whole object a piece comes from (AppleSliced -> Apple, EggCracked -> Egg)."""
    for suffix in ("Sliced", "Cracked"):
        if object_type.endswith(suffix) and len(object_type) > len(suffix):
            return object_type[: -len(suffix)]
    return object_type


def piece_of(object_type: str) -> str | None:
    """The piece type slicing a sliceable type gives (Apple -> AppleSliced), else None."""
    if not has(object_type, "sliceable"):
        return None
    return "EggCracked" if object_type == "Egg" else f"{object_type}Sliced"


def representative(name: str, prop: str | None = None) -> str:
    """A type standing for a type or class name: the class's first member type (with the
    property ``prop``, if one has it: Cookware's first is a Kettle, which no one washes)."""
    if name in _data()["properties"]:
        return name
    if name in ALIASES:
        return ALIASES[name]
    members = _data()["classes"].get(name, ())
    with_prop = [m for m in members if prop is not None and has(m, prop)]
    return (with_prop or list(members) or [name])[0]
