"""``nesy report``: a markdown report (and PNG plots) of one or several evaluation runs."""

from __future__ import annotations

import argparse

ORDER = 11


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="markdown report with plots of one or several `nesy eval` runs",
        description="Overall and per-task tables of the runs side by side, failure causes, and "
        "PNG plots (per-task success bars, steps per episode) written beside the report.",
    )
    parser.add_argument("runs", nargs="+", metavar="DIR", help="run folders written by `nesy eval --out`")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="report file (default: DIR/report.md for one run, ./report.md for several)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.evaluation.report import write_report

    path = write_report(args.runs, args.out)
    stem = path.with_suffix("")
    print(f"report: {path} (plots {stem}_per_task.png, {stem}_steps.png)")
    return 0
