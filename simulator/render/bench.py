"""Render benchmark: frames per second (RGB + depth + instances) on the synthetic kitchen.

Owns ``benchmark()``, which ``nesy bench render`` reports. Measures a cycle of agent poses
(navigable cells x 4 rotations x 3 horizons) over an unchanged scene, i.e. the common case
of the agent moving; the first frame of each size (shader compile, upload) is excluded.
For a one-core number run it as ``LP_NUM_THREADS=1 taskset -c 0 ...`` (llvmpipe
otherwise uses one rasterizer thread per core).
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


if __name__ == "__main__":
    import json

    print(json.dumps(benchmark()))
