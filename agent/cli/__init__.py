"""The ``nesy`` command line: one subcommand per job, errors as one readable line.

Each subcommand lives in its own module under ``agent/cli/`` and exposes
``add_parser(subparsers)``, which registers its arguments and sets ``handler`` to a
function ``(args) -> int``; the modules are found by scanning this package, so adding a
command is adding a file. Help lists them by ``ORDER`` (a module constant, default 50).
``--debug`` shows the traceback of an error instead of the one-line message.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import traceback
from collections.abc import Sequence

from contracts.errors import NesyError


def subcommand_modules() -> list:
    """The modules of ``agent.cli`` that define a subcommand, in help order."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name == "common":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "add_parser"):
            found.append(module)
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 50), m.__name__))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nesy",
        description=(
            "nesy: a modular neuro-symbolic agent framework for embodied household tasks, "
            "with a built-in THOR-compatible simulator."
        ),
        epilog="Run 'nesy COMMAND --help' for a command's options.",
    )
    parser.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in subcommand_modules():
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except NesyError as exc:
        if args.debug:
            traceback.print_exc()
        print(f"nesy {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"nesy {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # an internal bug: still one line unless --debug
        if args.debug:
            traceback.print_exc()
        else:
            print(
                f"nesy {args.command}: internal error: {type(exc).__name__}: {exc} "
                "(run with --debug for the traceback, and please report it)",
                file=sys.stderr,
            )
        return 1


if __name__ == "__main__":
    sys.exit(main())
