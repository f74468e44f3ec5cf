"""``nesy ablations``: the default config and each ablation of it on the same episodes, one report."""

from __future__ import annotations

import argparse

from agent.cli.common import positive_int
from agent.cli.eval import intermixed

ORDER = 12


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from agent.evaluation.ablations import ABLATIONS
    from agent.evaluation.suites import SUITES

    parser = subparsers.add_parser(
        "ablations",
        help="the default config against itself with one module swapped each (one report)",
        description="Run the default config and each of its ablations (configs/ablations/NAME.yaml: "
        "the default with one module swapped) on the same episodes, each into OUT/NAME "
        "(resumable: run the same command again), then write OUT/report.md comparing them. "
        "Ablations: " + "; ".join(f"{a.name} ({a.swaps})" for a in ABLATIONS) + ". See docs/evaluation.md.",
    )
    intermixed(parser)
    parser.add_argument("--suite", default="tatc", choices=SUITES, help="benchmark suite (default tatc)")
    parser.add_argument("--split", default="valid_unseen", help="split (default valid_unseen)")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder of the runs and the report")
    parser.add_argument("--only", default="", metavar="NAME[,NAME...]",
                        help="only these ablations, comma-separated (the default always runs)")
    parser.add_argument("--episodes", type=positive_int, default=None, metavar="N",
                        help="only the first N episodes of the task-balanced order")
    parser.add_argument("--per-task", type=positive_int, default=None, metavar="N", help="at most N episodes of each task type")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="K", help="parallel workers per run (default 1)")
    parser.add_argument("--data", default=None, metavar="FILE", help="episode file (tatc) or ALFRED trajectories (alfred)")
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="config overrides applied to every run")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.evaluation.ablations import AblationRequest, run_ablations

    only = tuple(name.strip() for name in args.only.split(",") if name.strip())
    request = AblationRequest(args.suite, args.split, args.out, only, tuple(args.overrides),
                              args.episodes, args.per_task, args.workers, args.data)
    path, table = run_ablations(request)
    print("\n".join(table))
    print(f"report: {path} (runs in {args.out}/NAME; the same command resumes them)")
    return 0
