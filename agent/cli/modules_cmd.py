"""``nesy modules``: list the registered modules of every family and where they come from."""

from __future__ import annotations

import argparse

from agent.cli.common import print_json
from contracts.registry import FAMILIES, registry


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "modules",
        help="list registered modules (built-in and from entry points)",
        description="List the modules each registry knows, including third-party modules "
        "found through the entry-point groups nesy.<family>.",
    )
    parser.add_argument("family", nargs="?", choices=FAMILIES, help="only this family")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    families = [args.family] if args.family else list(FAMILIES)
    listing = {family: {name: registry(family).origin(name) for name in registry(family).names()} for family in families}
    if args.json:
        print_json(listing)
        return 0
    for family, modules in listing.items():
        print(f"{family}:")
        if not modules:
            print("  (none registered yet)")
        for name, origin in modules.items():
            print(f"  {name:24s} {origin}")
    return 0
