"""Checking one atomic component or one relation of a task on a world snapshot (TEACh's rules).

Atomic component with determiner ``a`` or ``N`` (times the instances asked for by the
enclosing tasks; 1 if ``instance_shareable``): satisfied when that many objects meet every
condition. Candidates are objects meeting the primary condition (or that would after
slicing), ranked by conditions met, then distance to the Follower; the best of them fill
the missing instances, and their unmet conditions become problem keys. Determiner ``all``:
every object meeting the primary condition must meet all conditions.

Relation (``parentReceptacles``): with tail determiner ``a`` each head object must be in
*some* tail object; with ``the``, all the heads must be in *one and the same* tail object
(per task instance). Head determiners count as for components (``all`` = every head
candidate). Goal conditions are counted as TEACh counts them: one per condition per object
instance for components, one per head object for relations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.object_types import UnknownObjectTypeError, can_contain
from simulator.tasks.state import ObjectView, holds, horizontal_distance, matches_primary
from simulator.tasks.tdl import AtomicComponent, Relation


@dataclass
class Part:
    """The outcome of one component or relation: becomes one Progress Check subgoal."""

    success: bool
    satisfied: list[str]
    candidates: list[str]
    steps: list[dict[str, Any]]
    problem_keys: dict[str, list[dict[str, Any]]]
    goal_conditions_total: int
    goal_conditions_satisfied: int
    # relations: which objects of each entity took part in a satisfied instance
    satisfied_by_entity: dict[str, set[str]] = field(default_factory=dict)

    def representative(self) -> str:
        failing = [s["objectId"] for s in self.steps if not s["success"]]
        for pool in (failing if not self.success else [], self.satisfied, self.candidates, [s["objectId"] for s in self.steps]):
            if pool:
                return pool[0]
        return ""


def _step(success: bool, obj: ObjectView, desc: str, keys: list[dict[str, Any]]) -> dict[str, Any]:
    return {"success": int(success), "objectId": obj["objectId"], "objectType": obj["objectType"], "desc": desc,
            "problem_keys": keys}


def _key(obj: ObjectView, determiner: str, prop: str, value: Any, **extra: Any) -> dict[str, Any]:
    return {"objectId": obj["objectId"], "objectType": obj["objectType"], "determiner": determiner,
            "property_name": prop, "desired_property_value": value, **extra}


def default_desc(obj_type: str, prop: str, value: Any) -> str:
    """A description for a failing condition that its definition gives no words for."""
    if prop == "objectType":
        return f"The {obj_type} needs to become a {value}."
    return f"The {obj_type} needs {prop} to be {value}."


def fits(receptacle: ObjectView, obj: ObjectView) -> bool:
    """May ``obj`` be put in/on ``receptacle`` (the simulator's placement rules)?"""
    try:
        return can_contain(receptacle["objectType"], obj["objectType"])
    except UnknownObjectTypeError:
        return False


def _rank(ids: list[str], objects: dict[str, ObjectView]) -> list[str]:
    return sorted(ids, key=lambda oid: (objects[oid]["distance"], oid))


# ---------------------------------------------------------------------------------- components
def check_atomic(comp: AtomicComponent, instances: int, objects: dict[str, ObjectView]) -> Part:
    """Check an atomic component for ``instances`` task instances (ignored for ``all``)."""
    conditions = comp.conditions
    primary = comp.primary_condition
    satisfied: list[str] = []
    unmet: list[tuple[str, dict[str, bool]]] = []
    for oid, obj in objects.items():
        results = {prop: holds(obj, prop, value, objects) for prop, value in conditions.items()}
        if all(results.values()):
            satisfied.append(oid)
        elif matches_primary(obj, primary, conditions[primary], objects):
            unmet.append((oid, results))
    satisfied = _rank(satisfied, objects)
    if comp.determiner == "all":
        unmet.sort(key=lambda c: (objects[c[0]]["distance"], c[0]))
        problems = unmet
        needed = len(satisfied) + len(unmet)
        success = not unmet
    else:
        per_instance = 1 if comp.determiner == "a" else int(comp.determiner)
        needed = 1 if comp.instance_shareable else instances * per_instance
        unmet.sort(key=lambda c: (-sum(c[1].values()), objects[c[0]]["distance"], c[0]))
        problems = unmet[: max(0, needed - len(satisfied))]
        success = len(satisfied) >= needed
    n_conditions = len(conditions)
    part = Part(
        success=success,
        satisfied=satisfied,
        candidates=[oid for oid, _ in unmet],
        steps=[],
        problem_keys={},
        goal_conditions_total=n_conditions * needed,
        goal_conditions_satisfied=n_conditions * min(needed, len(satisfied)) + sum(sum(r.values()) for _, r in problems),
    )
    for oid, results in problems:
        part.problem_keys[oid] = [
            _key(objects[oid], comp.determiner, prop, conditions[prop]) for prop, ok in results.items() if not ok
        ]
    _component_steps(comp, part, problems, objects)
    return part


def _component_steps(comp: AtomicComponent, part: Part, problems: list, objects: dict[str, ObjectView]) -> None:
    descs = comp.condition_failure_descs
    for prop, desc in descs.items():
        failing = [oid for oid, results in problems if not results.get(prop, True)]
        for oid in failing:
            keys = [k for k in part.problem_keys[oid] if k["property_name"] == prop]
            part.steps.append(_step(False, objects[oid], desc, keys))
        if not failing:
            pool = part.satisfied or ([] if comp.determiner == "all" else part.candidates)
            if pool:
                part.steps.append(_step(True, objects[pool[0]], desc, []))
    for oid, results in problems:  # unmet conditions the definition has no words for
        for prop, ok in results.items():
            if not ok and prop not in descs:
                keys = [k for k in part.problem_keys[oid] if k["property_name"] == prop]
                value = comp.conditions[prop]
                part.steps.append(_step(False, objects[oid], default_desc(objects[oid]["objectType"], prop, value), keys))


# ---------------------------------------------------------------------------------- relations
def _values(obj: ObjectView, prop: str) -> list[str]:
    value = obj.get(prop)
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _needed(determiner: str, heads: list[str], multiplier: int) -> int:
    if determiner == "all":
        return len(heads) * multiplier
    return multiplier * (1 if determiner == "a" else int(determiner))


def check_relation(
    relation: Relation,
    instances: int,
    satisfied: dict[str, list[str]],
    candidates: dict[str, list[str]],
    objects: dict[str, ObjectView],
) -> Part:
    """Check a relation between the objects found for the task's components."""

    def members(entity: str) -> list[str]:
        found = satisfied.get(entity, [])
        return found + [c for c in candidates.get(entity, []) if c not in found]

    heads = [(e, d, members(e)) for e, d in zip(relation.head_entities, relation.head_determiners, strict=True) if d != "0"]
    tail_entity = relation.tail_entities[0]
    tails = members(tail_entity)
    good_tails = set(satisfied.get(tail_entity, []))
    part = Part(False, [], [], [], {}, sum(_needed(d, hs, instances) for _, d, hs in heads), 0)
    if not tails:
        return part
    if relation.tail_determiners[0] == "a":
        _relation_any(relation, instances, heads, tail_entity, tails, good_tails, objects, part)
    else:
        _relation_same(relation, instances, heads, tail_entity, tails, good_tails, objects, part)
    return part


def _problem(part: Part, relation: Relation, obj: ObjectView, determiner: str, tails: list[str],
             objects: dict[str, ObjectView]) -> None:
    target = objects[tails[0]]
    key = _key(obj, determiner, relation.property, target["objectType"], receptacle_objectId=target["objectId"],
               receptacle_objectType=target["objectType"], receptacle_candidates=list(tails))
    part.problem_keys.setdefault(obj["objectId"], []).append(key)
    part.steps.append(_step(False, obj, relation.failure_desc, [key]))


def _relation_any(relation, instances, heads, tail_entity, tails, good_tails, objects, part: Part) -> None:
    """Tail determiner ``a``: each head object in any tail object."""
    tail_set = set(tails)
    part.success = True
    holders: set[str] = set()
    for entity, determiner, members in heads:
        inside = [h for h in members if tail_set & set(_values(objects[h], relation.property))]
        outside = [h for h in members if h not in inside]
        needed = len(members) if determiner == "all" else _needed(determiner, members, instances)
        part.goal_conditions_satisfied += min(len(inside), needed)
        part.satisfied += inside
        part.satisfied_by_entity[entity] = set(inside)
        holders.update(t for h in inside for t in _values(objects[h], relation.property) if t in tail_set)
        missing = outside if determiner == "all" else outside[: max(0, needed - len(inside))]
        if len(inside) < needed:
            part.success = False
        for oid in missing:
            # suggest valid tails that can take the object first, the nearest to it first
            ranked = sorted(tails, key=lambda t: (t not in good_tails, not fits(objects[t], objects[oid]),
                                                  horizontal_distance(objects[oid], objects[t]), t))
            _problem(part, relation, objects[oid], determiner, ranked, objects)
    part.satisfied_by_entity[tail_entity] = holders
    if part.success and part.satisfied and not part.steps:
        part.steps.append(_step(True, objects[part.satisfied[0]], relation.failure_desc, []))


def _relation_same(relation, instances, heads, tail_entity, tails, good_tails, objects, part: Part) -> None:
    """Tail determiner ``the``: per task instance, all heads in one and the same tail object."""
    statuses = []
    for tail in tails:
        per_head = []
        for entity, determiner, members in heads:
            inside = [h for h in members if tail in _values(objects[h], relation.property)]
            needed = _needed(determiner, members, 1)
            per_head.append((entity, determiner, members, inside, needed))
        ok = all(len(inside) >= needed for _, _, _, inside, needed in per_head)
        statuses.append((tail, ok, per_head))
    complete = [s for s in statuses if s[1]]
    partial = sorted(
        (s for s in statuses if not s[1]),
        key=lambda s: (
            -sum(len(i) >= n for _, _, _, i, n in s[2]),
            -sum(min(len(i), n) for _, _, _, i, n in s[2]),
            s[0] not in good_tails,
            not all(fits(objects[s[0]], objects[h]) for _, _, members, _, _ in s[2] for h in members),
            objects[s[0]]["distance"],
            s[0],
        ),
    )
    part.success = len(complete) >= instances
    chosen = complete[:instances] + partial[: max(0, instances - len(complete))]
    used = {h for _, _, per_head in complete for *_, inside, _ in per_head for h in inside}
    for tail, ok, per_head in chosen:
        for entity, determiner, members, inside, needed in per_head:
            part.goal_conditions_satisfied += min(len(inside), needed)
            if ok:
                part.satisfied += inside
                part.satisfied_by_entity.setdefault(entity, set()).update(inside)
                continue
            outside = sorted(
                (h for h in members if h not in inside),
                key=lambda h: (h in used, horizontal_distance(objects[h], objects[tail]), h),
            )
            for oid in outside[: max(0, needed - len(inside))]:
                _problem(part, relation, objects[oid], determiner, [tail], objects)
        if ok:
            part.satisfied_by_entity.setdefault(tail_entity, set()).add(tail)
    if part.success and part.satisfied and not part.steps:
        part.steps.append(_step(True, objects[part.satisfied[0]], relation.failure_desc, []))
