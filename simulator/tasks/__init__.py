"""Tasks: TEACh's task definition language, our task definitions, Progress Check, SearchObject.

- ``load_task_library(folder=None)``: the task definitions of a folder (ours, in
  ``simulator/tasks/definitions/``, by default; TEACh's own files load unchanged).
- ``instantiate(library, name, params)``: a task with its ``#k`` parameters substituted.
- ``progress_check(world, task)``: TEACh's Progress Check structure (success, subgoals,
  steps, problem keys, goal-condition counts) for the task in a world.
- ``search_object(world, query)``: TEACh's SearchObject (an object by id or fuzzy type name,
  its position and a navigable pose that sees it).
- ``missing_objects(world, task)``: what a world lacks for a task to be possible at all.
- ``TEACH_TASK_TYPES`` / ``TEACH_TASK_VARIANTS``: the 12 TEACh benchmark task types.

Progress Check and SearchObject read ground truth: they are Commander (agent 0) and
evaluation tools, never a Follower's. See docs/tasks.md.
"""

from simulator.tasks.benchmark import (
    TEACH_TASK_TYPES,
    TEACH_TASK_VARIANTS,
    TaskVariant,
    teach_task_variants,
)
from simulator.tasks.classes import class_members, object_classes
from simulator.tasks.preconditions import missing_objects
from simulator.tasks.progress import evaluate, progress_check
from simulator.tasks.search import search_object
from simulator.tasks.tdl import (
    AtomicComponent,
    Relation,
    TaskComponent,
    TaskDefinition,
    TaskDefinitionError,
    TaskInstance,
    TaskLibrary,
    instantiate,
    load_task_library,
    parse_definition,
)

__all__ = [
    "TEACH_TASK_TYPES", "TEACH_TASK_VARIANTS", "TaskVariant", "teach_task_variants",
    "class_members", "object_classes", "missing_objects", "evaluate", "progress_check", "search_object",
    "AtomicComponent", "Relation", "TaskComponent", "TaskDefinition", "TaskDefinitionError",
    "TaskInstance", "TaskLibrary", "instantiate", "load_task_library", "parse_definition",
]
