"""``nesy config``: print the effective config (after includes and overrides), or list configs."""

from __future__ import annotations

import argparse

from agent import config as config_io
from agent.cli.common import add_config_arguments
from agent.settings import load_config


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "config",
        help="show the effective config after includes and overrides",
        description="Load CONFIG with its includes and KEY=VALUE overrides, validate it, "
        "and print the effective YAML (what is saved beside every result).",
    )
    add_config_arguments(parser)
    parser.add_argument("--list", action="store_true", help="list the shipped configs and exit")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.list:
        print("\n".join(config_io.shipped_configs()))
        return 0
    loaded = load_config(args.config, args.overrides)
    print(f"# {loaded.path}")
    print(config_io.to_yaml(loaded.config), end="")
    return 0
