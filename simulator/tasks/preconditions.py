"""Can a task be done in this world at all? (TEACh's episode precondition check.)

For every component, with determiners multiplied down the hierarchy as in the Progress
Check, enough objects meeting the component's *primary* condition must exist: the other
conditions (clean, cooked, in place) are what the episode is for. A whole sliceable object
counts for as many slices as slicing it gives (one Bread makes 10 BreadSliced); ``all``
needs at least one object; instance-shareable components need one. An episode generator
checks this before keeping a start state (and ``progress_check`` to see the task is not
already done).
"""

from __future__ import annotations

from simulator.rules import SLICE_COUNTS
from simulator.tasks.state import ObjectView, holds, snapshot
from simulator.tasks.tdl import AtomicComponent, TaskInstance
from simulator.world import World


def missing_objects(world: World, task: TaskInstance) -> list[str]:
    """What the world lacks for ``task`` (empty when every component can be satisfied)."""
    objects = snapshot(world)
    missing: list[str] = []
    _visit(task, objects, 1, missing, task.task_name)
    return missing


def _visit(task: TaskInstance, objects: dict[str, ObjectView], instances: int, missing: list[str], path: str) -> None:
    for key, comp in task.components.items():
        if comp.determiner == "0":
            continue
        count = 1 if comp.determiner in ("a", "all") else int(comp.determiner)
        if not isinstance(comp, AtomicComponent):
            _visit(comp.task, objects, instances * count, missing, f"{path} > {key}")
            continue
        needed = 1 if comp.instance_shareable or comp.determiner == "all" else instances * count
        available = _available(comp, objects)
        if available < needed:
            value = comp.conditions[comp.primary_condition]
            missing.append(f"{path} > {key}: needs {needed} object(s) with {comp.primary_condition} {value!r}, "
                           f"the world has {available}")


def _available(comp: AtomicComponent, objects: dict[str, ObjectView]) -> int:
    prop = comp.primary_condition
    value = comp.conditions[prop]
    total = 0
    for obj in objects.values():
        if holds(obj, prop, value, objects):
            total += 1
        elif prop == "objectType" and isinstance(value, str):
            for suffix in ("Sliced", "Cracked"):
                base = value[: -len(suffix)]
                if value.endswith(suffix) and obj["objectType"] == base:
                    total += SLICE_COUNTS.get(base, 1)
    return total
