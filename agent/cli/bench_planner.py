"""``nesy bench planner``: milliseconds per (re)plan of the ``pddl`` planner on TATC
valid_unseen episodes (and, with ``--suite alfred``, ALFRED dev episodes).

Runs whole episodes with ``configs/ablations/pddl-oracle-belief.yaml`` (oracle-map +
oracle-visible + oracle-parser, dialogue off so every plan call is the planner's own) and
times every call that solved a PDDL problem (symbolic state, goal binding, problem text,
in-process translation and the Fast Downward search); plans kept from an earlier solve
cost nothing and are not counted. Reports ``plans``, ``median_ms``, ``p95_ms``, ``max_ms``,
the mean number of objects per problem and the episodes' success rate.
"""

from __future__ import annotations

import argparse
import json
import time

from agent.cli.common import positive_int, print_json


def add_planner_parser(sub: argparse._SubParsersAction) -> None:
    bench = sub.add_parser(
        "planner", help="ms per (re)plan of the pddl planner on whole episodes (symbolic)",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    bench.add_argument("--suite", choices=("tatc", "alfred"), default="tatc")
    bench.add_argument("--episodes", type=positive_int, default=48, help="episodes, spread over the split (default 48)")
    bench.add_argument("--data", default="../shared/data/alfred_train.jsonl.gz", help="ALFRED trajectories (--suite alfred)")
    bench.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    bench.set_defaults(handler=run_planner)


def run_planner(args: argparse.Namespace) -> int:
    from types import SimpleNamespace

    import numpy as np

    from agent.pairing import build_agents
    from agent.runner import run_episode
    from agent.settings import load_config
    from simulator.sim import Simulator

    episodes = _episodes(args)
    config = load_config("ablations/pddl-oracle-belief", ["modules.dialogue_manager.name=never"])
    agents = build_agents(config, with_commander=args.suite == "tatc")
    planner = agents.follower.modules["planner"]
    sim = Simulator(SimpleNamespace(render="none", width=300, height=300, field_of_view=90.0, interaction_distance=1.5))
    started, successes = time.perf_counter(), 0
    for episode in episodes:
        result, _ = run_episode(episode, agents, sim)
        successes += bool(result.success)
    sim.close()
    records = [r for r in planner.records]
    ms = np.array([r.ms for r in records]) if records else np.zeros(1)
    result = {"plans": len(records), "median_ms": round(float(np.median(ms)), 2),
              "p95_ms": round(float(np.percentile(ms, 95)), 2), "max_ms": round(float(ms.max()), 2),
              "mean_objects": round(float(np.mean([r.objects for r in records])), 1) if records else 0.0,
              "unsolved": sum(not r.solved for r in records), "episodes": len(episodes),
              "success_rate": round(successes / max(len(episodes), 1), 4), "suite": args.suite,
              "seconds": round(time.perf_counter() - started, 1)}
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0


def _episodes(args: argparse.Namespace) -> list:
    from agent.evaluation.suites import balanced_order, load_suite

    episodes = balanced_order(load_suite(args.suite, "valid_unseen" if args.suite == "tatc" else "dev", args.data))
    return episodes[: args.episodes]
