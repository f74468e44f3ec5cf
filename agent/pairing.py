"""Building the agents a config names: the Follower (with its modules) and the Commander.

A Follower class that declares ``MODULE_FAMILIES`` (e.g. the modular Follower) receives
the configured modules of those families as ``modules={family: instance}``. The oracles in
use are every configured module whose name starts with ``oracle`` and the Commander
(rule-based Commanders read Progress Check and SearchObject, i.e. ground truth); they are
listed in every result.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

from agent.config import ConfigError
from agent.runner import Agents
from agent.settings import LoadedConfig, ModulesConfig, build_module
from contracts.registry import registry


def oracles_in_use(loaded: LoadedConfig) -> list[str]:
    config = loaded.config
    names = []
    if config.commander is not None:
        names.append(f"commander:{config.commander.name}")
    if config.follower is not None and config.follower.name.startswith("oracle"):
        names.append(f"follower:{config.follower.name}")
    follower_cls = registry("follower").get(config.follower.name) if config.follower else None
    for family in getattr(follower_cls, "MODULE_FAMILIES", ()):
        spec = getattr(config.modules, family)
        if spec is not None and spec.name.startswith("oracle"):
            names.append(f"{family}:{spec.name}")
    return names


def build_agents(loaded: LoadedConfig, with_commander: bool = True) -> Agents:
    """The Follower and Commander of a config (clear errors if they are not configured)."""
    config = loaded.config
    if config.follower is None:
        raise ConfigError(f"{loaded.path}: no follower configured; set follower.name (see `nesy modules follower`)")
    follower_cls = registry("follower").get(config.follower.name)
    families = getattr(follower_cls, "MODULE_FAMILIES", ())
    extra: dict[str, Any] = {}
    if families:
        modules = {}
        for family in families:
            spec = getattr(config.modules, family)
            if spec is None:
                known = [f.name for f in dataclasses.fields(ModulesConfig)]
                raise ConfigError(
                    f"{loaded.path}: follower {config.follower.name!r} needs modules.{family} "
                    f"(families: {', '.join(known)})"
                )
            modules[family] = build_module(family, spec, loaded.raw, f"modules.{family}")
        extra["modules"] = modules
    if extra and "modules" not in inspect.signature(follower_cls).parameters:
        raise TypeError(f"{follower_cls.__name__} declares MODULE_FAMILIES but takes no 'modules' argument")
    follower = build_module("follower", config.follower, loaded.raw, "follower", **extra)
    commander = None
    if with_commander and config.commander is not None:
        commander = build_module("commander", config.commander, loaded.raw, "commander")
    return Agents(follower, commander, oracles_in_use(loaded))
