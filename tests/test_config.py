"""Config composition, overrides, validation and their error messages."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from agent.config import ConfigError, load_raw, save_effective_config, shipped_configs
from agent.settings import load_config

ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def test_default_and_shipped_configs_load():
    assert "default" in shipped_configs()
    for name in shipped_configs():
        loaded = load_config(name)
        assert loaded.config.simulator.width > 0


def test_include_merges_base_then_own_keys(tmp_path):
    write(tmp_path / "base.yaml", """
        seed: 3
        simulator: {width: 200, height: 100}
    """)
    write(tmp_path / "ablations" / "small.yaml", """
        include: ../base.yaml
        simulator: {width: 64}
    """)
    cfg = load_config(tmp_path / "ablations" / "small.yaml").config
    assert (cfg.seed, cfg.simulator.width, cfg.simulator.height) == (3, 64, 100)


def test_later_includes_override_earlier_ones(tmp_path):
    write(tmp_path / "a.yaml", "seed: 1\n")
    write(tmp_path / "b.yaml", "seed: 2\n")
    write(tmp_path / "c.yaml", "include: [a.yaml, b.yaml]\n")
    assert load_config(tmp_path / "c.yaml").config.seed == 2


def test_include_cycle_is_detected(tmp_path):
    write(tmp_path / "a.yaml", "include: b.yaml\n")
    write(tmp_path / "b.yaml", "include: a.yaml\n")
    with pytest.raises(ConfigError, match=r"include cycle: .*a.yaml -> .*b.yaml -> .*a.yaml"):
        load_config(tmp_path / "a.yaml")


def test_missing_include_names_the_file_and_the_include(tmp_path):
    cfg = write(tmp_path / "x.yaml", "include: nowhere.yaml\n")
    with pytest.raises(ConfigError) as err:
        load_config(cfg)
    assert str(cfg) in str(err.value)
    assert "include 'nowhere.yaml' not found" in str(err.value)


def test_misspelt_key_names_file_key_and_suggestion(tmp_path):
    write(tmp_path / "base.yaml", "seed: 1\n")
    cfg = write(tmp_path / "bad.yaml", "include: base.yaml\nsimulator: {widht: 3}\n")
    with pytest.raises(ConfigError) as err:
        load_config(cfg)
    message = str(err.value)
    assert message.startswith(str(cfg))
    assert "'simulator.widht'" in message and "did you mean 'width'" in message


def test_wrong_type_names_expected_type(tmp_path):
    cfg = write(tmp_path / "bad.yaml", "simulator: {width: wide}\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: key 'simulator.width': expected int, got str 'wide'"):
        load_config(cfg)
    cfg = write(tmp_path / "bad2.yaml", "simulator: {render: opengl}\n")
    with pytest.raises(ConfigError, match=r"expected one of 'none', 'egl'"):
        load_config(cfg)


def test_error_blames_the_file_that_set_the_key(tmp_path):
    base = write(tmp_path / "base.yaml", "simulator: {height: tall}\n")
    write(tmp_path / "top.yaml", "include: base.yaml\nseed: 1\n")
    with pytest.raises(ConfigError, match=str(base)):
        load_config(tmp_path / "top.yaml")


def test_overrides_are_parsed_by_field_type():
    cfg = load_config("default", ["simulator.width=128", "simulator.field_of_view=60", "seed=7"]).config
    assert cfg.simulator.width == 128 and isinstance(cfg.simulator.width, int)
    assert cfg.simulator.field_of_view == 60.0 and isinstance(cfg.simulator.field_of_view, float)
    assert cfg.seed == 7
    cfg = load_config("default", ["follower.name=123", "follower.params.speed=2.5"]).config
    assert cfg.follower.name == "123"  # a str field keeps the text as written
    assert cfg.follower.params == {"speed": 2.5}


def test_override_errors_name_the_command_line():
    with pytest.raises(ConfigError, match="the command line: key 'simulator.heigth'"):
        load_config("default", ["simulator.heigth=3"])
    with pytest.raises(ConfigError, match="must look like key.sub=value"):
        load_config("default", ["simulator.width"])


def test_unknown_config_name_lists_shipped_configs():
    with pytest.raises(ConfigError, match="shipped configs: .*default"):
        load_config("defualt")


def test_malformed_yaml_is_one_clear_error(tmp_path):
    cfg = write(tmp_path / "broken.yaml", "simulator: [width: 3\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(cfg)
    cfg = write(tmp_path / "list.yaml", "- 1\n- 2\n")
    with pytest.raises(ConfigError, match="must be a YAML mapping"):
        load_config(cfg)


def test_effective_config_round_trips(tmp_path):
    loaded = load_config("default", ["simulator.width=99"])
    saved = save_effective_config(loaded.config, tmp_path / "run")
    assert yaml.safe_load(saved.read_text())["simulator"]["width"] == 99
    assert load_config(saved).config == loaded.config


def test_a_module_swapped_on_the_command_line_or_in_a_file_drops_the_params_given_to_the_old_one():
    """The default gives maskrcnn mask params; oracle-seg takes none, so swapping to it must
    not inherit them; params the command line sets for the new module stay."""
    swapped = load_config("default", ["modules.perception.name=oracle-seg"])
    assert swapped.config.modules.perception.name == "oracle-seg"
    assert swapped.config.modules.perception.params == {}
    assert load_config("ablations/oracle-seg").config.modules.perception.params == {}  # the same through an include
    kept = load_config("default", ["modules.perception.params.threads=1", "modules.perception.name=maskrcnn"])
    assert kept.config.modules.perception.params["edge_radius"] == 0
    mine = load_config("default", ["modules.planner.params.replan=false", "modules.planner.name=pddl"])
    assert mine.config.modules.planner.params == {"replan": False}


def test_a_module_named_anew_with_params_of_its_own_gets_only_those(tmp_path):
    """A file that includes the default and names another detector with its own params (the
    README's example) got the default's maskrcnn params merged into them, and the config
    failed on them; so did the command line when the new params came before the new name."""
    ablation = tmp_path / "mine.yaml"
    ablation.write_text(f"include: {ROOT / 'configs' / 'default.yaml'}\n"
                        "modules:\n  planner: {name: oracle-planner, params: {}}\n"
                        "  mapper: {name: oracle-map, params: {}}\n")
    raw = load_raw(ablation)
    assert raw.tree["modules"]["planner"]["params"] == {}
    assert not any(k.startswith("modules.planner.params.") for k in raw.sources)
    swapped = load_raw(ROOT / "configs" / "default.yaml",
                       ["modules.perception.params.threshold=0.7", "modules.perception.name=my-detector"])
    assert swapped.tree["modules"]["perception"]["params"] == {"threshold": 0.7}  # the command line's stay
