"""Hardening of config loading (issue 11): a small YAML alias bomb is refused at once,
values out of range are refused where the schema declares them, and bad config input is
one clear line that blames the right source (never "internal error")."""

from __future__ import annotations

import time

import pytest

from agent.cli import main
from agent.config import ConfigError
from agent.settings import load_config


def one_line_error(capsys, command: str) -> str:
    """The stderr of a failed command: exactly one line, a user error, not an internal one."""
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"nesy {command}: error:"), err[0]
    return err[0]


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A few hundred bytes of nested aliases that expand to width**levels values."""
    lines = ["l0: &l0 {" + ", ".join(f"k{i}: lol" for i in range(width)) + "}"]
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} {{" + ", ".join(f"k{i}: *l{n - 1}" for i in range(width)) + "}")
    lines.append(f"modules: {{parser: {{name: trained, params: *l{levels - 1}}}}}")
    return "\n".join(lines) + "\n"


def test_a_yaml_alias_bomb_is_refused_in_well_under_a_second(tmp_path, capsys):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(alias_bomb())
    assert bomb.stat().st_size < 1000  # the probe: 871 bytes took 38 s and 2.8 GB
    started = time.perf_counter()
    with pytest.raises(ConfigError, match="aliases"):
        load_config(bomb)
    assert time.perf_counter() - started < 0.5
    assert main(["config", str(bomb)]) == 2
    assert "bomb.yaml" in one_line_error(capsys, "config")
    # the same bomb in a command-line override
    started = time.perf_counter()
    inline = "{" + alias_bomb().replace("\n", ", ").rstrip(", ") + "}"
    assert main(["config", "default", f"modules.parser.params={inline}"]) == 2
    assert "aliases" in one_line_error(capsys, "config")
    assert time.perf_counter() - started < 0.5


def test_recursive_and_modest_aliases(tmp_path):
    recursive = tmp_path / "recursive.yaml"
    recursive.write_text("modules:\n  parser: &p {name: trained, params: {again: *p}}\n")
    with pytest.raises(ConfigError, match="recursive"):
        load_config(recursive)
    modest = tmp_path / "modest.yaml"  # an alias that reuses a small mapping is fine
    modest.write_text("follower: {name: modular, params: &none {}}\n"
                      "commander: {name: teach-lowlevel, params: *none}\n")
    assert load_config(modest).config.commander.params == {}


@pytest.mark.parametrize("override, expected", [
    ("simulator.width=-5", "64..900"),
    ("simulator.width=100000", "64..900"),
    ("simulator.height=10", "64..900"),
    ("simulator.field_of_view=.nan", "finite"),
    ("simulator.field_of_view=200", "1.0..179.0"),
    ("simulator.interaction_distance=-1", "0.1..10.0"),
    ("evaluation.max_steps=-1", "at least 1"),
    ("evaluation.max_failed_actions=0", "at least 1"),
])
def test_values_out_of_range_are_refused(override, expected, capsys):
    key = override.split("=")[0]
    with pytest.raises(ConfigError, match=f"the command line: key '{key}': .*{expected}"):
        load_config("default", [override])
    assert main(["config", "default", override]) == 2
    assert key in one_line_error(capsys, "config")


def test_ranges_are_checked_in_files_too_and_limits_keep_their_meaning(tmp_path):
    from agent.evaluation.workers import limits_for

    bad = tmp_path / "bad.yaml"
    bad.write_text("simulator: {width: 5}\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: key 'simulator.width': must be in 64..900, got 5"):
        load_config(bad)
    config = load_config("default", ["evaluation.max_steps=5", "evaluation.max_failed_actions=1"]).config
    assert limits_for(config, "tatc") == (5, 1)
    assert limits_for(load_config("default").config, "tatc") == (1000, 30)


def test_per_task_and_episodes_must_be_positive(tmp_path, capsys):
    for option in ("--per-task", "--episodes", "--workers"):
        out = tmp_path / option.strip("-")
        args = ["eval", "teach-baseline", "--suite", "tatc", "--split", "valid_unseen", "--out", str(out),
                option, "0"]
        with pytest.raises(SystemExit) as exit_info:  # argparse: usage + one error line
            main(args)
        assert exit_info.value.code == 2
        assert f"{option}: must be at least 1, got 0" in capsys.readouterr().err
        assert not out.exists()


def test_a_non_utf8_config_is_one_line(tmp_path, capsys):
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("seed: 1\nfollower: {name: caf\u00e9}\n".encode("latin-1"))
    assert main(["config", str(bad)]) == 2
    line = one_line_error(capsys, "config")
    assert "latin1.yaml" in line and "UTF-8" in line


def test_an_override_of_a_key_that_does_not_exist_blames_the_command_line(capsys):
    with pytest.raises(ConfigError, match=r"^the command line: key 'foo': unknown key"):
        load_config("default", ["foo.bar=3"])
    with pytest.raises(ConfigError, match=r"^the command line: key 'evaluation.nope': unknown key"):
        load_config("default", ["evaluation.nope.deeper=3"])
    assert main(["config", "default", "foo.bar=3"]) == 2
    assert "the command line" in one_line_error(capsys, "config")


def test_a_bad_param_set_in_a_file_blames_that_file(tmp_path, capsys):
    cfg = tmp_path / "params.yaml"
    cfg.write_text("include: " + str(load_config("default").path) + "\n"
                   "modules:\n  mapper: {name: oracle-map, params: {cell: 1}}\n")
    out = tmp_path / "run"
    assert main(["eval", str(cfg), "--suite", "tatc", "--split", "valid_unseen", "--episodes", "1",
                 "--out", str(out)]) == 2
    line = one_line_error(capsys, "eval")
    assert "params.yaml: key 'modules.mapper.params'" in line and "takes no parameters" in line
    assert "the defaults" not in line
