"""Progress Check: evaluating a task instance on a world, in TEACh's output structure.

``evaluate`` walks the task tree. Determiners multiply down the hierarchy: a sub-task
component with determiner N is checked for N times the instances its parent asks for
(``a`` counts as 1; ``0`` skips the component), except atomic components marked
``instance_shareable`` (a knife, a sink), which need one instance whatever the count.
Relations use the objects each component found; a sub-task component stands for its
anchor object (``task_anchor_object``, followed down through sub-tasks), and - stricter
than TEACh, which takes every anchor-satisfying object - only anchors that also satisfy
that sub-task's own relations (the plate that carries the toast, not any clean plate).

``progress_check`` returns TEACh's Progress Check structure::

    {"task_desc", "success", "goal_conditions_total", "goal_conditions_satisfied",
     "subgoals": [{"representative_obj_id", "step_successes", "success", "description",
                   "steps": [{"success", "objectId", "objectType", "desc", "problem_keys"}],
                   "problem_keys": {objectId: [problem key]},
                   "goal_conditions_total", "goal_conditions_satisfied"}]}

one subgoal per component (a sub-task's steps are flattened into its subgoal, keeping
only the unfinished ones) and per relation; successes are 0/1. A problem key is
``{"objectId", "objectType", "determiner", "property_name", "desired_property_value"}``;
relation keys add ``receptacle_objectId`` / ``receptacle_objectType`` (the suggested
target) and ``receptacle_candidates`` (every acceptable one, best first). Each failed
step lists the problem keys it is about.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.tasks.check import Part, check_atomic, check_relation
from simulator.tasks.state import ObjectView, snapshot
from simulator.tasks.tdl import AtomicComponent, TaskInstance
from simulator.world import World


@dataclass
class TaskOutcome:
    desc: str
    success: bool
    subgoals: list[dict[str, Any]]
    satisfied: list[str]  # the anchor's objects that satisfy the task
    candidates: list[str]
    goal_conditions_total: int
    goal_conditions_satisfied: int

    def representative(self) -> str:
        for pool in (self.candidates if not self.success else [], self.satisfied, self.candidates):
            if pool:
                return pool[0]
        last = ""
        for subgoal in self.subgoals:
            for step in subgoal["steps"]:
                if step["success"]:
                    return step["objectId"]
                last = step["objectId"]
        return last


def _subgoal(part: Part, description: str) -> dict[str, Any]:
    return {
        "representative_obj_id": part.representative(),
        "step_successes": [s["success"] for s in part.steps],
        "success": int(part.success),
        "description": description,
        "steps": part.steps,
        "problem_keys": part.problem_keys,
        "goal_conditions_total": part.goal_conditions_total,
        "goal_conditions_satisfied": part.goal_conditions_satisfied,
    }


def _count(determiner: str) -> int:
    return 1 if determiner == "a" else int(determiner)


def evaluate(task: TaskInstance, objects: dict[str, ObjectView], instances: int = 1) -> TaskOutcome:
    """Check ``instances`` copies of ``task`` against a world snapshot."""
    subgoals: list[dict[str, Any]] = []
    satisfied: dict[str, list[str]] = {}
    candidates: dict[str, list[str]] = {}  # for relations: atomic components only, as in TEACh
    anchor_candidates: list[str] = []
    for key, comp in task.components.items():
        if comp.determiner == "0":
            continue
        if isinstance(comp, AtomicComponent):
            part = check_atomic(comp, instances, objects)
            satisfied[key], candidates[key] = part.satisfied, part.candidates
            if key == task.anchor:
                anchor_candidates = part.candidates
            if comp.determiner == "all" and part.success and not part.steps:
                continue  # nothing to report (TEACh leaves such a component out)
            subgoals.append(_subgoal(part, task.desc))
            continue
        child = evaluate(comp.task, objects, instances * _count(comp.determiner))
        satisfied[key] = child.satisfied
        if key == task.anchor:
            anchor_candidates = child.candidates
        prefix = f"{comp.determiner} x " if comp.determiner not in ("a", "1") else ""
        step_successes = [s["success"] for s in child.subgoals]
        problem_keys: dict[str, list[dict[str, Any]]] = {}
        for sub in child.subgoals:
            for oid, keys in sub["problem_keys"].items():
                problem_keys.setdefault(oid, []).extend(keys)
        subgoals.append({
            "representative_obj_id": child.representative(),
            "step_successes": step_successes,
            "success": int(all(step_successes)),
            "description": prefix + child.desc,
            "steps": [step for sub in child.subgoals for step in sub["steps"] if not step["success"]],
            "problem_keys": problem_keys,
            "goal_conditions_total": child.goal_conditions_total,
            "goal_conditions_satisfied": child.goal_conditions_satisfied,
        })
    anchor_ok = list(satisfied.get(task.anchor, [])) if task.anchor else []
    for relation in task.relations:
        part = check_relation(relation, instances, satisfied, candidates, objects)
        subgoals.append(_subgoal(part, relation.failure_desc))
        if task.anchor in (*relation.head_entities, *relation.tail_entities):
            kept = part.satisfied_by_entity.get(task.anchor, set())
            anchor_ok = [oid for oid in anchor_ok if oid in kept]
    return TaskOutcome(
        desc=task.desc,
        success=all(s["success"] for s in subgoals),
        subgoals=subgoals,
        satisfied=anchor_ok,
        candidates=anchor_candidates,
        goal_conditions_total=sum(s["goal_conditions_total"] for s in subgoals),
        goal_conditions_satisfied=sum(s["goal_conditions_satisfied"] for s in subgoals),
    )


def progress_check(world: World, task: TaskInstance) -> dict[str, Any]:
    """TEACh's Progress Check for ``task`` in ``world`` (a Commander-side oracle query)."""
    outcome = evaluate(task, snapshot(world))
    return {
        "task_desc": outcome.desc,
        "success": int(outcome.success),
        "subgoals": outcome.subgoals,
        "goal_conditions_total": outcome.goal_conditions_total,
        "goal_conditions_satisfied": outcome.goal_conditions_satisfied,
    }
