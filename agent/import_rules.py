"""Who may import what (docs/architecture.md), checked by walking the source's imports.

The import graph of the project's packages is read from the source with ``ast`` (every
``import`` and ``from ... import``, also inside functions and ``TYPE_CHECKING`` blocks), and
three rules are checked:

1. ``contracts`` imports nothing of the project but itself;
2. each package imports only the packages it may (``ALLOWED``): ``simulator`` nothing of
   ``agent``; ``perception``, ``mapping``, ``planner`` and ``dialogue`` only ``contracts``
   (plus ``simulator``, see 3), never ``agent`` or each other;
3. the modules a Follower runs -- every registered perception, mapper, planner, parser and
   dialogue-manager module and every Follower -- never reach ``simulator``, directly or
   through what they import, unless their registered name starts with ``oracle``. Offline
   tools (training-data generators, parser training) may import ``simulator`` as long as no
   Follower-run module imports them.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("contracts", "simulator", "perception", "mapping", "planner", "dialogue", "agent", "configs")
ALLOWED: dict[str, set[str]] = {
    "contracts": set(),
    "simulator": {"contracts"},
    "perception": {"contracts", "simulator"},
    "mapping": {"contracts", "simulator"},
    "planner": {"contracts", "simulator"},
    "dialogue": {"contracts", "simulator"},
    "agent": {"contracts", "simulator", "perception", "mapping", "planner", "dialogue", "configs"},
    "configs": set(),
}
FOLLOWER_FAMILIES = ("perception", "mapper", "planner", "parser", "dialogue_manager", "follower")
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Violation:
    module: str
    imported: str
    rule: str

    def __str__(self) -> str:
        return f"{self.module} imports {self.imported}: {self.rule}"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, module: str, is_package: bool = False) -> set[str]:
    """The absolute module names a source file imports (relative imports resolved)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # "from pkg import module"
    return found


def import_graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, set[str]]:
    """Project module -> the project modules it imports."""
    files = {module_name(p, root): p for package in packages for p in (root / package).rglob("*.py")}
    graph = {}
    for name, path in files.items():
        found = imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")
        graph[name] = {m for m in found if m in files}
    return graph


def package_violations(graph: dict[str, set[str]]) -> list[Violation]:
    """Rules 1 and 2."""
    out = []
    for module, imported in sorted(graph.items()):
        package = module.split(".")[0]
        for target in sorted(imported):
            other = target.split(".")[0]
            if other != package and other not in ALLOWED.get(package, set()):
                out.append(Violation(module, target, f"{package} may import only "
                                     f"{', '.join(sorted(ALLOWED.get(package, ()))) or 'itself'}"))
    return out


def follower_violations(graph: dict[str, set[str]], modules: dict[str, str]) -> list[Violation]:
    """Rule 3: ``modules`` maps a registered non-oracle module's label (family:name) to the
    module that defines it."""
    out = []
    for label, defining in sorted(modules.items()):
        chain = _path_to(graph, defining, lambda m: m.split(".")[0] == "simulator")
        if chain:
            out.append(Violation(defining, " -> ".join(chain[1:]),
                                 f"{label} is run by Followers and is not named oracle-*; it must not reach simulator"))
    return out


def _path_to(graph: dict[str, set[str]], start: str, is_target: Callable[[str], bool]) -> list[str]:
    """The import chain from ``start`` to the first module satisfying ``is_target`` ([] if none)."""
    parent = {start: None}
    queue = [start]
    while queue:
        here = queue.pop(0)
        if here != start and is_target(here):
            chain = [here]
            while parent[chain[-1]] is not None:
                chain.append(parent[chain[-1]])
            return chain[::-1]
        for nxt in sorted(graph.get(here, ())):
            if nxt not in parent:
                parent[nxt] = here
                queue.append(nxt)
    return []


def follower_run_modules() -> dict[str, str]:
    """family:name -> defining module of every registered non-oracle module a Follower runs."""
    from contracts.registry import registry

    out = {}
    for family in FOLLOWER_FAMILIES:
        reg = registry(family)
        for name in reg.names():
            if not name.startswith("oracle"):
                module = reg.get(name).__module__
                if module.split(".")[0] in PACKAGES and importlib.util.find_spec(module) is not None:
                    out[f"{family}:{name}"] = module
    return out


def violations(root: Path = ROOT) -> list[Violation]:
    graph = import_graph(root)
    return package_violations(graph) + follower_violations(graph, follower_run_modules())
