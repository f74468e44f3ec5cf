"""``nesy demo``: the main job on the embedded default, small enough for a laptop."""

from __future__ import annotations

import argparse

from agent.cli.common import add_config_arguments
from agent.settings import load_config

ORDER = 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the main job on the built-in simulator (seconds on 2 cores)",
        description="Load the config, build the modules it names, then run the demo job: an "
        "oracle expert rearranges objects in one floor plan of each room type. Writes the "
        "effective config and one JSON line per floor plan into --out.",
    )
    add_config_arguments(parser)
    parser.add_argument("--out", default="runs/demo", help="results folder (default runs/demo)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.demo import ORACLES, run_demo

    loaded = load_config(args.config, args.overrides)
    print(f"config: {loaded.path}")
    from agent.pairing import build_agents

    agents = build_agents(loaded)
    print(f"built follower {type(agents.follower).__qualname__}, commander {type(agents.commander).__qualname__}")
    rows = run_demo(loaded.config, args.out)
    print(f"oracles in use: {', '.join(ORACLES)}")
    print(f"| {'floor plan':12s} | moves done | steps | failed actions | steps/s |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r.scene:12s} | {r.moves_done}/{r.moves_tried} | {r.steps} | {r.failed_actions} | {r.steps_per_second:.0f} |")
    print(f"results: {args.out}/results.jsonl, effective config: {args.out}/config.yaml")
    return 0
