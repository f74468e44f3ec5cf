"""``nesy bench``: speed benchmarks of the simulator and the renderer, and the mapper's map
quality and speed (and, as they are built, other parts)."""

from __future__ import annotations

import argparse
import json

from agent.cli.common import print_json
from agent.cli.detector import add_module_arguments, module_params
from agent.config import parse_scalar
from contracts.errors import NesyError

ORDER = 60


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="speed benchmarks (sim: symbolic steps/s; render: frames/s and rendered steps/s)",
        description="Run a speed benchmark on this machine (one process, one core).",
    )
    sub = parser.add_subparsers(dest="bench_target", metavar="TARGET", required=True)
    sim = sub.add_parser("sim", help="symbolic simulator steps per second on a seeded action mix")
    sim.add_argument("--steps", type=int, default=20000, help="number of steps (default 20000)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    sim.set_defaults(handler=run_sim)
    render = sub.add_parser(
        "render",
        help="frames/s (RGB + depth + instances) at 300 and 900 px, and simulator steps/s "
        "with rendering on (needs EGL)",
        description="Frames per second of the renderer at 300 x 300 and 900 x 900 on a "
        "synthetic kitchen (fps_300, fps_900) and simulator steps per second with "
        "render: egl at 300 x 300 (steps_per_second). For one core: "
        "LP_NUM_THREADS=1 taskset -c 0 nesy bench render --json",
    )
    render.add_argument(
        "--seconds", type=float, default=2.0, help="seconds of rendering per size (default 2)"
    )
    render.add_argument(
        "--steps", type=int, default=2000, help="simulator steps with rendering (default 2000)"
    )
    render.add_argument("--seed", type=int, default=0)
    render.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    render.set_defaults(handler=run_render)
    mapping = sub.add_parser(
        "map", help="map quality and speed of a mapper on scripted tours (needs EGL)",
        description="On valid_unseen start states with rendering on, the Follower looks around and walks to "
        "random navigable points with the mapper's navigator; reports obstacle IoU against the true "
        "navigable grid, the precision of the cells it calls passable, the explored share, how many "
        "remembered instances each fixed object found is held as (instances_per_object, duplicated_objects, "
        "stray_instances), the share of remembered movable things on no object of their type (stray_movable), "
        "and ms_per_step (one map update plus one navigation decision, median; perception not included).",
    )
    mapping.add_argument("--mapper", default="semantic")
    mapping.add_argument("--mapper-param", action="append", default=[], metavar="KEY=VALUE",
                         help="a parameter of the mapper (repeatable), e.g. size_prior=false")
    mapping.add_argument("--perception", default="oracle-seg")
    mapping.add_argument("--episodes", type=int, default=12, help="episodes, spread over the split")
    mapping.add_argument("--split", default="valid_unseen", help="TATC episode split whose start states are toured")
    mapping.add_argument("--seed", type=int, default=0)
    mapping.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    mapping.set_defaults(handler=run_map)
    percept = sub.add_parser(
        "perception", help="ms per 300 x 300 frame of the maskrcnn perception module (needs EGL)",
        description="Median ms of maskrcnn's detect per rendered 300 x 300 valid_unseen frame on --threads "
        "torch threads (for one core: taskset -c 0 ... --threads 1).",
    )
    add_module_arguments(percept)
    percept.add_argument("--untrained", action="store_true",
                         help="an untrained network (ImageNet backbone, random heads) instead of weights")
    percept.add_argument("--frames", type=int, default=50, help="timed frames (default 50)")
    percept.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    percept.add_argument("--seed", type=int, default=0)
    percept.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    percept.set_defaults(handler=run_perception)
    nav = sub.add_parser(
        "nav", help="find and reach a random object type with the semantic map, learned vs uniform prior (needs EGL)",
        description="Seeded random start states of the valid_unseen floor plans (objects in closed receptacles "
        "too), a random pickupable type each: search (frontiers, then receptacles by the prior) and reach a pose "
        "that sees it within reach. Reports success_rate and spl (SPL against the oracle expert's shortest "
        "sequence) with the learned prior and, on the same episodes, uniform_success_rate and uniform_spl.",
    )
    nav.add_argument("--perception", default="oracle-seg")
    nav.add_argument("--episodes", type=int, default=48)
    nav.add_argument("--seed", type=int, default=0)
    nav.add_argument("--split", default="valid_unseen", choices=("train", "valid_unseen"),
                     help="floor plans of this split (tune on train, report on valid_unseen)")
    nav.add_argument("--per-episode", default="", metavar="FILE",
                     help="also write one JSON line per episode and prior (target, steps, shortest, success, spl)")
    nav.add_argument("--prior", default="both", choices=("both", "learned", "uniform"),
                     help="the search priors to run (both: learned and uniform on the same episodes)")
    nav.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    nav.set_defaults(handler=run_nav)
    from agent.cli.bench_planner import add_planner_parser

    add_planner_parser(sub)


def run_sim(args: argparse.Namespace) -> int:
    from simulator.bench import benchmark

    result = benchmark(args.steps, args.seed)
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0


def run_render(args: argparse.Namespace) -> int:
    from simulator.render.bench import benchmark, sim_steps

    frames = benchmark(seconds=args.seconds, seed=args.seed)
    steps = sim_steps(args.steps, args.seed)
    result = {
        "fps_300": frames["fps_300"],
        "fps_900": frames["fps_900"],
        "steps_per_second": steps["steps_per_second"],
        "steps": steps["steps"],
        "frames_drawn": steps["frames_drawn"],
        "objects": frames["objects"],
        "gl_renderer": frames["gl_renderer"],
        "lp_num_threads": frames["lp_num_threads"],
    }
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0


def run_map(args: argparse.Namespace) -> int:
    from types import SimpleNamespace

    import numpy as np

    from agent.map_quality import tour
    from simulator.episodes.model import load_episodes, shipped_path
    from simulator.sim import Simulator

    episodes = load_episodes(shipped_path(args.split))[0]
    chosen = episodes[:: max(1, len(episodes) // max(args.episodes, 1))][: args.episodes]
    sim = Simulator(SimpleNamespace(render="egl", width=300, height=300))
    rows = [tour(sim, e, args.perception, args.mapper, _mapper_params(args), seed=args.seed) for e in chosen]
    sim.close()
    result = {"episodes": len(rows), "split": args.split, "mapper": args.mapper, "perception": args.perception,
              **{k: round(float(np.mean([r[k] for r in rows])), 4) for k in rows[0]}}
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0


def _mapper_params(args: argparse.Namespace) -> dict:
    """``--mapper-param KEY=VALUE`` as a mapping (values read as YAML scalars)."""
    params = {}
    for item in args.mapper_param:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise NesyError(f"--mapper-param takes KEY=VALUE (e.g. size_prior=false), got {item!r}")
        params[key] = parse_scalar(value, key)
    return params


def run_nav(args: argparse.Namespace) -> int:
    from types import SimpleNamespace

    from agent.nav_bench import benchmark
    from simulator.episodes.splits import split_floor_plans
    from simulator.sim import Simulator

    sim = Simulator(SimpleNamespace(render="egl", width=300, height=300))
    rows: list[dict] = []
    priors = ("learned", "uniform") if args.prior == "both" else (args.prior,)
    result = benchmark(sim, args.episodes, args.perception, args.seed, tuple(split_floor_plans(args.split)), rows,
                       priors)
    result["split"] = args.split
    if args.per_episode:
        with open(args.per_episode, "w") as out:
            out.writelines(json.dumps(row) + "\n" for row in rows)
    sim.close()
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0


def run_perception(args: argparse.Namespace) -> int:
    from perception.bench import benchmark
    from perception.data_gen import sample_frames
    from perception.maskrcnn import MaskRCNNPerception

    params = module_params(args)
    if args.untrained:
        import torch

        from perception.classes import CLASSES
        from perception.maskrcnn_model import ModelConfig, backbone_checkpoint, build_model

        torch.manual_seed(args.seed)
        model = build_model(ModelConfig(num_classes=len(CLASSES)), backbone_checkpoint())
        module = MaskRCNNPerception.from_model(model, CLASSES, params)
    else:
        module = MaskRCNNPerception(params)
    result = benchmark(module, sample_frames("valid_unseen", max(args.frames, 1), seed=args.seed))
    result = {**result, "threads": args.threads,
              "weights": "untrained" if args.untrained else (args.weights or "shipped"),
              "region_classifier": module.meta.get("region_classifier", {}).get("file", "none"),
              "fine_segmenter": module.meta.get("fine_segmenter", {}).get("file", "none")}
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0
