"""The `nesy` CLI: help lists working commands, errors are one line, --debug shows tracebacks."""

from __future__ import annotations

import subprocess
import sys

import pytest

from agent.cli import build_parser, main, subcommand_modules


def listed_commands() -> list[str]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return list(action.choices)


def test_help_lists_every_subcommand_and_each_has_help(capsys):
    commands = listed_commands()
    # a module may add several commands (e.g. parse, parse-eval); each module adds at least one
    assert len(commands) >= len(subcommand_modules()) and commands[0] == "demo"
    for command in commands:
        with pytest.raises(SystemExit) as exit_info:
            main([command, "--help"])
        assert exit_info.value.code == 0
        assert f"usage: nesy {command}" in capsys.readouterr().out


def test_error_is_one_line_and_non_zero(capsys):
    assert main(["config", "default", "simulator.widht=3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("nesy config: error:") and "widht" in err[0]


def test_debug_shows_traceback(capsys):
    assert main(["--debug", "config", "nonexistent-config"]) == 2
    assert "Traceback" in capsys.readouterr().err


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "agent.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "commands" in out.stdout
