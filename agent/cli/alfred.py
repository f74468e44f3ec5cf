"""``nesy alfred check-experts``: replay ALFRED's expert trajectories in the built-in simulator."""

from __future__ import annotations

import argparse
import itertools
import sys

from tqdm import tqdm

from agent.cli.common import InputError, print_json
from simulator.alfred.experts import check_experts
from simulator.alfred.trajectories import load_trajectories

ORDER = 40


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "alfred",
        help="ALFRED tools (check-experts: replay expert actions; check-masks: rendered masks vs AI2-THOR's)",
        description="ALFRED tools on the built-in simulator.",
    )
    sub = parser.add_subparsers(dest="alfred_command", metavar="TOOL", required=True)
    check = sub.add_parser(
        "check-experts",
        help="replay expert low-level actions and check ALFRED's goal",
        description="For every trajectory in a supported floor plan: start from the recorded "
        "state and pose, replay the expert's low-level actions, check the ALFRED goal. Reports "
        "the fraction that fully succeed and a breakdown of the first failure.",
    )
    check.add_argument("file", help="ALFRED trajectories: our .jsonl(.gz), a traj_data.json or a folder")
    check.add_argument("--limit", type=int, default=None, help="only the first N trajectories")
    check.add_argument("--render", choices=("none", "egl"), default="none",
                       help="none: symbolic, interactions by objectId (default); egl: rendered with "
                       "ALFRED's camera (needs --click recorded-point)")
    check.add_argument("--click", choices=("id", "recorded-point"), default="id",
                       help="recorded-point: every interaction is a click at AI2-THOR's recorded point, "
                       "resolved through our instance buffer (needs --render egl)")
    check.add_argument("--masks", default=None, help="recorded interactions for --click recorded-point "
                       "(default: alfred_train_masks.jsonl.gz beside FILE)")
    check.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    check.set_defaults(handler=run_check)
    masks = sub.add_parser(
        "check-masks",
        help="compare our rendered target masks with AI2-THOR's recorded ones",
        description="Replay the experts with rendering on and, at every interaction AI2-THOR "
        "recorded a mask for, compare our instance mask of the target (the receptacle for "
        "PutObject) with the recorded one: IoU, whether the recorded point lies in our mask, "
        "whether our target is drawn at all.",
    )
    masks.add_argument("file", help="ALFRED trajectories: our .jsonl(.gz), a traj_data.json or a folder")
    masks.add_argument("--masks", required=True, help="recorded interaction masks (.jsonl.gz, same trajectories)")
    masks.add_argument("--limit", type=int, default=None, help="only the first N trajectories")
    masks.add_argument("--overlays", metavar="DIR", default=None,
                       help="write overlay images (ours vs AI2-THOR's) into DIR")
    masks.add_argument("--overlay-limit", type=int, default=200, metavar="N",
                       help="at most N overlay images (default 200)")
    masks.add_argument("--details", metavar="FILE", default=None,
                       help="write one JSON line per interaction (scores, boxes, pose) to FILE")
    masks.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    masks.set_defaults(handler=run_check_masks)


def run_check(args: argparse.Namespace) -> int:
    clicks = _recorded_clicks(args)
    trajectories = load_trajectories(args.file)
    if args.limit is not None:
        trajectories = itertools.islice(trajectories, args.limit)
    with tqdm(desc="replaying experts", unit="traj", file=sys.stderr, disable=None) as bar:
        summary = check_experts(trajectories, progress=bar, clicks=clicks).summary()
    if args.json:
        print_json(summary)
        return 0
    print(f"trajectories: {summary['trajectories']}")
    for key in ("success_rate", "action_success_rate", "navigation_action_success_rate", "goal_condition_success"):
        print(f"{key}: {summary[key]:.4f}")
    print("per task type:")
    for task, rate in summary["per_task_type"].items():
        print(f"  {task:36s} {rate:.4f}")
    print("first failures:")
    for cause, count in list(summary["first_failures"].items())[:20]:
        print(f"  {count:5d}  {cause}")
    return 0


def _recorded_clicks(args: argparse.Namespace):
    """The recorded interactions to click, for ``--click recorded-point`` (else None)."""
    from pathlib import Path

    from simulator.calibration.masks import MaskIndex

    if (args.click == "recorded-point") != (args.render == "egl"):
        raise InputError("--click recorded-point and --render egl go together: clicks resolve through the "
                         "rendered instance buffer, and a rendered replay by ids would test nothing new")
    if args.click == "id":
        if args.masks is not None:
            raise InputError("--masks is only used with --click recorded-point")
        return None
    masks = Path(args.masks) if args.masks else Path(args.file).parent / "alfred_train_masks.jsonl.gz"
    if not masks.is_file():
        raise InputError(f"{masks}: no recorded interactions file there; pass --masks FILE "
                         "(AI2-THOR's recorded masks, e.g. ../shared/data/alfred_train_masks.jsonl.gz)")
    return MaskIndex(masks)


def run_check_masks(args: argparse.Namespace) -> int:
    from pathlib import Path

    from simulator.calibration.check import check_masks
    from simulator.calibration.masks import MaskIndex
    from simulator.calibration.overlays import OverlayWriter

    trajectories = load_trajectories(args.file)
    if args.limit is not None:
        trajectories = itertools.islice(trajectories, args.limit)
    index = MaskIndex(args.masks)
    overlay = OverlayWriter(args.overlays, args.overlay_limit) if args.overlays else None
    details = Path(args.details) if args.details else None
    with tqdm(desc="checking masks", unit="traj", file=sys.stderr, disable=None) as bar:
        summary = check_masks(trajectories, index, progress=bar, overlay=overlay, details=details).summary()
    if args.json:
        print_json(summary)
        return 0
    print(f"trajectories: {summary['trajectories']}  interactions: {summary['interactions']}")
    for key in ("mean_iou", "point_hit_rate", "visible_rate"):
        print(f"{key}: {summary[key]:.4f}")
    print("per action (interactions, mean IoU, point hit rate):")
    for action, r in summary["per_action"].items():
        print(f"  {action:16s} {r['interactions']:6d}  {r['mean_iou']:.3f}  {r['point_hit_rate']:.3f}")
    print("worst types:")
    for r in summary["worst_types"]:
        print(f"  {r['type']:20s} {r['interactions']:6d}  {r['mean_iou']:.3f}  {r['point_hit_rate']:.3f}")
    return 0
