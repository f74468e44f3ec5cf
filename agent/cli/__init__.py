"""The ``nesy`` command line: one subcommand per job, errors as one readable line.

Each subcommand lives in its own module under ``agent/cli/`` and exposes
``add_parser(subparsers)``, which registers its arguments and sets ``handler`` to a
function ``(args) -> int``. Only subcommands whose modules are built are listed.
``--debug`` shows the traceback of an error instead of the one-line message.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from collections.abc import Sequence

from agent.errors import NesyError

# Subcommand modules, in the order `nesy --help` lists them.
SUBCOMMANDS = ("demo", "config_cmd", "modules_cmd")


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
    for name in SUBCOMMANDS:
        importlib.import_module(f"agent.cli.{name}").add_parser(subparsers)
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
