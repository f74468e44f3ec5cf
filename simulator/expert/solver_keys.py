"""Problem keys: what an expert must fix, as TEACh's Progress Check reports it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ProblemKey:
    object_id: str
    property_name: str
    desired: Any
    receptacle_id: str | None = None


def unsatisfied_keys(report: dict) -> list[ProblemKey]:
    """The problem keys of the first unsatisfied subgoal's unsatisfied steps, in order."""
    keys: list[ProblemKey] = []
    for subgoal in report.get("subgoals", []):
        if subgoal.get("success"):
            continue
        for step in subgoal.get("steps", []):
            if step.get("success"):
                continue
            for key in step.get("problem_keys", []):
                keys.append(
                    ProblemKey(
                        key.get("objectId") or step["objectId"],
                        key["property_name"],
                        key["desired_property_value"],
                        key.get("receptacle_objectId") or key.get("receptacleObjectId"),
                    )
                )
        if keys:
            return keys
    return keys
