"""``nesy bench planner``: milliseconds per (re)plan of the ``pddl`` planner on TATC
valid_unseen episodes (and, with ``--suite alfred``, ALFRED dev episodes).

Runs whole episodes with ``configs/ablations/pddl-oracle-belief.yaml`` (oracle-map +
oracle-visible + oracle-parser, dialogue off so every plan call is the planner's own) and
times every call that solved a PDDL problem (symbolic state, goal binding, problem text,
in-process translation and the Fast Downward search); plans kept from an earlier solve
cost nothing and are not counted. Reports ``plans``, ``median_ms``, ``p95_ms``, ``max_ms`` (wall
clock), ``median_cpu_ms`` / ``p95_cpu_ms`` (CPU time of this process and the search subprocess:
what a plan costs when the machine is shared),
the mean number of objects per problem, the mean actions per plan and the episodes' success
rate. ``--search`` picks Fast Downward's search; ``--compare N`` also solves N of the problems
with every named search (plans found, mean actions, median ms: the same problems for each).
"""

from __future__ import annotations

import argparse
import json
import time

from agent.cli.common import positive_int, print_json
from planner.fast_downward import DEFAULT_SEARCH, SEARCHES


def add_planner_parser(sub: argparse._SubParsersAction) -> None:
    bench = sub.add_parser(
        "planner", help="ms per (re)plan of the pddl planner on whole episodes (symbolic)",
        description=__doc__.split("\n\n")[1].replace("\n", " "),
    )
    bench.add_argument("--suite", choices=("tatc", "alfred"), default="tatc")
    bench.add_argument("--episodes", type=positive_int, default=48, help="episodes, spread over the split (default 48)")
    bench.add_argument("--data", default="../shared/data/alfred_train.jsonl.gz", help="ALFRED trajectories (--suite alfred)")
    bench.add_argument("--compare", type=int, default=0, metavar="N",
                       help="also time N of the problems with the translator as a subprocess (Fast Downward's "
                       "usual driver) and with pyperplan if it is installed")
    bench.add_argument("--search", choices=tuple(SEARCHES), default=DEFAULT_SEARCH,
                       help=f"Fast Downward's search for the episodes (default {DEFAULT_SEARCH})")
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
    config = load_config("ablations/pddl-oracle-belief",
                         ["modules.dialogue_manager.name=never", f"modules.planner.params.search={args.search}"])
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
              "median_cpu_ms": round(float(np.median([r.cpu_ms for r in records] or [0])), 2),
              "p95_cpu_ms": round(float(np.percentile([r.cpu_ms for r in records] or [0], 95)), 2),
              "mean_objects": round(float(np.mean([r.objects for r in records])), 1) if records else 0.0,
              "mean_plan_actions": round(float(np.mean([r.steps for r in records if r.solved] or [0])), 1),
              "unsolved": sum(not r.solved for r in records), "episodes": len(episodes),
              "success_rate": round(successes / max(len(episodes), 1), 4), "suite": args.suite, "search": args.search,
              "seconds": round(time.perf_counter() - started, 1)}
    if args.compare:
        result["compare"] = compare([r.problem for r in records if r.problem][: args.compare])
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0


def _episodes(args: argparse.Namespace) -> list:
    from agent.evaluation.suites import balanced_order, load_suite

    if args.suite == "tatc":
        episodes = balanced_order(load_suite("tatc", "valid_unseen"))
    else:
        episodes = balanced_order(load_suite("alfred", "dev", args.data))
    return episodes[: args.episodes]


def compare(problems: list[str]) -> dict:
    """Median ms per problem: in-process translator + search (ours), the translator as a
    subprocess + search, and pyperplan (pure Python; if installed and if it can read the domain)."""
    import statistics
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from planner.domain import DOMAIN
    from planner.fast_downward import TIMEOUT, _solve, downward_binary

    def timed(fn):  # -> (ms, what fn returned)
        start = time.perf_counter()
        ok = fn()
        return (time.perf_counter() - start) * 1000, ok

    out: dict[str, object] = {"problems": len(problems)}
    if not problems:
        return out
    sub, pyper = [], []
    pyperplan_error = ""
    with tempfile.TemporaryDirectory() as tmp:
        domain = Path(tmp) / "domain.pddl"
        domain.write_text(DOMAIN)
        for i, text in enumerate(problems):
            problem = Path(tmp) / f"p{i}.pddl"
            problem.write_text(text)

            def subprocess_fd(problem: Path = problem) -> bool:
                sas = Path(tmp) / "output.sas"
                subprocess.run([sys.executable, "-m", "fast_downward.translate", str(domain), str(problem),
                                "--sas-file", str(sas)], capture_output=True, check=True, cwd=tmp)
                run = subprocess.run([str(downward_binary()), *SEARCHES[DEFAULT_SEARCH][0]], stdin=sas.open(), capture_output=True,
                                     text=True, cwd=tmp)
                return "Solution found" in run.stdout
            sub.append(timed(subprocess_fd))
            if not pyperplan_error:
                try:
                    from pyperplan.planner import search_plan

                    pyper.append(timed(lambda problem=problem: search_plan(str(domain), str(problem), "gbf", "hff") is not None))
                except ImportError:
                    pyperplan_error = "not installed"
                except Exception as error:  # pyperplan reads STRIPS only
                    pyperplan_error = f"{type(error).__name__}: {str(error)[:120]}"
    searches = {}
    for name, phases in SEARCHES.items():  # uncached: each search times its own solve
        solutions = [timed(lambda text=text, phases=phases: _solve(DOMAIN, text, TIMEOUT, phases)) for text in problems]
        found = [solution.actions for _, solution in solutions if solution.solved]
        searches[name] = {"solved": len(found), "median_ms": round(statistics.median(ms for ms, _ in solutions), 1),
                          "mean_actions": round(sum(map(len, found)) / max(len(found), 1), 1)}
    out["in_process"] = {key: searches[DEFAULT_SEARCH][key] for key in ("median_ms", "solved")}  # ours, as the planner runs
    for name, rows in (("subprocess_translate", sub), ("pyperplan", pyper)):
        if rows:
            out[name] = {"median_ms": round(statistics.median(ms for ms, _ in rows), 1),
                         "solved": sum(ok for _, ok in rows)}
    if pyperplan_error:
        out["pyperplan"] = pyperplan_error
    out["searches"] = searches
    return out
