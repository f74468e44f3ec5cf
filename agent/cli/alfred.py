"""``nesy alfred check-experts``: replay ALFRED's expert trajectories in the built-in simulator."""

from __future__ import annotations

import argparse
import itertools
import sys

from tqdm import tqdm

from agent.cli.common import print_json
from simulator.alfred.experts import check_experts
from simulator.alfred.trajectories import load_trajectories

ORDER = 40


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "alfred",
        help="ALFRED tools (check-experts: replay recorded expert actions)",
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
    check.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    check.set_defaults(handler=run_check)


def run_check(args: argparse.Namespace) -> int:
    trajectories = load_trajectories(args.file)
    if args.limit is not None:
        trajectories = itertools.islice(trajectories, args.limit)
    with tqdm(desc="replaying experts", unit="traj", file=sys.stderr, disable=None) as bar:
        summary = check_experts(trajectories, progress=bar).summary()
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
