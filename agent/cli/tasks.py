"""``nesy tasks``: load task definitions (TEACh's task definition language) and list them."""

from __future__ import annotations

import argparse

from agent.cli.common import print_json

ORDER = 35


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tasks",
        help="task definitions (list: load a folder of TEACh-style definitions and check it)",
        description="Task definitions in TEACh's task definition language.",
    )
    sub = parser.add_subparsers(dest="tasks_command", metavar="TOOL", required=True)
    listing = sub.add_parser(
        "list",
        help="load a folder of task definitions and list the tasks (exit 1 if a file fails)",
        description="Load every *.json task definition under a folder (ours by default; TEACh's "
        "own task_definitions folder loads unchanged), resolve sub-tasks and list the tasks. "
        "Files that fail are reported with the reason and make the exit status 1.",
    )
    listing.add_argument("--definitions", metavar="DIR", default=None,
                         help="folder of task definition files (default: the shipped definitions)")
    listing.add_argument("--json", action="store_true",
                         help='print one JSON object (last line): {"loaded", "tasks", "errors"}')
    listing.set_defaults(handler=run_list)
    variants = sub.add_parser(
        "variants",
        help="the 12 TEACh benchmark task types and their parameter variants",
        description="The TEACh benchmark task types, the task definition each uses and its "
        "parameter variants (what the episode generator draws from).",
    )
    variants.add_argument("--type", dest="task_type", default=None, help="only this task type")
    variants.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    variants.set_defaults(handler=run_variants)


def run_list(args: argparse.Namespace) -> int:
    from simulator.tasks import load_task_library

    library = load_task_library(args.definitions)
    names = sorted(library.tasks, key=lambda n: (library.tasks[n].task_id, n))
    if args.json:
        print_json({"loaded": len(names), "tasks": names, "errors": library.errors})
    else:
        print(f"{len(names)} task(s) from {library.folder}")
        for name in names:
            task = library.tasks[name]
            print(f"  {task.task_id:>4}  {name:28s} {task.task_nparams} param(s)  {task.desc}")
        for file, message in library.errors.items():
            print(f"  error: {file}: {message}")
    return 1 if library.errors else 0


def run_variants(args: argparse.Namespace) -> int:
    from simulator.tasks import TEACH_TASK_TYPES, teach_task_variants

    types = [args.task_type] if args.task_type else list(TEACH_TASK_TYPES)
    per_type = {t: teach_task_variants(t) for t in types}
    if args.json:
        print_json({
            t: {"task_name": TEACH_TASK_TYPES[t][0], "variants": [
                {"params": list(v.params), "room_types": list(v.room_types)} for v in vs
            ]}
            for t, vs in per_type.items()
        })
    else:
        for t, vs in per_type.items():
            print(f"{t:28s} task {TEACH_TASK_TYPES[t][0]!r}: {len(vs)} variant(s), e.g. {list(vs[0].params)}")
    return 0
