"""``nesy bench perception``: milliseconds per frame of a perception module's ``detect`` on
rendered 300 x 300 valid_unseen frames, with the torch threads stated."""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

from contracts.geometry import Pose
from contracts.observation import FOLLOWER, Observation
from contracts.perception import Perception


def benchmark(module: Perception, frames: list[np.ndarray], warmup: int = 3) -> dict[str, Any]:
    """Median and mean ms of ``detect`` per frame (after ``warmup`` untimed frames), and
    the detections per frame (the mask head's cost grows with them). The timed pass starts
    from the first frame, not the last one warmed up on: ``maskrcnn`` reuses the output for a
    frame seen again."""
    def observation(rgb: np.ndarray) -> Observation:
        return Observation(FOLLOWER, Pose(0.0, 0.0, 0.0, 0.0), False, None, True, "", [], rgb, None)

    for rgb in frames[:warmup]:
        module.detect(observation(rgb))
    times, found = [], []
    for rgb in frames:
        started = time.perf_counter()
        detections = module.detect(observation(rgb))
        times.append(1000 * (time.perf_counter() - started))
        found.append(len(detections))
    return {"ms_per_frame": round(statistics.median(times), 1), "ms_mean": round(statistics.fmean(times), 1),
            "frames": len(frames), "detections_per_frame": round(statistics.fmean(found), 2),
            "frame_size": list(frames[0].shape[:2]) if frames else None}
