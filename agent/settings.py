"""The typed schema of a nesy config, and building the modules a config names.

Every YAML config is validated against ``NesyConfig``; a module's own ``params`` are
validated against the ``Params`` dataclass that the module class declares (a module
without ``Params`` takes no parameters). See ``configs/default.yaml`` for the commented
default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from agent import config as config_io
from contracts.registry import registry


@dataclass
class ModuleConfig:
    """A registered module by name, with its parameters."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class SimulatorConfig:
    """Settings of the built-in THOR-compatible simulator."""

    render: Literal["none", "egl"] = "none"
    width: int = 300
    height: int = 300
    field_of_view: float = 90.0
    interaction_distance: float = 1.5


@dataclass
class ModulesConfig:
    """The Follower pipeline's modules; ``null`` means the pipeline does without it."""

    parser: ModuleConfig | None = None
    perception: ModuleConfig | None = None
    mapper: ModuleConfig | None = None
    planner: ModuleConfig | None = None
    dialogue_manager: ModuleConfig | None = None


@dataclass
class EvaluationConfig:
    """How episodes are run: limits (null: the suite's, TEACh 1000/30, ALFRED 1000/10)."""

    max_steps: int | None = None
    max_failed_actions: int | None = None
    step_instructions: bool = False  # ALFRED: also give the Follower the step instructions
    alfred_data: str | None = None  # ALFRED trajectories file for the alfred suite


@dataclass
class NesyConfig:
    """A whole run: seed, simulator, the Follower (and its modules) and the Commander."""

    seed: int = 0
    simulator: SimulatorConfig = field(default_factory=SimulatorConfig)
    follower: ModuleConfig | None = None
    commander: ModuleConfig | None = None
    modules: ModulesConfig = field(default_factory=ModulesConfig)
    evaluation: EvaluationConfig = field(default_factory=EvaluationConfig)


@dataclass
class LoadedConfig:
    """A validated config plus where each of its keys came from."""

    config: NesyConfig
    raw: config_io.RawConfig
    path: Path


def load_config(name_or_path: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> LoadedConfig:
    """Load, compose, override and validate a config (by path or shipped name)."""
    path = config_io.resolve_config_path(name_or_path)
    raw = config_io.load_raw(path, overrides, NesyConfig)
    return LoadedConfig(config_io.build_dataclass(NesyConfig, raw), raw, path)


def build_module(
    family: str, spec: ModuleConfig, raw: config_io.RawConfig | None = None, where: str = "", **extra: Any
) -> Any:
    """Instantiate the registered ``family`` module that ``spec`` names, with its params
    (and any ``extra`` keyword arguments, e.g. a Follower's modules)."""
    cls = registry(family).get(spec.name)
    params_cls = getattr(cls, "Params", None)
    where = where or family
    if params_cls is None:
        if spec.params:
            raise config_io.ConfigError(
                f"{raw.source_of(where + '.params') if raw else 'config'}: key '{where}.params': "
                f"{family} module {spec.name!r} takes no parameters, got {sorted(spec.params)}"
            )
        return cls(**extra)
    params = config_io.validate_mapping(params_cls, spec.params, f"{where}.params", raw)
    return cls(params, **extra)
