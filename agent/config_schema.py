"""Typed validation of a merged config tree against a dataclass schema.

``build_dataclass`` constructs the schema (``agent.settings.NesyConfig``) from a
``RawConfig``; ``validate_mapping`` a module's params. An unknown key, a value of the wrong
type or out of its declared range (``in_range``) fails with the source that set it (a file
or the command line), the dotted key and what was expected; a float is never NaN or
infinite. ``type_at`` tells the type a dotted key has, so that an override is parsed by it.
Loading, including and overriding live in ``agent.config``.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import types
import typing
from typing import Any, TypeVar

from contracts.errors import NesyError

T = TypeVar("T")


class ConfigError(NesyError):
    """A config file or override is malformed, misspelt or of the wrong type."""


def in_range(default: Any, low: float | None = None, high: float | None = None) -> Any:
    """A dataclass field with a default and the closed range ``low..high`` it must lie in."""
    return dataclasses.field(default=default, metadata={"range": (low, high)})


@dataclasses.dataclass
class RawConfig:
    """A merged config tree and, for every dotted key, the source that set it last."""

    tree: dict[str, Any]
    sources: dict[str, str]
    fallback: str = "the defaults"  # the source of keys no file or override set

    def source_of(self, dotted: str) -> str:
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            key = ".".join(parts[:end])
            if key in self.sources:
                return self.sources[key]
        return self.fallback


def type_at(schema: type, parts: list[str]) -> Any:
    current: Any = schema
    for part in parts:
        current = _strip_optional(current)
        if not dataclasses.is_dataclass(current):
            return None
        hints = typing.get_type_hints(current)
        if part not in hints:
            return None
        current = hints[part]
    return _strip_optional(current)


def _strip_optional(tp: Any) -> Any:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def build_dataclass(schema: type[T], raw: RawConfig) -> T:
    """Validate ``raw.tree`` against ``schema`` and construct it."""
    return _convert(schema, raw.tree, "", raw)


def validate_mapping(schema: type[T], data: dict[str, Any], where: str, raw: RawConfig | None = None) -> T:
    """Validate a sub-mapping (e.g. a module's params) found at dotted key ``where``."""
    return _convert(schema, data, where, raw or RawConfig({}, {}))


def _fail(raw: RawConfig, dotted: str, message: str) -> typing.NoReturn:
    raise ConfigError(f"{raw.source_of(dotted)}: key {dotted!r}: {message}")


def _type_name(tp: Any) -> str:
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


def _convert(tp: Any, value: Any, dotted: str, raw: RawConfig) -> Any:
    origin = typing.get_origin(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in (a for a in args if a is not type(None)):
            try:
                return _convert(arg, value, dotted, raw)
            except ConfigError as exc:
                errors.append(str(exc))
        if len(errors) == 1:
            raise ConfigError(errors[0])
        _fail(raw, dotted, f"expected {_type_name(tp)}, got {value!r}")
    if origin is typing.Literal:
        choices = typing.get_args(tp)
        if value not in choices:
            _fail(raw, dotted, f"expected one of {', '.join(map(repr, choices))}, got {value!r}")
        return value
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            _fail(raw, dotted, f"expected a mapping of {tp.__name__} fields, got {value!r}")
        hints = typing.get_type_hints(tp)
        fields = {f.name: f for f in dataclasses.fields(tp) if f.init}
        kwargs = {}
        for key, sub in value.items():
            sub_dotted = f"{dotted}.{key}" if dotted else str(key)
            if key not in fields:
                close = difflib.get_close_matches(str(key), list(fields), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                _fail(raw, sub_dotted, f"unknown key{hint}; expected one of: {', '.join(fields)}")
            kwargs[key] = _convert(hints[key], sub, sub_dotted, raw)
            _check_range(fields[key], kwargs[key], sub_dotted, raw)
        missing = [
            name for name, f in fields.items()
            if name not in kwargs and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        if missing:
            _fail(raw, dotted or "(top level)", f"missing required key(s): {', '.join(missing)}")
        return tp(**kwargs)
    if origin in (list, tuple):
        if not isinstance(value, list | tuple):
            _fail(raw, dotted, f"expected a list, got {value!r}")
        (item,) = typing.get_args(tp)[:1] or (Any,)
        return [_convert(item, v, f"{dotted}[{i}]", raw) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            _fail(raw, dotted, f"expected a mapping, got {value!r}")
        _, val_tp = typing.get_args(tp) or (str, Any)
        return {k: _convert(val_tp, v, f"{dotted}.{k}", raw) for k, v in value.items()}
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            if not math.isfinite(value):
                _fail(raw, dotted, f"expected a finite float, got {value!r}")
            return float(value)
        _fail(raw, dotted, f"expected float, got {type(value).__name__} {value!r}")
    if tp in (int, bool, str):
        if isinstance(value, tp) and not (tp is int and isinstance(value, bool)):
            return value
        _fail(raw, dotted, f"expected {tp.__name__}, got {type(value).__name__} {value!r}")
    if isinstance(tp, type) and isinstance(value, tp):
        return value
    _fail(raw, dotted, f"expected {_type_name(tp)}, got {value!r}")


def _check_range(field: dataclasses.Field, value: Any, dotted: str, raw: RawConfig) -> None:
    """The field's declared range (``metadata["range"] = (low, high)``), if any."""
    low, high = field.metadata.get("range", (None, None))
    if value is None or (low is None and high is None):
        return
    if low is not None and high is not None and not low <= value <= high:
        _fail(raw, dotted, f"must be in {low}..{high}, got {value!r}")
    if low is not None and value < low:
        _fail(raw, dotted, f"must be at least {low}, got {value!r}")
    if high is not None and value > high:
        _fail(raw, dotted, f"must be at most {high}, got {value!r}")
