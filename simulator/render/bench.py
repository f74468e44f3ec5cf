"""Render benchmark: frames per second (RGB + depth + instances) on the synthetic kitchen,
and simulator steps per second with rendering on.

Owns ``benchmark()`` and ``sim_steps()``, which ``nesy bench render`` reports. The frame
rate is measured over a cycle of agent poses (navigable cells x 4 rotations x 3 horizons)
over an unchanged scene, i.e. the common case of the agent moving; the first frame of
each size (shader compile, upload) is excluded. ``sim_steps`` runs the seeded action mix
of ``nesy bench sim`` (simulator/bench.py) with ``render: egl``: every step's observation
carries freshly rendered RGB and depth. For a one-core number run it as
``LP_NUM_THREADS=1 taskset -c 0 ...`` (llvmpipe otherwise uses one rasterizer thread per
core).
"""

from __future__ import annotations

import os
import time
from typing import Any

from .gl import context
from .renderer import Renderer
from .synthetic import synthetic_kitchen
from .types import CameraPose


def _fps(size: int, seconds: float, n_small: int, seed: int) -> float:
    room, objects = synthetic_kitchen(seed=seed, n_small=n_small)
    cells = sorted(room.navigable)
    poses = [
        CameraPose(i * 0.25, 1.576, j * 0.25, float(rot), float(hor))
        for n, (i, j) in enumerate(cells[::7])
        for rot in (0, 90, 180, 270)
        for hor in ((0, 30, -30)[n % 3],)
    ]
    renderer = Renderer(size, size)
    try:
        renderer.render(room, objects, poses[0])
        frames, start = 0, time.perf_counter()
        while True:
            renderer.render(room, objects, poses[frames % len(poses)])
            frames += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds and frames >= 10:
                return frames / elapsed
    finally:
        renderer.release()


def benchmark(seconds: float = 2.0, n_small: int = 80, seed: int = 0) -> dict[str, Any]:
    """{"fps_300", "fps_900", "objects", "gl_renderer", "lp_num_threads"}; ``seconds`` of
    rendering per size on a synthetic kitchen with about 40 + ``n_small`` objects."""
    ctx = context()
    _, objects = synthetic_kitchen(seed=seed, n_small=n_small)
    return {
        "fps_300": round(_fps(300, seconds, n_small, seed), 1),
        "fps_900": round(_fps(900, seconds, n_small, seed), 1),
        "objects": len(objects),
        "gl_renderer": ctx.info.get("GL_RENDERER", "?"),
        "lp_num_threads": os.environ.get("LP_NUM_THREADS", "default"),
    }


def sim_steps(steps: int = 2000, seed: int = 0, size: int = 300) -> dict[str, Any]:
    """Simulator steps per second with ``render: egl`` at ``size`` x ``size`` on the seeded
    action mix of ``simulator.bench`` (70% navigation, 30% interaction by objectId), the
    observation (RGB + depth) and the visible objects every step; 4 floor plans."""
    import argparse
    import random

    from simulator.bench import SCENES, random_step
    from simulator.sim import FOLLOWER, Simulator
    from simulator.spawn import random_start

    rng = random.Random(seed)
    sim = Simulator(argparse.Namespace(render="egl", width=size, height=size))
    elapsed, succeeded, frames, draws = 0.0, 0, 0, 0
    per_scene = max(steps // len(SCENES), 1)
    try:
        for index, scene in enumerate(SCENES):
            sim.reset(random_start(scene, seed + index))  # first frame: compile, upload
            draws -= sim.frames_drawn
            start = time.perf_counter()
            for _ in range(per_scene):
                result = random_step(sim, rng)
                sim.world.visible_ids(FOLLOWER)
                succeeded += result.success
                frames += result.observation.rgb is not None
            elapsed += time.perf_counter() - start
            draws += sim.frames_drawn
    finally:
        sim.close()
    total = per_scene * len(SCENES)
    return {
        "steps": total,
        "steps_per_second": round(total / elapsed, 1),
        "observations_with_frames": frames,
        "frames_drawn": draws,  # the rest were unchanged views (failed moves): cached
        "action_success_fraction": round(succeeded / total, 3),
        "scenes": list(SCENES),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(benchmark()))
