"""Overlay images of our rendered target mask against AI2-THOR's, for looking.

One overlay is two 300 x 300 panels side by side with a caption strip:
left, our RGB frame with AI2-THOR's mask outlined in red, ours in green, and AI2-THOR's
interaction point as a white cross; right, the two masks (green ours only, red AI2-THOR's
only, yellow both) over a dimmed frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

GREEN, RED, YELLOW, WHITE = (60, 220, 60), (235, 50, 50), (245, 215, 40), (255, 255, 255)
CAPTION = 22


def _outline(mask: np.ndarray) -> np.ndarray:
    import cv2

    m = mask.astype(np.uint8)
    return (cv2.dilate(m, np.ones((3, 3), np.uint8)) - m).astype(bool)


def overlay_image(rgb: np.ndarray, ours: np.ndarray, theirs: np.ndarray,
                  point: tuple[int, int], caption: str) -> np.ndarray:
    """An RGB uint8 image (H + caption) x 2W (see the module docstring)."""
    import cv2

    left = rgb.copy()
    left[_outline(theirs)] = RED
    left[_outline(ours)] = GREEN
    x, y = point
    cv2.drawMarker(left, (int(x), int(y)), WHITE, cv2.MARKER_CROSS, 9, 2)
    right = (rgb.astype(np.float32) * 0.35).astype(np.uint8)
    right[ours & ~theirs] = GREEN
    right[theirs & ~ours] = RED
    right[ours & theirs] = YELLOW
    cv2.drawMarker(right, (int(x), int(y)), WHITE, cv2.MARKER_CROSS, 9, 2)
    body = np.concatenate([left, right], axis=1)
    strip = np.full((CAPTION, body.shape[1], 3), 255, dtype=np.uint8)
    cv2.putText(strip, caption[:80], (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
    return np.concatenate([strip, body], axis=0)


def write_png(path: Path, image: np.ndarray) -> None:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR))


def grid(images: list[np.ndarray], columns: int) -> np.ndarray:
    """Tile equally sized images row by row (blank cells pad the last row)."""
    h, w, _ = images[0].shape
    rows = -(-len(images) // columns)
    out = np.full((rows * h, columns * w, 3), 255, dtype=np.uint8)
    for i, image in enumerate(images):
        r, c = divmod(i, columns)
        out[r * h:(r + 1) * h, c * w:(c + 1) * w] = image
    return out


class OverlayWriter:
    """Writes the first ``limit`` overlays as ``DIR/<nnnnn>_<action>_<type>_<iou>.png``."""

    def __init__(self, folder: str | Path, limit: int = 200) -> None:
        self.folder, self.limit, self.written = Path(folder), limit, 0

    def __call__(self, score, rgb: np.ndarray, ours: np.ndarray, theirs: np.ndarray) -> None:
        if self.written >= self.limit:
            return
        caption = (f"{score.action} {score.target_type}  IoU {score.iou:.2f}  "
                   f"hit {int(score.point_hit)}  {score.task_id[-13:]}@{score.low_idx}")
        image = overlay_image(rgb, ours, theirs, score.point, caption)
        name = f"{self.written:05d}_{score.action}_{score.target_type}_{score.iou:.2f}.png"
        write_png(self.folder / name, image)
        self.written += 1

