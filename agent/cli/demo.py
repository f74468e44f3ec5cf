"""``nesy demo``: the main job on the embedded default, small enough for a laptop."""

from __future__ import annotations

import argparse

from agent.cli.common import add_config_arguments
from agent.settings import build_configured_modules, load_config

ORDER = 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the main job on the built-in simulator (a few minutes on 2 cores)",
        description="Load the config, build the modules it names and run the main job.",
    )
    add_config_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_config(args.config, args.overrides)
    print(f"config: {loaded.path}")
    modules = build_configured_modules(loaded)
    for where, module in modules.items():
        print(f"built {where}: {type(module).__module__}.{type(module).__qualname__}")
    return 0
