"""Module registries: one per module family, filled by ``@register`` and by entry points.

A family (``perception``, ``mapper``, ``planner``, ``parser``, ``dialogue_manager``,
``commander``, ``follower``) maps names used in configs to classes. Each family has one
documented base (``FAMILY_BASES``: ``contracts.perception.Perception`` and so on);
registration checks a class against it (every method the base requires, with a signature
that accepts the base's arguments), so a module with a wrong signature fails when it is
registered or discovered, with a message that names the method and the contract. Built-in modules
register themselves when their package is imported; third-party packages contribute
modules through the entry-point group ``nesy.<family>`` (the entry point's name is the
module name, its value the class, e.g. ``my-detector = my_pkg.detect:MyDetector``).

    from contracts.registry import perception

    @perception.register("my-detector")
    class MyDetector: ...

    cls = perception.get("my-detector")

It imports only other contract modules, so any package may use it.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any

from contracts.agents import Commander, Follower
from contracts.dialogue import DialogueManager
from contracts.errors import NesyError
from contracts.language import Parser
from contracts.mapping import Mapper
from contracts.perception import Perception
from contracts.planning import Planner

FAMILIES = ("perception", "mapper", "planner", "parser", "dialogue_manager", "commander", "follower")


FAMILY_BASES: dict[str, type] = {
    "perception": Perception, "mapper": Mapper, "planner": Planner, "parser": Parser,
    "dialogue_manager": DialogueManager, "commander": Commander, "follower": Follower,
}


class UnknownModuleError(NesyError):
    """A config or command named a module that no registry knows."""


class ModuleContractError(NesyError):
    """A registered class does not implement its family's base."""


def check_contract(family: str, cls: Any, base: type) -> None:
    """Raise ``ModuleContractError`` unless ``cls`` has every method ``base`` requires (its
    abstract methods and ``reset``), each accepting the arguments the base's caller passes."""
    where = f"{base.__module__}.{base.__qualname__}"
    if not isinstance(cls, type):
        raise ModuleContractError(f"{family} modules must be classes implementing {where}, got {cls!r}")
    required = sorted(set(getattr(base, "__abstractmethods__", ())) | ({"reset"} if hasattr(base, "reset") else set()))
    for name in required:
        contract = inspect.signature(getattr(base, name))
        method = getattr(cls, name, None)
        if not callable(method):
            raise ModuleContractError(
                f"{family} module {_qualname(cls)} has no method {name}{contract}; the {family} "
                f"contract ({where}) requires it")
        if getattr(method, "__isabstractmethod__", False):
            raise ModuleContractError(
                f"{family} module {_qualname(cls)} does not implement {name}{contract} ({where})")
        try:
            signature = inspect.signature(method)
        except (TypeError, ValueError):  # a builtin or C callable: cannot check
            continue
        arguments = [object()] * len(contract.parameters)  # self + everything the caller may pass
        try:
            signature.bind(*arguments)
        except TypeError:
            raise ModuleContractError(
                f"{family} module {_qualname(cls)}: {name}{signature} does not match the {family} "
                f"contract {name}{contract} ({where})") from None


class Registry:
    """Names -> classes for one module family."""

    def __init__(self, family: str, builtin_packages: Iterable[str] = (), base: type | None = None) -> None:
        self.family = family
        self.base = base
        self.entry_point_group = f"nesy.{family}"
        self._builtin_packages = tuple(builtin_packages)
        self._modules: dict[str, type] = {}
        self._origins: dict[str, str] = {}
        self._discovered = False

    def register(self, name: str) -> Callable[[type], type]:
        """Class decorator: make ``cls`` available under ``name``."""
        if not name or not isinstance(name, str):
            raise ValueError(f"{self.family} module name must be a non-empty string, got {name!r}")

        def decorate(cls: type) -> type:
            if self.base is not None:
                check_contract(self.family, cls, self.base)
            known = self._modules.get(name)
            if known is not None and known is not cls and _qualname(known) != _qualname(cls):
                raise ValueError(
                    f"{self.family} module name {name!r} is taken by {_qualname(known)}; "
                    f"cannot also register {_qualname(cls)}"
                )
            self._modules[name] = cls
            self._origins[name] = _qualname(cls)
            cls.registered_name = name  # type: ignore[attr-defined]
            return cls

        return decorate

    def discover(self) -> None:
        """Import built-in packages and load the family's entry points (once)."""
        if self._discovered:
            return
        self._discovered = True
        for package in self._builtin_packages:
            if _module_exists(package):
                importlib.import_module(package)
        for entry_point in metadata.entry_points(group=self.entry_point_group):
            if entry_point.name in self._modules:
                continue
            try:
                cls = entry_point.load()
            except Exception as exc:  # a broken plugin must not hide the others
                raise UnknownModuleError(
                    f"entry point {entry_point.name!r} in group {self.entry_point_group!r} "
                    f"({entry_point.value}) failed to load: {exc}"
                ) from exc
            try:
                self.register(entry_point.name)(cls)
            except ModuleContractError as exc:
                raise ModuleContractError(
                    f"entry point {entry_point.name!r} in group {self.entry_point_group!r}: {exc}") from None
            self._origins[entry_point.name] = f"{entry_point.value} (entry point)"

    def refresh(self) -> None:
        """Forget that discovery ran, so newly installed entry points are found."""
        self._discovered = False

    def names(self) -> list[str]:
        self.discover()
        return sorted(self._modules)

    def origin(self, name: str) -> str:
        self.get(name)
        return self._origins[name]

    def get(self, name: str) -> type:
        if name not in self._modules:
            self.discover()
        try:
            return self._modules[name]
        except KeyError:
            known = ", ".join(sorted(self._modules)) or "(none)"
            raise UnknownModuleError(
                f"unknown {self.family} module {name!r}; registered {self.family} modules: "
                f"{known}. Third-party modules register through the entry-point group "
                f"{self.entry_point_group!r}."
            ) from None

    def build(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self.get(name)(*args, **kwargs)

    def __contains__(self, name: object) -> bool:
        self.discover()
        return name in self._modules


def _module_exists(dotted: str) -> bool:
    """True if ``dotted`` can be imported (a missing parent package counts as missing)."""
    try:
        return importlib.util.find_spec(dotted) is not None
    except ModuleNotFoundError:
        return False


def _qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


# Where each family's built-in modules live: each ``builtin`` module imports its package's
# registered modules (and so registers them). Imported lazily, on the first lookup.
_BUILTIN_PACKAGES: dict[str, tuple[str, ...]] = {
    "perception": ("perception.builtin",),
    "mapper": ("mapping.builtin",),
    "planner": ("planner.builtin",),
    "parser": ("dialogue.builtin",),
    "dialogue_manager": ("dialogue.builtin",),
    "commander": ("agent.commanders.builtin",),
    "follower": ("agent.followers.builtin",),
}

REGISTRIES: dict[str, Registry] = {
    family: Registry(family, _BUILTIN_PACKAGES[family], FAMILY_BASES[family]) for family in FAMILIES
}

perception = REGISTRIES["perception"]
mapper = REGISTRIES["mapper"]
planner = REGISTRIES["planner"]
parser = REGISTRIES["parser"]
dialogue_manager = REGISTRIES["dialogue_manager"]
commander = REGISTRIES["commander"]
follower = REGISTRIES["follower"]


def registry(family: str) -> Registry:
    """The registry of ``family``, with a readable error for an unknown family."""
    try:
        return REGISTRIES[family]
    except KeyError:
        raise UnknownModuleError(
            f"unknown module family {family!r}; families: {', '.join(FAMILIES)}"
        ) from None


def register(family: str, name: str) -> Callable[[type], type]:
    """``@register("perception", "my-detector")``: the same as ``perception.register``."""
    return registry(family).register(name)
