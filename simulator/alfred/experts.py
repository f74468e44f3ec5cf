"""Replaying ALFRED's recorded expert actions in the simulator (the fidelity check).

For each trajectory in a supported floor plan: build the recorded start state, put the
Follower at the recorded start pose, run every expert low-level action (a failed action
changes nothing, and the replay goes on), then check ALFRED's goal. A trajectory passes
when every action succeeded and the goal holds at the end.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from simulator.actions import ACTIONS, NAVIGATION_OPS
from simulator.alfred.goals import goal_progress
from simulator.alfred.trajectories import Trajectory
from simulator.scenes import supported_scenes
from simulator.sim import FOLLOWER, Simulator

_ID = re.compile(r"\b([A-Za-z]+)\|[-+0-9.|A-Za-z_]+")


def error_category(action: str, error: str) -> str:
    """'PickupObject: Mug is not visible (...)': ids replaced by their types."""
    return f"{action}: {_ID.sub(lambda m: m.group(1), error)}"


@dataclass
class ReplayResult:
    task_id: str
    task_type: str
    actions: int
    failed_actions: int
    navigation_actions: int
    failed_navigation: int
    goal_satisfied: int
    goal_total: int
    first_failure: str | None

    @property
    def success(self) -> bool:
        return self.failed_actions == 0 and self.goal_satisfied == self.goal_total


def replay(trajectory: Trajectory, simulator: Simulator | None = None) -> ReplayResult:
    sim = simulator or Simulator()
    sim.reset(trajectory.start_state())
    failed = nav = failed_nav = 0
    first_failure = None
    for step in trajectory.expert_low_actions:
        name = step["action"]
        args = {k: step[k] for k in ("objectId", "receptacleObjectId") if k in step}
        result = sim.step(FOLLOWER, name, **args)
        is_nav = name in ACTIONS and ACTIONS[name].op in NAVIGATION_OPS
        nav += is_nav
        if not result.success:
            failed += 1
            failed_nav += is_nav
            first_failure = first_failure or error_category(name, result.error_message)
    progress = goal_progress(sim.world, trajectory.task_type, trajectory.pddl_params)
    if first_failure is None and not progress.success:
        first_failure = f"Goal: {trajectory.task_type} not satisfied ({progress.satisfied}/{progress.total})"
    return ReplayResult(
        trajectory.task_id, trajectory.task_type, len(trajectory.expert_low_actions), failed, nav,
        failed_nav, progress.satisfied, progress.total, first_failure,
    )


@dataclass
class ExpertReport:
    results: list[ReplayResult] = field(default_factory=list)
    unsupported: Counter = field(default_factory=Counter)

    def summary(self) -> dict:
        n = len(self.results)
        actions = sum(r.actions for r in self.results)
        nav = sum(r.navigation_actions for r in self.results)
        per_type: dict[str, list[ReplayResult]] = {}
        for r in self.results:
            per_type.setdefault(r.task_type, []).append(r)
        return {
            "trajectories": n,
            "success_rate": sum(r.success for r in self.results) / n if n else 0.0,
            "action_success_rate": 1 - sum(r.failed_actions for r in self.results) / actions if actions else 0.0,
            "navigation_action_success_rate": 1 - sum(r.failed_navigation for r in self.results) / nav if nav else 0.0,
            "goal_condition_success": (
                sum(r.goal_satisfied for r in self.results) / sum(r.goal_total for r in self.results) if n else 0.0
            ),
            "per_task_type": {
                t: sum(r.success for r in rs) / len(rs) for t, rs in sorted(per_type.items())
            },
            "first_failures": dict(Counter(r.first_failure for r in self.results if r.first_failure).most_common()),
            "skipped_unsupported_floor_plans": dict(sorted(self.unsupported.items())),
        }


def check_experts(trajectories: Iterable[Trajectory], progress=None) -> ExpertReport:
    supported = set(supported_scenes())
    report = ExpertReport()
    sim = Simulator()
    for trajectory in trajectories:
        if trajectory.floor_plan not in supported:
            report.unsupported[trajectory.floor_plan] += 1
        else:
            report.results.append(replay(trajectory, sim))
        if progress is not None:
            progress.update(1)
    return report
