"""``summary.json``: a run's numbers from its per-episode lines (exactly ``SUMMARY_KEYS``).

Rates are fractions in [0, 1] computed as ALFRED and TEACh do (``agent.metrics.aggregate``:
GC over all goal conditions, PLW rates weighted by the expert's path length); means are
per episode; ``plan_length_ratio`` is the agent's steps over the recorded expert's actions,
summed over the episodes that have an expert (ALFRED's: how much shorter our plans are than
AI2-THOR's experts', a measure of the world's difficulty; None without experts); ``failure_causes`` counts the ``end_reason`` of the failed episodes;
``end_position`` (ALFRED-L, whose episodes must end near where the expert stood; None for other
suites) counts the episodes that ended within ``POSITION_REACH`` and the failures that only
ended too far (every other goal condition held: the walk back, not the task);
``wall_seconds`` is the run's wall time summed over its sessions (a resumed run counts
every session up to its last finished episode). ``complete`` says whether the summary
covers every selected episode (``episodes == episodes_selected``); ``episodes_selected`` is
None where the selection is not known.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from agent.metrics import aggregate, aggregate_by
from simulator.episodes.model import POSITION_REACH

SUMMARY_KEYS = (
    "config", "oracles", "suite", "split", "episodes", "complete", "episodes_selected",
    "success_rate", "goal_condition_success",
    "plw_success_rate", "plw_goal_condition_success", "mean_steps", "plan_length_ratio", "mean_failed_actions",
    "mean_utterances", "mean_questions", "per_task", "failure_causes", "end_position", "wall_seconds",
    "episodes_per_hour",
)


def run_wall_seconds(rows: Sequence[dict[str, Any]]) -> float:
    """Sum over sessions of the time from the session's start to its last finished episode."""
    last: dict[int, float] = {}
    for row in rows:
        timing = row.get("timing") or {}
        session = int(timing.get("session", 0))
        last[session] = max(last.get(session, 0.0), float(timing.get("elapsed", 0.0)))
    return sum(last.values())


def _mean(rows: Sequence[dict[str, Any]], key: str) -> float:
    return sum(float(r[key]) for r in rows) / len(rows) if rows else 0.0


def plan_length_ratio(rows: Sequence[dict[str, Any]]) -> float | None:
    """Sum of the agent's steps over the sum of the expert's actions, same episodes."""
    with_expert = [r for r in rows if r.get("expert_actions")]
    if not with_expert:
        return None
    return round(sum(r["steps"] for r in with_expert) / sum(r["expert_actions"] for r in with_expert), 4)


def end_position(rows: Sequence[dict[str, Any]]) -> dict[str, int] | None:
    """ALFRED-L: of the episodes with a ``final_distance``, how many ended within reach of the
    expert's end, and how many failed on that alone (None: no such episode)."""
    placed = [r for r in rows if r["metrics"].get("final_distance") is not None]
    if not placed:
        return None
    far = [r for r in placed if r["metrics"]["final_distance"] > POSITION_REACH]
    return {"episodes": len(placed), "ended_within": len(placed) - len(far),
            "failed_only_on_position": sum(not r["success"] and r["goal_conditions_satisfied"]
                                           == r["goal_conditions_total"] - 1 for r in far)}


def summarize(
    rows: Sequence[dict[str, Any]], config: str, suite: str, split: str,
    oracles: Sequence[str] = (), wall_seconds: float | None = None, selected: int | None = None,
) -> dict[str, Any]:
    """The summary of ``rows`` (episode lines, in run order) of a run of ``selected`` episodes."""
    overall = aggregate(r["metrics"] for r in rows)
    per_task = {}
    for task, agg in sorted(aggregate_by((r["task_type"], r["metrics"]) for r in rows).items()):
        per_task[task] = {"episodes": agg["episodes"], "success_rate": agg["success_rate"],
                          "goal_condition_success": agg["goal_condition_success"]}
    used: list[str] = []
    for row in rows:
        used.extend(o for o in row.get("oracles", ()) if o not in used)
    causes = Counter(r["end_reason"] for r in rows if not r["success"])
    wall = run_wall_seconds(rows) if wall_seconds is None else wall_seconds
    summary = {
        "config": config,
        "oracles": used or list(oracles),
        "suite": suite,
        "split": split,
        "episodes": len(rows),
        "complete": selected is not None and len(rows) == selected,
        "episodes_selected": selected,
        "success_rate": overall["success_rate"],
        "goal_condition_success": overall["goal_condition_success"],
        "plw_success_rate": overall["plw_success_rate"],
        "plw_goal_condition_success": overall["plw_goal_condition_success"],
        "mean_steps": _mean(rows, "steps"),
        "plan_length_ratio": plan_length_ratio(rows),
        "mean_failed_actions": _mean(rows, "failed_actions"),
        "mean_utterances": _mean(rows, "utterances"),
        "mean_questions": _mean(rows, "questions"),
        "per_task": per_task,
        "failure_causes": dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "end_position": end_position(rows),
        "wall_seconds": round(wall, 2),
        "episodes_per_hour": round(len(rows) / wall * 3600, 1) if wall > 0 else 0.0,
    }
    assert tuple(summary) == SUMMARY_KEYS
    return summary


def per_task_table(summary: dict[str, Any]) -> str:
    """The per-task table (markdown), then the overall line."""
    lines = ["| task type | episodes | success | goal conditions |", "|---|---:|---:|---:|"]
    for task, row in summary["per_task"].items():
        lines.append(f"| {task} | {row['episodes']} | {100 * row['success_rate']:.1f}% | "
                     f"{100 * row['goal_condition_success']:.1f}% |")
    lines.append(f"| **all** | {summary['episodes']} | {100 * summary['success_rate']:.1f}% | "
                 f"{100 * summary['goal_condition_success']:.1f}% |")
    return "\n".join(lines)


def overview(summary: dict[str, Any]) -> str:
    """A few lines: PLW rates, means, failure causes, speed, oracles."""
    causes = ", ".join(f"{k}: {v}" for k, v in summary["failure_causes"].items()) or "none"
    ended = summary.get("end_position")
    where = [f"ended within {POSITION_REACH} m of the expert's end: {ended['ended_within']} of {ended['episodes']}; "
             f"failed only on where they ended: {ended['failed_only_on_position']}"] if ended else []
    return "\n".join([
        f"PLW success {100 * summary['plw_success_rate']:.1f}%, PLW goal conditions "
        f"{100 * summary['plw_goal_condition_success']:.1f}%",
        f"per episode: {summary['mean_steps']:.1f} steps"
        + (f" ({summary['plan_length_ratio']:.2f} of the expert's)" if summary.get("plan_length_ratio") else "")
        + f", {summary['mean_failed_actions']:.2f} failed "
        f"actions, {summary['mean_utterances']:.1f} utterances, {summary['mean_questions']:.1f} questions",
        f"failure causes: {causes}",
        *where,
        f"wall time {summary['wall_seconds']:.1f} s, {summary['episodes_per_hour']:.0f} episodes/hour",
        f"oracles in use: {', '.join(summary['oracles']) or 'none'}",
    ])
