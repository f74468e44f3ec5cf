"""Config loading: YAML composed by inclusion and ``a.b=value`` overrides.

A config file is a YAML mapping. Its optional ``include`` key (a path or a list of paths,
relative to the including file) names base files; they are merged in order, then the
file's own keys on top (mappings merge key by key, anything else replaces). Include
cycles and missing files are reported with the chain of files involved.

The merged tree (``RawConfig``: the values and, per dotted key, the source that set it) is
validated against a dataclass schema by ``agent.config_schema``. CLI overrides
(``simulator.width=128``) are parsed by the type of the field they set, and are reported as
coming from "the command line"; a module named anew (``modules.perception.name=...``, or in
a file that includes another) does not inherit the params given to the module it replaces.

YAML is read with ``safe_yaml``: aliases may not expand the document by more than
``MAX_ALIAS_EXPANSION`` values (a few hundred bytes of nested aliases can otherwise expand
to gigabytes) and may not refer to themselves.
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any

import yaml

from agent.config_schema import ConfigError, RawConfig, type_at

COMMAND_LINE = "the command line"
CONFIG_DIR = Path(__file__).resolve().parent.parent / "configs"
MAX_ALIAS_EXPANSION = 10_000  # values that aliases may add to a YAML document


def safe_yaml(text: str, where: str) -> Any:
    """``yaml.safe_load`` that refuses alias bombs and recursive aliases (``where`` names
    the text in errors); ``yaml.YAMLError`` for malformed YAML."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_aliases(node, where)
        return loader.construct_document(node)
    except RecursionError:
        raise ConfigError(f"{where}: YAML nested too deeply") from None
    finally:
        loader.dispose()


def _check_aliases(root: yaml.Node, where: str) -> None:
    """Count the values the document has with every alias expanded (shared nodes counted
    once per use), without expanding anything; refuse cycles and big expansions."""
    sizes: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            active.discard(key)
            sizes[key] = 1 + sum(sizes[id(c)] for c in children)
            continue
        if key in sizes:
            continue
        active.add(key)  # the nodes on the path from the root to here
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
        for child in children:
            if id(child) in active:
                raise ConfigError(f"{where}: a recursive YAML alias (an anchor used inside itself)")
    expanded = sizes[id(root)] - len(sizes)
    if expanded > MAX_ALIAS_EXPANSION:
        raise ConfigError(
            f"{where}: YAML aliases expand to {expanded:,} more values (at most "
            f"{MAX_ALIAS_EXPANSION:,}); write the values out or use fewer nested aliases"
        )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def shipped_configs() -> list[str]:
    """Names of the configs shipped with the package (``default``, ``ablations/...``)."""
    return sorted(
        str(p.relative_to(CONFIG_DIR).with_suffix("")) for p in CONFIG_DIR.rglob("*.yaml")
    )


def resolve_config_path(name_or_path: str | Path) -> Path:
    """A path to a YAML file, or the name of a shipped config (``default``)."""
    path = Path(name_or_path)
    if path.is_file():
        return path.resolve()
    shipped = CONFIG_DIR / f"{name_or_path}.yaml"
    if shipped.is_file():
        return shipped
    if (CONFIG_DIR / path).is_file():
        return (CONFIG_DIR / path).resolve()
    raise ConfigError(
        f"config {str(name_or_path)!r} not found: give a path to a YAML file or one of the "
        f"shipped configs: {', '.join(shipped_configs())}"
    )


def load_raw(path: str | Path, overrides: typing.Sequence[str] = (), schema: type | None = None) -> RawConfig:
    """Read and merge a config file with its includes, then apply overrides."""
    tree, sources = _load_file(resolve_config_path(path), ())
    raw = RawConfig(tree, sources)
    for override in overrides:
        apply_override(raw, override, schema)
    return raw


def _load_file(path: Path, chain: tuple[Path, ...]) -> tuple[dict[str, Any], dict[str, str]]:
    if path in chain:
        cycle = " -> ".join(str(p) for p in (*chain, path))
        raise ConfigError(f"include cycle: {cycle}; remove one of these includes")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "save the config as UTF-8"
        ) from None
    try:
        data = safe_yaml(text, str(path))
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}".replace("\n", " ")) from None
    data = {} if data is None else data
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a config must be a YAML mapping, got {type(data).__name__}")
    includes = data.pop("include", []) or []
    if isinstance(includes, str):
        includes = [includes]
    if not isinstance(includes, list) or not all(isinstance(i, str) for i in includes):
        raise ConfigError(f"{path}: 'include' must be a file name or a list of file names")
    tree: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for include in includes:
        target = (path.parent / include).resolve()
        if not target.is_file():
            raise ConfigError(
                f"{path}: include {include!r} not found (looked for {target}); includes are "
                "resolved relative to the including file"
            )
        sub_tree, sub_sources = _load_file(target, (*chain, path))
        _merge(tree, sources, sub_tree, sub_sources, "")
    _merge(tree, sources, data, _sources_for(data, str(path), ""), "")
    return tree, sources


def _sources_for(data: dict[str, Any], source: str, prefix: str) -> dict[str, str]:
    out = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        out[dotted] = source
        if isinstance(value, dict):
            out.update(_sources_for(value, source, dotted + "."))
    return out


def _merge(tree: dict, sources: dict, new: dict, new_sources: dict, prefix: str) -> None:
    if "name" in new:
        _renamed(tree, new["name"], sources, f"{prefix}params")
    for key, value in new.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and isinstance(tree.get(key), dict):
            sources[dotted] = new_sources.get(dotted, sources.get(dotted, ""))
            _merge(tree[key], sources, value, new_sources, dotted + ".")
        else:
            for stale in [k for k in sources if k.startswith(dotted + ".")]:
                del sources[stale]
            tree[key] = value
            sources.update({k: v for k, v in new_sources.items() if k == dotted or k.startswith(dotted + ".")})


def apply_override(raw: RawConfig, override: str, schema: type | None = None) -> None:
    """Apply one ``a.b.c=value`` override; the value is parsed by the field's type."""
    key, sep, text = override.partition("=")
    key = key.strip()
    if not sep or not key or any(not part for part in key.split(".")):
        raise ConfigError(f"override {override!r} must look like key.sub=value")
    field_type = type_at(schema, key.split(".")) if schema else None
    value: Any = text if field_type is str else parse_scalar(text, key)
    node = raw.tree
    parts = key.split(".")
    for depth, part in enumerate(parts[:-1], 1):
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
            raw.sources[".".join(parts[:depth])] = COMMAND_LINE  # a key only the override names
        node = child
    if parts[-1] == "name":
        _renamed(node, value, raw.sources, ".".join(parts[:-1] + ["params"]))
    node[parts[-1]] = value
    for stale in [k for k in raw.sources if k.startswith(key + ".")]:
        del raw.sources[stale]
    raw.sources[key] = COMMAND_LINE
    if isinstance(value, dict):
        raw.sources.update(_sources_for(value, COMMAND_LINE, key + "."))


def _renamed(node: dict, name: Any, sources: dict, params_key: str) -> None:
    """A module named anew (in a file that includes another, with or without params of its
    own, or on the command line: ``modules.perception.name=oracle-seg``) does not inherit the
    params given to the module it replaces; params the command line set stay."""
    params = node.get("params")
    if name == node.get("name") or not isinstance(params, dict):
        return
    for key in list(params):
        dotted = f"{params_key}.{key}"
        given = [k for k in sources if k == dotted or k.startswith(dotted + ".")]
        if any(sources[k] == COMMAND_LINE for k in given):
            continue
        del params[key]
        for stale in given:
            del sources[stale]


def parse_scalar(text: str, key: str) -> Any:
    try:
        return safe_yaml(text, f"{COMMAND_LINE}: key {key!r}") if text.strip() else ""
    except yaml.YAMLError:
        return text


def to_yaml(config: Any) -> str:
    """The effective config as YAML (what is saved beside every result)."""
    return yaml.safe_dump(dataclasses.asdict(config), sort_keys=False)


def save_effective_config(config: Any, directory: str | Path, name: str = "config.yaml") -> Path:
    """Write the effective config into ``directory`` and return the file's path."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    target = out / name
    target.write_text(to_yaml(config))
    return target
