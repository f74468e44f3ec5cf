"""The one table of TEACh's 12 benchmark task types: TEACh's name, the task definition that
implements it (``simulator/tasks/definitions``) and the names of that definition's
parameters in order (#0, #1, ...).

A ``TaskSpec`` names a TEACh task by its definition (``teach_task="Put All X In One Y"``)
with parameters by these names (``{"X": "Pencil", "relation": "in", "Y": "Drawer"}``); a
parser may leave out parameters the words do not give. The simulator's task library and
episode generator, the Commanders' language and the parsers all use this table, and TEACh's
object classes (``data/object_classes.json``: Silverware, Dishware, ...), which a task's
parameter may name and a Commander may spell out as their members ("the butter knives,
spoons and forks").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class TeachTaskType:
    name: str  # TEACh's benchmark task type ("Make Coffee")
    definition: str  # the task definition implementing it ("Coffee")
    params: tuple[str, ...]  # the definition's parameter names, in order


_PUT = ("X", "relation", "Y")
_SLICES = ("N", "X", "relation", "Y")
TEACH_TASK_TYPES: tuple[TeachTaskType, ...] = (
    TeachTaskType("Water Plant", "Water Plant", ()),
    TeachTaskType("Make Coffee", "Coffee", ()),
    TeachTaskType("Clean All X", "Clean All X", ("X",)),
    TeachTaskType("Put All X On Y", "Put All X On Y", _PUT),
    TeachTaskType("Boil Potato", "Boil X", ("X",)),
    TeachTaskType("Make Plate Of Toast", "Plate Of Toast", ()),
    TeachTaskType("N Slices Of X In Y", "N Slices Of X In Y", _SLICES),
    TeachTaskType("Put All X In One Y", "Put All X In One Y", _PUT),
    TeachTaskType("N Cooked Slices Of X In Y", "N Cooked Slices Of X In Y", _SLICES),
    TeachTaskType("Prepare Sandwich", "Sandwich", ("lettuce_slices", "tomato_slices")),
    TeachTaskType("Prepare Salad", "Salad", ("lettuce_slices", "tomato_slices", "cooked_potato_slices")),
    TeachTaskType("Prepare Breakfast", "Breakfast", (
        "coffees", "toast_plates", "potato_servings", "potato_container", "apple_servings", "apple_container",
        "sandwiches", "sandwich_lettuce", "sandwich_tomato", "salads", "salad_lettuce", "salad_tomato",
        "salad_potato", "serving_place")),
)

TEACH_TASKS: dict[str, tuple[str, ...]] = {t.definition: t.params for t in TEACH_TASK_TYPES}
"""Task definition name -> its parameter names."""

BY_NAME: dict[str, TeachTaskType] = {t.name: t for t in TEACH_TASK_TYPES}


def named_params(definition: str, values: Sequence[Any]) -> dict[str, Any]:
    """Positional parameter values of a task definition -> ``{name: value}``."""
    names = TEACH_TASKS.get(definition)
    if names is None:
        raise KeyError(f"unknown TEACh task definition {definition!r}; known: {', '.join(TEACH_TASKS)}")
    if len(values) != len(names):
        raise ValueError(f"TEACh task {definition!r} takes {len(names)} parameters {names}, got {len(values)}")
    return dict(zip(names, values, strict=True))


def positional_params(definition: str, params: Mapping[str, Any]) -> tuple[Any, ...]:
    """``{name: value}`` -> the definition's positional values (None where not given)."""
    names = TEACH_TASKS.get(definition)
    if names is None:
        raise KeyError(f"unknown TEACh task definition {definition!r}; known: {', '.join(TEACH_TASKS)}")
    unknown = set(params) - set(names)
    if unknown:
        raise ValueError(f"TEACh task {definition!r} has no parameter(s) {sorted(unknown)}; its parameters: {names}")
    return tuple(params.get(name) for name in names)


@lru_cache(maxsize=1)
def object_class_table() -> dict[str, tuple[str, ...]]:
    """TEACh's object classes: class name -> member object types."""
    raw = json.loads((resources.files("contracts") / "data" / "object_classes.json").read_text(encoding="utf-8"))
    return {name: tuple(members) for name, members in raw["classes"].items()}


def covering_class(types: Iterable[str]) -> str:
    """What a list of object types names: the one type, or the smallest class holding them
    all ("butter knives, spoons and forks" -> Silverware; a Commander lists the members of a
    task's class that are in the room), else the first type."""
    kinds = list(dict.fromkeys(types))
    if len(kinds) <= 1:
        return kinds[0] if kinds else ""
    holding = [(len(members), name) for name, members in object_class_table().items() if set(kinds) <= set(members)]
    return min(holding)[1] if holding else kinds[0]
