"""TEACh's Task Definition Language: reading definition files, and instantiating tasks.

A task definition (one JSON object per file, TEACh's schema) has ``task_id``,
``task_name``, ``task_nparams``, ``task_anchor_object``, ``desc`` and ``components`` (atomic:
``determiner``, ``primary_condition``, ``instance_shareable``, ``conditions``,
``condition_failure_descs``; or a sub-task: ``determiner``, ``task_name``, ``task_params``)
and ``relations`` (``property``, ``head_entity_list``, ``head_determiner_list``,
``tail_entity_list``, ``tail_determiner_list``, ``failure_desc``). Other keys (TEACh's
``comments_task_params``) are kept and ignored.

Parameters are macros: ``instantiate`` replaces ``#k`` by the k-th parameter everywhere
(keys and values, highest index first so ``#13`` is not read as ``#1``), turns numeric
strings into numbers except in determiners, then instantiates the sub-tasks with their
(substituted) parameters. The result is a ``TaskInstance`` tree that ``simulator.tasks.check``
evaluates on a world.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from contracts.errors import NesyError

REQUIRED_KEYS = ("task_id", "task_name", "task_nparams", "task_anchor_object", "desc", "components", "relations")
ATOMIC_KEYS = ("determiner", "primary_condition", "instance_shareable", "conditions", "condition_failure_descs")
TASK_COMPONENT_KEYS = ("determiner", "task_name", "task_params")
RELATION_KEYS = (
    "property", "head_entity_list", "head_determiner_list", "tail_entity_list", "tail_determiner_list", "failure_desc",
)
PARAM = re.compile(r"#(\d+)")


class TaskDefinitionError(NesyError):
    """A task definition file or a task instantiation that does not follow the TDL schema."""


# ---------------------------------------------------------------------------------- definitions
@dataclass(frozen=True)
class TaskDefinition:
    """One task definition as read from its file (parameters not yet substituted)."""

    task_id: int
    task_name: str
    task_nparams: int
    raw: dict[str, Any] = field(repr=False, compare=False)
    source: str = ""

    @property
    def desc(self) -> str:
        return str(self.raw["desc"])

    def subtask_names(self) -> list[str]:
        return [c["task_name"] for c in self.raw["components"].values() if "task_name" in c]


@dataclass
class TaskLibrary:
    """The task definitions of a folder, by name, and the files that failed to load."""

    tasks: dict[str, TaskDefinition] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    folder: str = ""

    def get(self, name: str) -> TaskDefinition:
        if name in self.tasks:
            return self.tasks[name]
        close = difflib.get_close_matches(name, list(self.tasks), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise TaskDefinitionError(
            f"unknown task {name!r}{hint} (known tasks: {', '.join(sorted(self.tasks)) or 'none'})"
        )

    def by_id(self, task_id: int) -> TaskDefinition:
        for task in self.tasks.values():
            if task.task_id == task_id:
                return task
        raise TaskDefinitionError(f"no task with task_id {task_id} (known ids: {sorted(t.task_id for t in self.tasks.values())})")


def default_definitions_folder() -> Path:
    return Path(str(resources.files("simulator.tasks") / "definitions"))


def load_task_library(folder: str | Path | None = None) -> TaskLibrary:
    """Read every ``*.json`` under ``folder`` (ours by default; TEACh's files load unchanged).

    A file that is not a valid definition, or whose sub-tasks cannot be resolved (missing,
    wrong parameter count, circular), is left out and listed in ``errors`` with the reason.
    """
    root = Path(folder) if folder is not None else default_definitions_folder()
    if not root.is_dir():
        raise TaskDefinitionError(f"task definitions folder {str(root)!r} does not exist (expected a folder of *.json files)")
    library = TaskLibrary(folder=str(root))
    candidates: dict[str, TaskDefinition] = {}
    ids: dict[int, str] = {}
    for path in sorted(root.rglob("*.json")):
        name = str(path.relative_to(root))
        try:
            definition = _read_definition(path, name)
        except TaskDefinitionError as exc:
            library.errors[name] = str(exc)
            continue
        if definition.task_name in candidates:
            library.errors[name] = f"duplicate task_name {definition.task_name!r} (also in {candidates[definition.task_name].source})"
            continue
        if definition.task_id in ids:
            library.errors[name] = f"duplicate task_id {definition.task_id} (also in {ids[definition.task_id]})"
            continue
        candidates[definition.task_name] = definition
        ids[definition.task_id] = name
    _resolve(candidates, library)
    return library


def _read_definition(path: Path, name: str) -> TaskDefinition:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise TaskDefinitionError(f"not valid JSON ({exc})") from None
    return parse_definition(raw, name)


def parse_definition(raw: Any, source: str = "<dict>") -> TaskDefinition:
    """Check one definition against the schema; raise TaskDefinitionError naming the problem."""
    if not isinstance(raw, dict):
        raise TaskDefinitionError(f"expected a JSON object with keys {', '.join(REQUIRED_KEYS)}, got {type(raw).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in raw]
    if missing:
        raise TaskDefinitionError(f"missing key(s) {', '.join(missing)} (a task needs {', '.join(REQUIRED_KEYS)})")
    name = raw["task_name"]
    if not isinstance(name, str) or not name:
        raise TaskDefinitionError("task_name must be a non-empty string")
    where = f"task {name!r}"
    if not isinstance(raw["task_id"], int) or isinstance(raw["task_id"], bool):
        raise TaskDefinitionError(f"{where}: task_id must be an integer")
    nparams = raw["task_nparams"]
    if not isinstance(nparams, int) or isinstance(nparams, bool) or nparams < 0:
        raise TaskDefinitionError(f"{where}: task_nparams must be a non-negative integer")
    if not isinstance(raw["desc"], str):
        raise TaskDefinitionError(f"{where}: desc must be a string")
    anchor = raw["task_anchor_object"]
    components = raw["components"]
    if not isinstance(components, dict) or not components:
        raise TaskDefinitionError(f"{where}: components must be a non-empty object")
    for key, component in components.items():
        _check_component(where, key, component)
    if anchor is not None and anchor not in components:
        raise TaskDefinitionError(f"{where}: task_anchor_object {anchor!r} is not a component (components: {', '.join(components)})")
    if not isinstance(raw["relations"], list):
        raise TaskDefinitionError(f"{where}: relations must be a list")
    for i, relation in enumerate(raw["relations"]):
        _check_relation(where, i, relation, components)
    used = [int(m) for m in PARAM.findall(json.dumps(raw))]
    if used and max(used) >= nparams:
        raise TaskDefinitionError(f"{where}: uses parameter #{max(used)} but task_nparams is {nparams}")
    return TaskDefinition(raw["task_id"], name, nparams, copy.deepcopy(raw), source)


def _check_component(where: str, key: str, component: Any) -> None:
    if not isinstance(component, dict):
        raise TaskDefinitionError(f"{where}: component {key!r} must be an object")
    if "task_name" in component:
        missing = [k for k in TASK_COMPONENT_KEYS if k not in component]
        if missing or not isinstance(component["task_params"], list):
            raise TaskDefinitionError(
                f"{where}: task component {key!r} needs {', '.join(TASK_COMPONENT_KEYS)} (task_params a list)"
            )
        return
    missing = [k for k in ATOMIC_KEYS if k not in component]
    if missing:
        raise TaskDefinitionError(
            f"{where}: component {key!r} is missing {', '.join(missing)} (an atomic component needs "
            f"{', '.join(ATOMIC_KEYS)}; a task component needs {', '.join(TASK_COMPONENT_KEYS)})"
        )
    if not isinstance(component["conditions"], dict) or not isinstance(component["condition_failure_descs"], dict):
        raise TaskDefinitionError(f"{where}: component {key!r}: conditions and condition_failure_descs must be objects")
    if component["primary_condition"] not in component["conditions"]:
        raise TaskDefinitionError(
            f"{where}: component {key!r}: primary_condition {component['primary_condition']!r} is not one of its conditions"
        )


def _check_relation(where: str, index: int, relation: Any, components: dict) -> None:
    if not isinstance(relation, dict) or any(k not in relation for k in RELATION_KEYS):
        raise TaskDefinitionError(f"{where}: relation {index} needs {', '.join(RELATION_KEYS)}")
    for side in ("head", "tail"):
        entities, determiners = relation[f"{side}_entity_list"], relation[f"{side}_determiner_list"]
        if not isinstance(entities, list) or not isinstance(determiners, list) or len(entities) != len(determiners):
            raise TaskDefinitionError(f"{where}: relation {index}: {side}_entity_list and {side}_determiner_list must be lists of equal length")
        for entity in entities:
            if entity not in components:
                raise TaskDefinitionError(f"{where}: relation {index} names {entity!r}, which is not a component")
    if len(relation["tail_entity_list"]) != 1:
        raise TaskDefinitionError(f"{where}: relation {index}: exactly one tail entity is supported (as in TEACh)")


def _resolve(candidates: dict[str, TaskDefinition], library: TaskLibrary) -> None:
    """Keep the definitions whose sub-tasks (recursively) exist with the right parameter count."""
    state: dict[str, str] = {}  # name -> "ok" | error message

    def visit(name: str, stack: tuple[str, ...]) -> str:
        if name in state:
            return state[name]
        if name in stack:
            return f"circular sub-task reference: {' -> '.join((*stack, name))}"
        definition = candidates[name]
        verdict = "ok"
        for key, component in definition.raw["components"].items():
            if "task_name" not in component:
                continue
            sub = component["task_name"]
            if sub not in candidates:
                verdict = f"component {key!r} refers to unknown task {sub!r}"
            elif len(component["task_params"]) != candidates[sub].task_nparams:
                verdict = (f"component {key!r} passes {len(component['task_params'])} parameter(s) to "
                           f"{sub!r}, which takes {candidates[sub].task_nparams}")
            else:
                inner = visit(sub, (*stack, name))
                if inner != "ok":
                    verdict = f"component {key!r}: sub-task {sub!r} does not load ({inner})"
            if verdict != "ok":
                break
        state[name] = verdict
        return verdict

    for name in sorted(candidates):
        verdict = visit(name, ())
        if verdict == "ok":
            library.tasks[name] = candidates[name]
        else:
            library.errors[candidates[name].source] = f"task {name!r}: {verdict}"


# ---------------------------------------------------------------------------------- instances
@dataclass(frozen=True)
class AtomicComponent:
    key: str
    determiner: str
    primary_condition: str
    instance_shareable: bool
    conditions: dict[str, Any]
    condition_failure_descs: dict[str, str]


@dataclass(frozen=True)
class TaskComponent:
    key: str
    determiner: str
    task: TaskInstance


@dataclass(frozen=True)
class Relation:
    property: str
    head_entities: tuple[str, ...]
    head_determiners: tuple[str, ...]
    tail_entities: tuple[str, ...]
    tail_determiners: tuple[str, ...]
    failure_desc: str


@dataclass(frozen=True)
class TaskInstance:
    """A task with its parameters substituted and its sub-tasks instantiated."""

    task_id: int
    task_name: str
    params: tuple[str, ...]
    desc: str
    anchor: str | None
    components: dict[str, AtomicComponent | TaskComponent]
    relations: tuple[Relation, ...]


def substitute(value: Any, params: tuple[str, ...], key: str | None = None) -> Any:
    """TEACh's macro substitution of ``#k`` (highest index first) in strings, lists and dict keys."""
    if isinstance(value, str):
        text = value
        for index in range(len(params) - 1, -1, -1):
            text = text.replace(f"#{index}", str(params[index]))
        return text
    if isinstance(value, list):
        return [substitute(v, params) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            new = substitute(v, params, k)
            if isinstance(new, str) and new.isdigit() and k != "determiner" and isinstance(v, str):
                new = int(new)  # a parameter that fills a simulator property ("isDirty": "#1")
            out[substitute(k, params)] = new
        return out
    return value


def instantiate(library: TaskLibrary, task_name: str, params: list[str] | tuple = ()) -> TaskInstance:
    """The task ``task_name`` with ``params`` (clear errors for unknown tasks or wrong counts)."""
    return _instantiate(library, task_name, tuple(str(p) for p in params), ())


def _instantiate(library: TaskLibrary, task_name: str, params: tuple[str, ...], path: tuple[str, ...]) -> TaskInstance:
    definition = library.get(task_name)
    where = " -> ".join((*path, task_name))
    if len(params) != definition.task_nparams:
        raise TaskDefinitionError(
            f"task {where!r} takes {definition.task_nparams} parameter(s), got {len(params)}: {list(params)}"
            + _param_hint(definition)
        )
    raw = definition.raw
    desc = substitute(raw["desc"], params)
    anchor = substitute(raw["task_anchor_object"], params) if raw["task_anchor_object"] is not None else None
    components: dict[str, AtomicComponent | TaskComponent] = {}
    for key, spec in substitute(raw["components"], params).items():
        determiner = _determiner(spec["determiner"], where, key)
        if "task_name" in spec:
            if determiner == "all":
                raise TaskDefinitionError(f"task {where!r}: determiner 'all' is not supported for task component {key!r}")
            child = _instantiate(library, spec["task_name"], tuple(str(p) for p in spec["task_params"]), (*path, task_name))
            components[key] = TaskComponent(key, determiner, child)
        else:
            components[key] = AtomicComponent(
                key, determiner, spec["primary_condition"], bool(spec["instance_shareable"]),
                dict(spec["conditions"]), {k: str(v) for k, v in spec["condition_failure_descs"].items()},
            )
    relations = []
    for spec in substitute(raw["relations"], params):
        relation = Relation(
            spec["property"], tuple(spec["head_entity_list"]),
            tuple(_determiner(d, where, "relation head") for d in spec["head_determiner_list"]),
            tuple(spec["tail_entity_list"]), tuple(str(d) for d in spec["tail_determiner_list"]),
            str(spec["failure_desc"]),
        )
        for tail in relation.tail_determiners:
            if tail not in ("a", "the"):
                raise TaskDefinitionError(f"task {where!r}: tail determiner {tail!r} (expected 'a' or 'the')")
        for entity in (*relation.head_entities, *relation.tail_entities):
            if entity not in components:
                raise TaskDefinitionError(f"task {where!r}: relation entity {entity!r} is not a component after substitution")
        relations.append(relation)
    if anchor is not None and anchor not in components:
        raise TaskDefinitionError(f"task {where!r}: anchor {anchor!r} is not a component after substitution")
    return TaskInstance(definition.task_id, definition.task_name, params, desc, anchor, components, tuple(relations))


def _determiner(value: Any, where: str, key: str) -> str:
    text = str(value).strip()
    if text in ("a", "all") or text.isdigit():
        return text
    raise TaskDefinitionError(
        f"task {where!r}, {key!r}: determiner {value!r} (expected 'a', 'all' or a number; a '#k' parameter must be given a number)"
    )


def _param_hint(definition: TaskDefinition) -> str:
    comments = definition.raw.get("comments_task_params")
    if isinstance(comments, dict) and comments:
        return " (" + "; ".join(f"{k}: {v}" for k, v in comments.items()) + ")"
    return f" (description: {definition.desc!r})"
