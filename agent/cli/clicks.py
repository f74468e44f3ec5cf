"""``nesy clicks``: where the Follower's clicks of one or more runs went (an offline audit)."""

from __future__ import annotations

import argparse

from agent.cli.common import positive_int

ORDER = 12


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "clicks",
        help="audit a run's clicks against the ground truth: refused, or on another kind than meant",
        description="Re-simulate the episode logs of `nesy eval` run folders and check every "
        "Follower click: what the Follower meant (logged by the modular Follower), what lay under "
        "it, whether the simulator refused it, and what it acted on (a put: the receptacle it "
        "landed in). Reads ground truth: an offline check, not part of any Follower.",
    )
    parser.add_argument("runs", nargs="+", metavar="DIR", help="run folders written by `nesy eval --out`")
    parser.add_argument("--limit", type=positive_int, default=None, metavar="N",
                        help="the first N episode logs of each folder (by name)")
    parser.add_argument("--json", action="store_true", help="the summary and every click as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from tqdm import tqdm

    from agent.evaluation.click_audit import audit_run, markdown

    with tqdm(desc="replaying logs", unit="ep", file=sys.stderr, disable=None) as bar:
        audit = audit_run(args.runs, args.limit, bar)
    print(json.dumps(audit.to_dict(), indent=1) if args.json else markdown(audit))
    return 0
