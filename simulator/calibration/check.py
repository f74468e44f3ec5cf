"""``check-masks``: our rendered target masks against AI2-THOR's, at every expert interaction.

For each trajectory in a supported floor plan: start from the recorded state and pose, replay
the expert's low-level actions symbolically (by objectId, as ``check-experts`` does), and just
before each interaction that AI2-THOR recorded a mask for, render the Follower's view
(300 x 300, as the rendered simulator would show it) and compare our instance mask of the
target (the receptacle for PutObject) with the recorded one: intersection over union,
whether the recorded interaction point lies in our mask, whether our target has a pixel.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulator.calibration.masks import FRAME, MaskIndex, RecordedInteraction
from simulator.calibration.table import field_of_view
from simulator.scenes import supported_scenes
from simulator.sim import FOLLOWER, Simulator, SimulatorSettings
from simulator.targeting import lookup

WORST_MIN_INTERACTIONS = 20  # a type needs this many interactions to be listed among the worst
WORST_COUNT = 15


@dataclass(frozen=True)
class MaskScore:
    """One interaction: our mask of the target vs AI2-THOR's."""

    task_id: str
    low_idx: int
    action: str
    target_id: str
    target_type: str
    iou: float
    point_hit: bool
    visible: bool
    ours_pixels: int
    theirs_pixels: int
    ours_bbox: tuple[int, int, int, int] | None  # x1, y1, x2, y2 (inclusive), None if not drawn
    theirs_bbox: tuple[int, int, int, int]
    point: tuple[int, int]  # AI2-THOR's interaction point (x, y) in pixels
    pose: tuple[float, float, int, float]
    # for diagnosing misses: what our instance buffer shows at AI2-THOR's point (None: floor,
    # walls, nothing), the target's parent receptacle, and whether an earlier action moved it
    at_point: str | None = None
    parent: str | None = None
    moved: bool = False


def mask_bbox(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    rows, cols = np.nonzero(mask)
    if len(rows) == 0:
        return None
    return (int(cols.min()), int(rows.min()), int(cols.max()), int(rows.max()))


def score(ours: np.ndarray, recorded: RecordedInteraction, theirs: np.ndarray | None = None) -> dict[str, Any]:
    """IoU, point hit and visibility of our boolean mask against a recorded interaction."""
    theirs = recorded.mask(ours.shape[0]) if theirs is None else theirs
    union = int(np.count_nonzero(ours | theirs))
    inter = int(np.count_nonzero(ours & theirs))
    px, py = recorded.point
    hit = 0 <= py < ours.shape[0] and 0 <= px < ours.shape[1] and bool(ours[py, px])
    return {
        "iou": inter / union if union else 0.0,
        "point_hit": hit,
        "visible": bool(ours.any()),
        "ours_pixels": int(np.count_nonzero(ours)),
        "theirs_pixels": int(np.count_nonzero(theirs)),
        "ours_bbox": mask_bbox(ours),
    }


def _rates(scores: list[MaskScore]) -> dict[str, float]:
    n = len(scores)
    return {
        "interactions": n,
        "mean_iou": round(sum(s.iou for s in scores) / n, 4) if n else 0.0,
        "point_hit_rate": round(sum(s.point_hit for s in scores) / n, 4) if n else 0.0,
        "visible_rate": round(sum(s.visible for s in scores) / n, 4) if n else 0.0,
    }


@dataclass
class MaskReport:
    scores: list[MaskScore] = field(default_factory=list)
    trajectories: int = 0
    without_masks: int = 0
    missing_targets: int = 0  # the recorded target id names no object of our world
    action_mismatches: int = 0  # the recorded low_idx does not point at the recorded action
    unsupported: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def summary(self) -> dict[str, Any]:
        per_action: dict[str, list[MaskScore]] = defaultdict(list)
        per_type: dict[str, list[MaskScore]] = defaultdict(list)
        for s in self.scores:
            per_action[s.action].append(s)
            per_type[s.target_type].append(s)
        types = {t: _rates(v) for t, v in sorted(per_type.items())}
        worst = sorted(
            (t for t, r in types.items() if r["interactions"] >= WORST_MIN_INTERACTIONS),
            key=lambda t: (types[t]["mean_iou"], t),
        )[:WORST_COUNT]
        return {
            **_rates(self.scores),
            "trajectories": self.trajectories,
            "per_action": {a: _rates(v) for a, v in sorted(per_action.items())},
            "per_type": types,
            "worst_types": [{"type": t, **types[t]} for t in worst],
            "missing_targets": self.missing_targets,
            "action_mismatches": self.action_mismatches,
            "trajectories_without_masks": self.without_masks,
            "skipped_unsupported_floor_plans": dict(sorted(self.unsupported.items())),
        }


def alfred_simulator() -> Simulator:
    """A symbolic simulator with ALFRED's AI2-THOR camera (the fitted field of view, 60
    degrees; the simulator's default stays 90, TEACh's)."""
    return Simulator(SimulatorSettings(field_of_view=field_of_view()))


# called with (score, our rgb frame, our mask, AI2-THOR's mask) for every interaction
OverlaySink = Callable[[MaskScore, np.ndarray, np.ndarray, np.ndarray], None]


def check_masks(
    trajectories: Iterable[Any],
    masks: MaskIndex,
    progress: Any = None,
    overlay: OverlaySink | None = None,
    details: Path | None = None,
) -> MaskReport:
    """Replay experts and score every recorded interaction (see the module docstring)."""
    from simulator.render.world_view import WorldRenderer

    supported = set(supported_scenes())
    report = MaskReport()
    sim = alfred_simulator()
    view = WorldRenderer(FRAME, FRAME)
    out = details.open("w") if details is not None else None
    try:
        for trajectory in trajectories:
            if progress is not None:
                progress.update(1)
            if trajectory.floor_plan not in supported:
                report.unsupported[trajectory.floor_plan] += 1
                continue
            recorded = masks.get(trajectory.task_id)
            if recorded is None:
                report.without_masks += 1
                continue
            report.trajectories += 1
            for s in _replay(trajectory, recorded, sim, view, report, overlay):
                report.scores.append(s)
                if out is not None:
                    out.write(json.dumps(asdict(s)) + "\n")
    finally:
        if out is not None:
            out.close()
        view.release()
    return report


def _replay(trajectory, recorded, sim: Simulator, view, report: MaskReport, overlay: OverlaySink | None):
    by_step = {r.low_idx: r for r in recorded}
    sim.reset(trajectory.start_state())
    start = {o.object_id: o.position for o in sim.world.objects.values()}
    actions = trajectory.expert_low_actions
    for i, step in enumerate(actions):
        rec = by_step.get(i)
        if rec is not None:
            if step["action"] != rec.action:
                report.action_mismatches += 1
            world = sim.world
            obj = lookup(world, rec.target_id)
            frames = view.frames(world, FOLLOWER)
            if obj is None:
                report.missing_targets += 1
                ours = np.zeros((FRAME, FRAME), dtype=bool)
                target_type = rec.target_id.split("|")[0]
            else:
                ours = frames.mask(obj.object_id)
                target_type = obj.object_type
            theirs = rec.mask(FRAME)
            px, py = rec.point
            at = frames.ids.get(int(frames.instance[min(py, FRAME - 1), min(px, FRAME - 1)]))
            s = MaskScore(
                task_id=trajectory.task_id, low_idx=i, action=rec.action, target_id=rec.target_id,
                target_type=target_type, theirs_bbox=rec.bbox, point=rec.point, pose=world.agents[FOLLOWER].pose(),
                **score(ours, rec, theirs), at_point=at, parent=None if obj is None else obj.parent,
                moved=obj is not None and start.get(obj.object_id) != obj.position,
            )
            if overlay is not None:
                overlay(s, frames.rgb, ours, theirs)
            yield s
        args = {k: step[k] for k in ("objectId", "receptacleObjectId") if k in step}
        sim.step(FOLLOWER, step["action"], **args)
