"""``nesy parse TEXT``, ``nesy parse-eval FILE`` and ``nesy parser train``: the language layer."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from agent.cli.common import print_json
from contracts.errors import NesyError

ORDER = 60


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "parse", help="parse an utterance / instruction into intents and a task spec",
        description="Parse TEXT (a dialogue utterance, step instruction or goal) and print its "
        "dialogue acts, subgoals, location hints, TEACh task and ALFRED goal spec.",
    )
    p.add_argument("text", metavar="TEXT", help="the utterance, e.g. 'Rinse the dirty mug in the sink.'")
    p.add_argument("--parser", default="rules", help="registered parser: rules (default) or trained")
    p.add_argument("--steps", nargs="*", default=(), metavar="STEP",
                   help="step instructions that go with TEXT as an ALFRED goal")
    p.add_argument("--task-known", action="store_true", help="context: a task was already stated")
    p.add_argument("--json", action="store_true", help="one JSON object on the last stdout line")
    p.set_defaults(handler=run_parse)

    e = subparsers.add_parser(
        "parse-eval", help="ALFRED goal-parsing accuracy of a parser on trajectory annotations",
        description="Exact-match accuracy of the ALFRED goal fields (task_type, object_target, "
        "parent_target, toggle_target, mrecep_target, object_sliced) over every annotation of "
        "FILE (our jsonl(.gz) or an ALFRED traj_data.json).",
    )
    e.add_argument("file", metavar="FILE", type=Path, help="ALFRED-format trajectories")
    e.add_argument("--parser", default="trained", help="registered parser (default: trained)")
    e.add_argument("--split", default="all", choices=("all", "train", "dev", "fit", "val"),
                   help="evaluate only our train/dev split (by floor plan: dev = 16 held-out train floor plans), "
                        "or fit/val (train split again by floor plan, for tuning); default: all")
    e.add_argument("--goal-only", action="store_true", help="ignore the step instructions")
    e.add_argument("--limit", type=int, default=0, help="evaluate only the first N annotations")
    e.add_argument("--json", action="store_true", help="one JSON object on the last stdout line")
    e.set_defaults(handler=run_eval)

    t = subparsers.add_parser("parser", help="train the trained parser",
                              description="Parser maintenance: 'nesy parser train'.")
    sub = t.add_subparsers(dest="parser_command", metavar="ACTION")
    tr = sub.add_parser("train", help="train the n-gram parser on our ALFRED train split (CPU, about 4 minutes)")
    tr.add_argument("--data", type=Path, default=None, help="ALFRED train jsonl(.gz) (default: shared data)")
    tr.add_argument("--out", type=Path, default=None, help="model file (default: the shipped model)")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--epochs", type=int, default=None)
    tr.add_argument("--split", default="train", choices=("train", "fit"),
                    help="train on our train split (default) or on fit (train minus the validation floor plans)")
    tr.add_argument("--json", action="store_true", help="one JSON object on the last stdout line")
    tr.set_defaults(handler=run_train)
    t.set_defaults(handler=lambda args: (t.print_help(), 2)[1])


def _build(name: str):  # -> Parser
    from contracts.registry import parser as registry

    return registry.build(name)


def run_parse(args: argparse.Namespace) -> int:
    from contracts.language import ParseContext

    parser = _build(args.parser)
    intents = parser.parse(args.text, ParseContext(task_known=args.task_known))
    goal = parser.parse_goal(args.text, list(args.steps))
    payload = {"parser": args.parser, "intents": [i.to_json() for i in intents], "alfred_goal": goal.alfred_fields()}
    if args.json:
        print_json(json.loads(json.dumps(payload, default=str)))
        return 0
    for intent in intents:
        print(f"[{intent.act}] {intent.text}")
        for key, value in intent.to_json().items():
            if key not in ("act", "text", "confidence"):
                print(f"    {key}: {_show(value)}")
    print("ALFRED goal: " + ", ".join(f"{k}={v!r}" for k, v in goal.alfred_fields().items()))
    return 0


def _show(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return "; ".join(_show(v) for v in value)
    if isinstance(value, dict):
        return "(" + ", ".join(f"{k}={v}" for k, v in value.items() if v not in (None, "", (), [], {})) + ")"
    return str(value)


def run_eval(args: argparse.Namespace) -> int:
    from dialogue.alfred_data import load_annotations
    from dialogue.evaluate import evaluate

    anns = load_annotations(args.file, args.split)
    if args.limit:
        anns = anns[: args.limit]
    if not anns:
        raise NesyError(f"{args.file}: no annotations in split {args.split!r}")
    parser = _build(args.parser)

    def progress(done: int, total: int) -> None:
        print(f"\rparse-eval: {done}/{total} annotations", end="", file=sys.stderr, flush=True)

    result = evaluate(parser, anns, use_steps=not args.goal_only, progress=progress)
    print(file=sys.stderr)
    result = {"parser": args.parser, "file": str(args.file), "split": args.split, **result}
    if not args.json:
        for key, value in result.items():
            print(f"{key:>24}: {value}")
        return 0
    print_json(result)
    return 0


def run_train(args: argparse.Namespace) -> int:
    from dialogue.training import TrainConfig, train

    cfg = TrainConfig(seed=args.seed, split=args.split)
    if args.data:
        cfg.data = args.data
    if args.out:
        cfg.out = args.out
    if args.epochs:
        cfg.epochs = args.epochs
    summary = train(cfg, log=lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        print_json(summary)
    else:
        print(json.dumps(asdict(cfg) | summary, default=str, indent=1))
    return 0
