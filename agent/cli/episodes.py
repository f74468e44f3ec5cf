"""``nesy episodes build|list|verify``: the shipped TATC episode sets."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from agent.cli.common import print_json

ORDER = 30
DEFAULT_PER_TASK = {"train": 40, "valid_seen": 24, "valid_unseen": 24}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "episodes",
        help="build, list or verify TATC episode sets",
        description="TATC episodes: seeded start states per TEACh task type, validated by the "
        "oracle expert, split by floor plan (train, valid_seen, valid_unseen).",
    )
    sub = parser.add_subparsers(dest="episodes_command", metavar="ACTION", required=True)
    build = sub.add_parser("build", help="generate a split's episode set")
    build.add_argument("--split", required=True, help="train, valid_seen or valid_unseen")
    build.add_argument("--per-task", type=int, default=None, help="episodes per task type (default: 40 train, 24 valid)")
    build.add_argument("--seed", type=int, default=0)
    build.add_argument("--task-types", nargs="*", default=None, help="only these task types")
    build.add_argument("--out", default=None, help="output file (default: the shipped set)")
    build.set_defaults(handler=run_build)
    listing = sub.add_parser("list", help="count a split's episodes per task type")
    listing.add_argument("--split", required=True)
    listing.add_argument("--file", default=None, help="episode file (default: the shipped set)")
    listing.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    listing.set_defaults(handler=run_list)
    verify = sub.add_parser("verify", help="replay the oracle expert on every episode")
    verify.add_argument("--split", required=True)
    verify.add_argument("--file", default=None)
    verify.add_argument("--json", action="store_true")
    verify.set_defaults(handler=run_verify)


def _load(split: str, file: str | None):
    from simulator.episodes.model import load_episodes, shipped_path

    return load_episodes(file or shipped_path(split))


def run_build(args: argparse.Namespace) -> int:
    from simulator.episodes.model import save_episodes, shipped_path
    from simulator.episodes.tatc import generate

    per_task = args.per_task or DEFAULT_PER_TASK.get(args.split, 24)
    with tqdm(desc=f"building {args.split}", unit="ep", file=sys.stderr, disable=None) as bar:
        episodes = generate(args.split, per_task, args.seed, progress=lambda: bar.update(1), task_types=args.task_types)
    out = Path(args.out) if args.out else shipped_path(args.split)
    save_episodes(episodes, out, {"split": args.split, "seed": args.seed, "per_task_type": per_task})
    print(f"{len(episodes)} episodes -> {out}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    episodes, _ = _load(args.split, args.file)
    per_task = dict(sorted(Counter(e.task_type for e in episodes).items()))
    if args.json:
        print_json({"split": args.split, "episodes": len(episodes), "per_task": per_task})
        return 0
    print(f"split {args.split}: {len(episodes)} episodes")
    for task, n in per_task.items():
        print(f"  {task:32s} {n}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from simulator.episodes.tatc import verify

    episodes, _ = _load(args.split, args.file)
    report = verify(episodes)
    if args.json:
        print_json(report)
    else:
        print(f"{report['episodes']} episodes, oracle expert success {report['expert_success_rate']:.3f}")
        for episode_id, reason in report["failures"].items():
            print(f"  {episode_id}: {reason}")
    return 0 if report["expert_success_rate"] == 1.0 else 1
