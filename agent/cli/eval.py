"""``nesy eval``: run a config's agents on a benchmark split, resumably, in parallel."""

from __future__ import annotations

import argparse

from agent.cli.common import add_config_arguments, positive_int, print_json

ORDER = 10


class _IntermixedParser(argparse.ArgumentParser):
    """Positionals may follow options (``nesy eval CONFIG --suite tatc ... seed=1``)."""

    _inner = False

    def parse_known_args(self, args=None, namespace=None):
        if self._inner:
            return super().parse_known_args(args, namespace)
        self._inner = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inner = False


def intermixed(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Let trailing ``KEY=VALUE`` overrides come after a subcommand's options."""
    parser.__class__ = _IntermixedParser
    return parser


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from agent.evaluation.suites import SUITES

    parser = subparsers.add_parser(
        "eval",
        help="evaluate a config's agents on a suite split (parallel, resumable)",
        description="Run the config's Follower (and, for TATC, Commander) on the episodes of a "
        "split: one JSON line per finished episode in DIR/episodes.jsonl (flushed; run the same "
        "command again to resume an interrupted run), per-episode logs in DIR/logs/, the "
        "effective config in DIR/config.yaml and DIR/summary.json at the end. See "
        "docs/evaluation.md.",
    )
    intermixed(parser)
    add_config_arguments(parser, default=None)
    parser.add_argument("--suite", required=True, choices=SUITES,
                        help="benchmark suite (alfred-nav-only, alfred-rev-1, alfred-rev-n: ALFRED-L's variants of alfred)")
    parser.add_argument("--split", required=True, help="e.g. valid_unseen, valid_seen, train (alfred: dev, train)")
    parser.add_argument("--out", required=True, metavar="DIR", help="run folder (created; resumed if it exists)")
    parser.add_argument("--episodes", type=positive_int, default=None, metavar="N",
                        help="only the first N episodes of the task-balanced order")
    parser.add_argument("--per-task", type=positive_int, default=None, metavar="N",
                        help="at most N episodes of each task type")
    parser.add_argument("--task-types", nargs="+", default=None, metavar="TYPE",
                        help="only these task types (e.g. 'Water Plant' 'Make Coffee')")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="K",
                        help="parallel workers (processes, or Ray actors with --ray); default 1")
    parser.add_argument("--ray", default=None, metavar="ADDRESS",
                        help="run on Ray: a cluster address (e.g. ray://host:10001, auto) or 'local'")
    parser.add_argument("--data", default=None, metavar="FILE",
                        help="episode file (tatc) or ALFRED trajectories (alfred; default evaluation.alfred_data)")
    parser.add_argument("--fresh", action="store_true", help="start over: drop DIR's previous results")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object (last line)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from agent.evaluation.harness import EvalRequest, run_evaluation
    from agent.evaluation.summary import overview, per_task_table

    request = EvalRequest(
        config=args.config, overrides=args.overrides, suite=args.suite, split=args.split, out=args.out,
        episodes=args.episodes, task_types=args.task_types, per_task=args.per_task,
        workers=args.workers, ray=args.ray, data=args.data, fresh=args.fresh,
    )
    result = run_evaluation(request)
    summary = result.summary
    if result.resumed:
        print(f"resumed {args.out}: {result.resumed} episodes were done, ran {result.ran}")
    print(per_task_table(summary))
    print(overview(summary))
    errors = summary["failure_causes"]
    crashed = sum(n for cause, n in errors.items() if cause.startswith("exception:"))
    if crashed:
        print(f"warning: {crashed} episode(s) raised an exception (see 'error' in "
              f"{args.out}/episodes.jsonl and the traceback in their logs)")
    print(f"results: {args.out}/episodes.jsonl, {args.out}/summary.json, logs in {args.out}/logs/")
    if args.json:
        print_json(summary)
    return 0
