"""Argument helpers shared by the subcommands (config loading with overrides, checked
numbers and files, JSON output)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from contracts.errors import NesyError


class InputError(NesyError):
    """A command-line argument that names the wrong kind of thing."""


def add_config_arguments(parser: argparse.ArgumentParser, default: str | None = "default") -> None:
    """CONFIG (a path or a shipped config name) and trailing ``key.sub=value`` overrides."""
    parser.add_argument(
        "config",
        nargs="?" if default else None,
        default=default,
        metavar="CONFIG",
        help=f"a YAML config file or the name of a shipped config (default: {default})",
    )
    parser.add_argument(
        "overrides",
        nargs="*",
        metavar="KEY=VALUE",
        help="config overrides, e.g. simulator.width=128 modules.perception.name=oracle-visible",
    )


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1 (``--per-task 0`` is an error, not an
    empty run)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def not_a_folder(path: str, what: str) -> Path:
    """``path``, unless it names a folder where a file is expected (the loaders report a
    missing or unreadable file themselves)."""
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{target} is a folder; expected {what}")
    return target


def print_json(payload: dict[str, Any]) -> None:
    """Every ``--json`` output is one JSON object on the last line of stdout."""
    print(json.dumps(payload, sort_keys=False), flush=True)
