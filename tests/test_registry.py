"""The module registries: registration, lookup errors, entry-point discovery."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import pytest

from agent.config import ConfigError
from agent.settings import ModuleConfig, build_module
from contracts.mapping import Mapper
from contracts.perception import Perception
from contracts.planning import Planner
from contracts.registry import (
    FAMILIES,
    FAMILY_BASES,
    ModuleContractError,
    Registry,
    UnknownModuleError,
    register,
    registry,
)


def test_every_family_has_a_registry_with_its_entry_point_group():
    for family in FAMILIES:
        assert registry(family).entry_point_group == f"nesy.{family}"


def test_register_and_build():
    reg = Registry("perception")

    @reg.register("edge-detector")
    class EdgeDetector:
        pass

    assert reg.get("edge-detector") is EdgeDetector
    assert isinstance(reg.build("edge-detector"), EdgeDetector)
    assert "edge-detector" in reg
    assert EdgeDetector.registered_name == "edge-detector"


def test_unknown_name_lists_registered_names():
    reg = Registry("planner")
    reg.register("pddl")(type("Pddl", (), {}))
    reg.register("greedy")(type("Greedy", (), {}))
    with pytest.raises(UnknownModuleError) as err:
        reg.get("pdl")
    message = str(err.value)
    assert "unknown planner module 'pdl'" in message
    assert "greedy, pddl" in message
    assert "nesy.planner" in message


def test_name_clash_between_different_classes_is_refused():
    reg = Registry("mapper")
    reg.register("grid")(type("GridA", (), {}))
    with pytest.raises(ValueError, match="taken by"):
        reg.register("grid")(type("GridB", (), {}))


def test_unknown_family_is_a_clear_error():
    with pytest.raises(UnknownModuleError, match="unknown module family 'perceptoin'"):
        registry("perceptoin")
    with pytest.raises(UnknownModuleError):
        register("nope", "x")


@pytest.fixture
def plugin_on_path(tmp_path, monkeypatch):
    """A tiny installed package that contributes a perception module by entry point."""
    package = tmp_path / "nesy_test_plugin"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent('''
        from dataclasses import dataclass

        from contracts.perception import Perception

        class CountingDetector(Perception):
            @dataclass
            class Params:
                threshold: float = 0.5

            def __init__(self, params):
                self.params = params

            def detect(self, observation):
                return []

        class WrongDetector:  # detect() without the observation: breaks the contract
            def reset(self, context):
                pass

            def detect(self):
                return []
    '''))
    dist = tmp_path / "nesy_test_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: nesy-test-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[nesy.perception]\ncounting-detector = nesy_test_plugin:CountingDetector\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "counting-detector"


def test_entry_point_module_is_discovered_and_built(plugin_on_path):
    reg = Registry("perception")
    assert plugin_on_path in reg.names()
    assert "(entry point)" in reg.origin(plugin_on_path)
    registry("perception").refresh()  # the shared registry may have been discovered already
    module = build_module("perception", ModuleConfig(plugin_on_path, {"threshold": 0.8}))
    assert module.params.threshold == 0.8
    registry("perception").refresh()


def test_a_plugin_with_a_wrong_signature_fails_at_discovery_naming_the_method(plugin_on_path, tmp_path):
    entry_points = tmp_path / "nesy_test_plugin-0.1.dist-info" / "entry_points.txt"
    entry_points.write_text("[nesy.perception]\nwrong-detector = nesy_test_plugin:WrongDetector\n")
    with pytest.raises(ModuleContractError, match=r"'wrong-detector'.*detect\(self\) does not match .*"
                                                  r"detect\(self, observation"):
        Registry("perception", base=Perception).names()


def test_registration_checks_the_family_base():
    reg = Registry("planner", base=Planner)
    with pytest.raises(ModuleContractError, match="has no method skill"):
        @reg.register("half-planner")
        class HalfPlanner:
            def reset(self, context):
                pass

            def plan(self, goal, belief, failure=None):
                return None

    with pytest.raises(ModuleContractError, match="does not implement plan"):
        @reg.register("abstract-planner")
        class AbstractPlanner(Planner):
            def skill(self, step, belief, navigator):
                return None

    @reg.register("structural-planner")  # no subclassing needed: the methods are what counts
    class StructuralPlanner:
        def reset(self, context):
            pass

        def plan(self, goal, belief, *rest):
            return None

        def skill(self, step, belief, navigator):
            return None

    assert reg.get("structural-planner") is StructuralPlanner
    for family in FAMILIES:
        assert registry(family).base is FAMILY_BASES[family]


def test_module_params_are_validated_against_its_params_dataclass():
    reg = registry("mapper")

    @reg.register("test-grid-map")
    class GridMap(Mapper):
        @dataclass
        class Params:
            cell_size: float = 0.25

        def __init__(self, params):
            self.params = params

        def update(self, observation, detections, outcome=None, hints=()):
            return None

        def navigator(self):
            return None

    assert build_module("mapper", ModuleConfig("test-grid-map", {"cell_size": 0.05})).params.cell_size == 0.05
    with pytest.raises(ConfigError, match=r"mapper.params.cel_size': unknown key \(did you mean 'cell_size'"):
        build_module("mapper", ModuleConfig("test-grid-map", {"cel_size": 0.05}))
    with pytest.raises(UnknownModuleError, match="test-grid-map"):
        build_module("mapper", ModuleConfig("test-grid-mop"))
