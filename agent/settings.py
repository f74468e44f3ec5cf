"""The typed schema of a nesy config, and building the modules a config names.

Every YAML config is validated against ``NesyConfig``; a module's own ``params`` are
validated against the ``Params`` dataclass that the module class declares (a module
without ``Params`` takes no parameters). A field with a range declares it here, once
(``in_range(default, low, high)``; a module's ``Params`` may do the same with
``field(metadata={"range": (low, high)})``). See ``configs/default.yaml`` for the
commented default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from agent import config as config_io
from agent.config_schema import build_dataclass, in_range, validate_mapping
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
    width: int = in_range(300, 64, 900)  # pixels, the renderer's limits
    height: int = in_range(300, 64, 900)
    field_of_view: float = in_range(90.0, 1.0, 179.0)  # degrees, as AI2-THOR's (0, 180)
    interaction_distance: float = in_range(1.5, 0.1, 10.0)  # metres
    occlusion: bool = False  # symbolic visibility also tests occlusion by what is drawn


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

    max_steps: int | None = in_range(None, 1)
    max_failed_actions: int | None = in_range(None, 1)
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
    return LoadedConfig(build_dataclass(NesyConfig, raw), raw, path)


def module_params(
    family: str, spec: ModuleConfig, raw: config_io.RawConfig | None = None, where: str = ""
) -> tuple[type, Any]:
    """The registered ``family`` class that ``spec`` names and its validated params (None for
    a module without ``Params``); checks a config without building anything."""
    cls = registry(family).get(spec.name)
    params_cls = getattr(cls, "Params", None)
    where = where or family
    if params_cls is None:
        if spec.params:
            raise config_io.ConfigError(
                f"{raw.source_of(where + '.params') if raw else 'config'}: key '{where}.params': "
                f"{family} module {spec.name!r} takes no parameters, got {sorted(spec.params)}"
            )
        return cls, None
    return cls, validate_mapping(params_cls, spec.params, f"{where}.params", raw)


def build_module(
    family: str, spec: ModuleConfig, raw: config_io.RawConfig | None = None, where: str = "", **extra: Any
) -> Any:
    """Instantiate the registered ``family`` module that ``spec`` names, with its params
    (and any ``extra`` keyword arguments, e.g. a Follower's modules)."""
    cls, params = module_params(family, spec, raw, where)
    return cls(**extra) if params is None else cls(params, **extra)
