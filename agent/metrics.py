"""Benchmark metrics: success (SR), goal-condition success (GC) and their path-length-weighted
forms (PLW-SR, PLW-GC; TEACh calls them trajectory-length weighted, TLW), as ALFRED and
TEACh define them.

Per episode, from the final goal-condition counts (``progress_check`` or ALFRED's goal
check), the expert's action count L* and the agent's action count L:

    success  = 1 if the task is complete, else 0
    gc       = satisfied / total goal conditions (1 if there are none and the task is complete)
    weight   = L* / max(L*, L)
    plw_sr   = success * weight        plw_gc = gc * weight

Over a set of episodes (ALFRED's ``get_metrics``, which TEACh's evaluation reuses):

    SR     = mean of success
    GC     = sum of satisfied / sum of total goal conditions (``gc_macro``: mean of per-episode gc)
    PLW-SR = sum(plw_sr * L*) / sum(L*)      PLW-GC = sum(plw_gc * L*) / sum(L*)

so longer expert trajectories weigh more in the weighted rates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from contracts.errors import NesyError


class MetricsError(NesyError):
    """Inconsistent episode numbers given to the metrics helpers."""


@dataclass(frozen=True)
class EpisodeMetrics:
    """The metrics of one episode."""

    success: int
    goal_conditions_satisfied: int
    goal_conditions_total: int
    goal_condition_success: float
    expert_actions: int
    agent_actions: int
    path_length_weight: float
    plw_success: float
    plw_goal_condition_success: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def path_length_weight(expert_actions: int, agent_actions: int) -> float:
    """L* / max(L*, L): 1 when the agent is as short as the expert, less when longer."""
    if expert_actions < 0 or agent_actions < 0:
        raise MetricsError(f"action counts must be >= 0, got expert {expert_actions}, agent {agent_actions}")
    longest = max(expert_actions, agent_actions)
    return 1.0 if longest == 0 else expert_actions / longest


def goal_condition_success(satisfied: int, total: int, success: bool) -> float:
    if satisfied < 0 or total < 0 or satisfied > total:
        raise MetricsError(f"goal conditions satisfied {satisfied} must lie in [0, total {total}]")
    if total == 0:
        return 1.0 if success else 0.0
    return satisfied / total


def episode_metrics(
    success: bool,
    goal_conditions_satisfied: int,
    goal_conditions_total: int,
    expert_actions: int,
    agent_actions: int,
) -> EpisodeMetrics:
    """SR, GC and their path-length-weighted forms for one finished episode."""
    gc = goal_condition_success(goal_conditions_satisfied, goal_conditions_total, success)
    weight = path_length_weight(expert_actions, agent_actions)
    s = 1 if success else 0
    return EpisodeMetrics(
        success=s,
        goal_conditions_satisfied=int(goal_conditions_satisfied),
        goal_conditions_total=int(goal_conditions_total),
        goal_condition_success=gc,
        expert_actions=int(expert_actions),
        agent_actions=int(agent_actions),
        path_length_weight=weight,
        plw_success=s * weight,
        plw_goal_condition_success=gc * weight,
    )


def metrics_from_progress(progress: Mapping[str, Any], expert_actions: int, agent_actions: int) -> EpisodeMetrics:
    """Episode metrics from a final Progress Check (``simulator.tasks.progress_check``)."""
    return episode_metrics(
        bool(progress["success"]),
        int(progress["goal_conditions_satisfied"]),
        int(progress["goal_conditions_total"]),
        expert_actions,
        agent_actions,
    )


def aggregate(episodes: Iterable[EpisodeMetrics | Mapping[str, Any]]) -> dict[str, Any]:
    """SR, GC (micro, as ALFRED; and macro), PLW-SR and PLW-GC over episodes."""
    rows = [e.to_dict() if isinstance(e, EpisodeMetrics) else dict(e) for e in episodes]
    n = len(rows)
    if n == 0:
        return {"episodes": 0, "success_rate": 0.0, "goal_condition_success": 0.0, "gc_macro": 0.0,
                "plw_success_rate": 0.0, "plw_goal_condition_success": 0.0}
    weights = [r["expert_actions"] for r in rows]
    total_weight = sum(weights)
    sat = sum(r["goal_conditions_satisfied"] for r in rows)
    total = sum(r["goal_conditions_total"] for r in rows)

    def weighted(key: str) -> float:
        if total_weight == 0:
            return sum(r[key] for r in rows) / n
        return sum(r[key] * w for r, w in zip(rows, weights, strict=True)) / total_weight

    return {
        "episodes": n,
        "successes": sum(r["success"] for r in rows),
        "success_rate": sum(r["success"] for r in rows) / n,
        "goal_conditions_satisfied": sat,
        "goal_conditions_total": total,
        "goal_condition_success": sat / total if total else sum(r["goal_condition_success"] for r in rows) / n,
        "gc_macro": sum(r["goal_condition_success"] for r in rows) / n,
        "plw_success_rate": weighted("plw_success"),
        "plw_goal_condition_success": weighted("plw_goal_condition_success"),
    }


def aggregate_by(episodes: Iterable[tuple[str, EpisodeMetrics | Mapping[str, Any]]]) -> dict[str, dict[str, Any]]:
    """``aggregate`` per group (e.g. per task type), groups in first-seen order."""
    groups: dict[str, list] = {}
    for key, episode in episodes:
        groups.setdefault(key, []).append(episode)
    return {key: aggregate(rows) for key, rows in groups.items()}
