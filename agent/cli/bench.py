"""``nesy bench``: speed benchmarks of the simulator (and, as they are built, other parts)."""

from __future__ import annotations

import argparse
import json

from agent.cli.common import print_json

ORDER = 60


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="speed benchmarks (sim: symbolic simulator steps per second)",
        description="Run a speed benchmark on this machine (one process, one core).",
    )
    sub = parser.add_subparsers(dest="bench_target", metavar="TARGET", required=True)
    sim = sub.add_parser("sim", help="symbolic simulator steps per second on a seeded action mix")
    sim.add_argument("--steps", type=int, default=20000, help="number of steps (default 20000)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    sim.set_defaults(handler=run_sim)


def run_sim(args: argparse.Namespace) -> int:
    from simulator.bench import benchmark

    result = benchmark(args.steps, args.seed)
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0
