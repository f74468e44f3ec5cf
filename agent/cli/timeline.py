"""``nesy timeline``: what the Follower was doing at every action of a run's episodes (from its logs)."""

from __future__ import annotations

import argparse

from agent.cli.common import positive_int

ORDER = 13


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "timeline",
        help="the plan steps a run's Follower spent its actions on, per episode or in total",
        description="Read the episode logs of a `nesy eval` run folder: with episode ids, each "
        "episode's actions collapsed into spans of one plan step (\"search Plate\", "
        "\"PickupObject Lettuce#2\") with the Commander's words and the steps given up (and why) "
        "between them; without, the actions per kind of plan step and the steps given up per "
        "reason over the run's episodes. Needs logs written by the modular Follower.",
    )
    parser.add_argument("run", metavar="DIR", help="a run folder written by `nesy eval --out`")
    parser.add_argument("episodes", nargs="*", metavar="EPISODE", help="episode ids (default: the totals over the run)")
    parser.add_argument("--failed", action="store_true", help="totals over the unsuccessful episodes only")
    parser.add_argument("--shortest", type=positive_int, default=1, metavar="N",
                        help="show spans of at least N actions (default 1); shorter ones are counted")
    parser.add_argument("--top", type=positive_int, default=20, metavar="N", help="kinds of step listed in totals")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.evaluation.timeline import read_timelines, render, render_totals

    lines = read_timelines(args.run, args.episodes, failed_only=args.failed and not args.episodes)
    if args.episodes:
        print("\n\n".join(render(line, args.shortest) for line in lines))
    else:
        print(render_totals(lines, args.top))
    return 0
