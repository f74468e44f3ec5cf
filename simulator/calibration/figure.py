"""A grid of overlays (ours vs AI2-THOR's masks) for docs/calibration.md, for judging by eye.

    python -m simulator.calibration.figure TRAJECTORIES MASKS --out docs/images/calibration_after.png

Takes every ``--stride``-th trajectory (default 400) and one interaction per action type
in it, up to ``--count`` overlays, each halved in size; deterministic.
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from simulator.alfred.trajectories import load_trajectories
from simulator.calibration.check import check_masks
from simulator.calibration.masks import MaskIndex
from simulator.calibration.overlays import grid, overlay_image, write_png


def collect(trajectories_path: str, masks_path: str, stride: int, count: int) -> tuple[list[np.ndarray], dict]:
    import cv2

    images: list[np.ndarray] = []
    seen: set[tuple[str, str]] = set()

    def sink(score, rgb, ours, theirs) -> None:
        key = (score.task_id, score.action)
        if key in seen or len(images) >= count:
            return
        seen.add(key)
        caption = f"{score.action[:-6]} {score.target_type} IoU {score.iou:.2f} hit {int(score.point_hit)}"
        image = overlay_image(rgb, ours, theirs, score.point, caption)
        images.append(cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA))

    sample = itertools.islice(load_trajectories(trajectories_path), 0, None, stride)
    summary = check_masks(sample, MaskIndex(masks_path), overlay=sink).summary()
    return images, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trajectories")
    parser.add_argument("masks")
    parser.add_argument("--out", required=True)
    parser.add_argument("--stride", type=int, default=400)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--columns", type=int, default=4)
    args = parser.parse_args(argv)
    images, summary = collect(args.trajectories, args.masks, args.stride, args.count)
    from pathlib import Path

    write_png(Path(args.out), grid(images, args.columns))
    print(f"{args.out}: {len(images)} overlays; sample mean IoU {summary['mean_iou']:.3f}, "
          f"point hit {summary['point_hit_rate']:.3f}, visible {summary['visible_rate']:.3f}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
