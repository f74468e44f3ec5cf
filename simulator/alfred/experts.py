"""Replaying ALFRED's recorded expert actions in the simulator (the fidelity check).

For each trajectory in a supported floor plan: build the recorded start state, put the
Follower at the recorded start pose, run every expert low-level action (a failed action
changes nothing, and the replay goes on), then check ALFRED's goal. A trajectory passes
when every action succeeded and the goal holds at the end.

With ``clicks`` (AI2-THOR's recorded interaction points, ``simulator.calibration.masks``)
the replay runs rendered with ALFRED's camera, and every interaction AI2-THOR recorded a
point for is a click at that point, resolved through our instance buffer as TEACh resolves
clicks (no object ids): the end-to-end test that a pixel-level agent can do in our world
what it could do in AI2-THOR. Interactions without a recorded point keep their ids and are
counted (``unclicked_interactions``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from simulator.actions import ACTIONS, NAVIGATION_OPS
from simulator.alfred.goals import goal_progress
from simulator.alfred.trajectories import Trajectory
from simulator.scenes import supported_scenes
from simulator.sim import FOLLOWER, Simulator

_ID = re.compile(r"\b([A-Za-z]+)\|[-+0-9.|A-Za-z_]+")
_POINT = re.compile(r"\(\d\.\d+, \d\.\d+\)")


def error_category(action: str, error: str) -> str:
    """'PickupObject: Mug is not visible (...)': ids replaced by their types, click points
    by '(x, y)'."""
    return f"{action}: {_POINT.sub('(x, y)', _ID.sub(lambda m: m.group(1), error))}"


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
    clicked: int = 0  # interactions done as a click at AI2-THOR's recorded point
    unclicked: int = 0  # interactions with no recorded point (done by id)

    @property
    def success(self) -> bool:
        return self.failed_actions == 0 and self.goal_satisfied == self.goal_total


def replay(trajectory: Trajectory, simulator: Simulator | None = None,
           points: dict[int, tuple[int, int]] | None = None, frame: int = 300) -> ReplayResult:
    """Replay one trajectory; ``points`` maps an action's index to AI2-THOR's recorded
    interaction point (pixels of a ``frame`` x ``frame`` view) to click instead of the id."""
    sim = simulator or Simulator()
    sim.reset(trajectory.start_state())
    failed = nav = failed_nav = clicked = unclicked = 0
    first_failure = None
    for index, step in enumerate(trajectory.expert_low_actions):
        name = step["action"]
        args: dict[str, Any] = {k: step[k] for k in ("objectId", "receptacleObjectId") if k in step}
        is_nav = name in ACTIONS and ACTIONS[name].op in NAVIGATION_OPS
        if points is not None and not is_nav and args:
            if index in points:
                px, py = points[index]
                args = {"x": (px + 0.5) / frame, "y": (py + 0.5) / frame}
                clicked += 1
            else:
                unclicked += 1
        result = sim.step(FOLLOWER, name, **args)
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
        failed_nav, progress.satisfied, progress.total, first_failure, clicked, unclicked,
    )


@dataclass
class ExpertReport:
    results: list[ReplayResult] = field(default_factory=list)
    unsupported: Counter = field(default_factory=Counter)
    without_points: int = 0  # click replays: trajectories with no recorded interactions

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
            "trajectories_without_points": self.without_points,
            "clicked_interactions": sum(r.clicked for r in self.results),
            "unclicked_interactions": sum(r.unclicked for r in self.results),
        }


def check_experts(trajectories: Iterable[Trajectory], progress=None, clicks: Any = None) -> ExpertReport:
    """Replay every trajectory; ``clicks`` (a ``MaskIndex`` of AI2-THOR's recorded
    interactions) makes the replay rendered, with ALFRED's camera, clicking the recorded
    points. Trajectories without recorded interactions are then skipped (counted)."""
    supported = set(supported_scenes())
    report = ExpertReport()
    sim = Simulator() if clicks is None else _alfred_rendered()
    for trajectory in trajectories:
        if trajectory.floor_plan not in supported:
            report.unsupported[trajectory.floor_plan] += 1
        elif clicks is None:
            report.results.append(replay(trajectory, sim))
        elif (recorded := clicks.get(trajectory.task_id)) is None:
            report.without_points += 1
        else:
            report.results.append(replay(trajectory, sim, {r.low_idx: r.point for r in recorded}))
        if progress is not None:
            progress.update(1)
    return report


def _alfred_rendered() -> Simulator:
    """A rendered simulator with ALFRED's AI2-THOR camera (300 x 300, the fitted 60 degrees)."""
    from simulator.calibration.table import field_of_view
    from simulator.sim import SimulatorSettings

    return Simulator(SimulatorSettings(field_of_view=field_of_view(), render="egl", width=300, height=300))
