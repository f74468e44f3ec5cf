"""``nesy demo``: the main job on the embedded default, small enough for a laptop."""

from __future__ import annotations

import argparse

from agent.cli.common import add_config_arguments
from agent.cli.eval import intermixed
from agent.demo import DEMO_PER_TASK

ORDER = 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="the config's Commander and Follower on a small unseen slice (a few minutes on 2 cores)",
        description="Run the config's Commander and Follower (if it names none: configs/"
        "teach-baseline.yaml's pairing) on the first episodes of every TEACh task type in the "
        "unseen validation floor plans, print the per-task table, and write into --out the "
        "per-episode results and logs, summary.json, report.md with plots, and replay.gif of "
        "one episode (a failed one if any; with the Follower's own map beside its view when it "
        "maps from rendered frames). The folder is started over each time.",
    )
    intermixed(parser)
    add_config_arguments(parser)
    parser.add_argument("--out", default="runs/demo", help="results folder (default runs/demo)")
    parser.add_argument("--per-task", type=int, default=DEMO_PER_TASK, help=f"episodes per task type (default {DEMO_PER_TASK})")
    parser.add_argument("--workers", type=int, default=None, help="parallel workers (default: up to 2)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.demo import run_demo
    from agent.evaluation.summary import overview, per_task_table

    outcome = run_demo(args.config, args.overrides, args.out, args.per_task, args.workers)
    print(per_task_table(outcome.summary))
    print(overview(outcome.summary))
    print(f"results: {outcome.folder}/episodes.jsonl, {outcome.folder}/summary.json, logs in {outcome.folder}/logs/")
    print(f"report: {outcome.report}; replay: {outcome.replay}; effective config: {outcome.folder}/config.yaml")
    return 0
