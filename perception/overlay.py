"""``nesy detector overlay``: the module's masks drawn over frames of a set, for looking.

One row per frame: the frame with the ground truth's outlines, then the detections' masks
as the mask head pastes them (``edge_radius`` 0), then as the module gives them (snapped to
the frame's edges, ``perception.mask_edges``); each detection above ``score_threshold`` in
its own colour, outlined, with its class. No simulator imports here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from perception.coco import CocoFrames, decode_mask, read_annotations
from perception.maskrcnn import MaskRCNNPerception

CAPTION = 18
WHITE = (255, 255, 255)


def _colour(k: int) -> tuple[int, int, int]:
    import cv2

    hue = (k * 47) % 180
    return tuple(int(v) for v in cv2.cvtColor(np.uint8([[[hue, 220, 255]]]), cv2.COLOR_HSV2RGB)[0, 0])


def _outline(mask: np.ndarray) -> np.ndarray:
    import cv2

    m = mask.astype(np.uint8)
    return (m - cv2.erode(m, np.ones((3, 3), np.uint8))).astype(bool)


def _panel(rgb: np.ndarray, masks: list[np.ndarray], names: list[str], caption: str) -> np.ndarray:
    import cv2

    out = (rgb.astype(np.float32) * 0.6).astype(np.uint8)
    for k, (mask, name) in enumerate(zip(masks, names, strict=True)):
        colour = np.array(_colour(k), np.float32)
        out[mask] = (0.55 * out[mask] + 0.45 * colour).astype(np.uint8)
        out[_outline(mask)] = colour.astype(np.uint8)
        ys, xs = np.nonzero(mask)
        if len(ys):
            cv2.putText(out, name[:12], (int(xs.min()), max(int(ys.min()) - 2, 9)), cv2.FONT_HERSHEY_SIMPLEX, 0.33,
                        WHITE, 1, cv2.LINE_AA)
    strip = np.full((CAPTION, out.shape[1], 3), 255, np.uint8)
    cv2.putText(strip, caption, (4, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
    return np.concatenate([strip, out], axis=0)


def overlay(module: MaskRCNNPerception, data: Path, indices: list[int]) -> np.ndarray:
    """An RGB uint8 image: one row of three panels (see the module docstring) per frame index."""
    frames = CocoFrames(Path(data))
    annotations = read_annotations(Path(data))
    names = {c["id"]: c["name"] for c in annotations["categories"]}
    snapped_radius = module.params.edge_radius
    rows = []
    for index in indices:
        if not 0 <= index < len(frames):
            raise ValueError(f"frame {index} is not in {data} (it has {len(frames)} frames: 0-{len(frames) - 1})")
        rgb, image_id = frames.rgb(index), frames.images[index]["id"]
        truth = [a for a in annotations["annotations"] if a["image_id"] == image_id]
        panels = [_panel(rgb, [decode_mask(a["segmentation"]) for a in truth],
                         [names[a["category_id"]] for a in truth], "ground truth")]
        for radius, caption in ((0, "mask head, pasted"), (snapped_radius, f"snapped (radius {snapped_radius})")):
            module.params.edge_radius = radius
            try:
                out = module.predict(rgb)
            finally:
                module.params.edge_radius = snapped_radius
            keep = out["scores"] >= module.params.score_threshold
            panels.append(_panel(rgb, list(out["masks"][keep] >= module.params.mask_threshold),
                                 [module.classes[int(label) - 1] for label in out["labels"][keep]], caption))
        rows.append(np.concatenate(panels, axis=1))
    return np.concatenate(rows, axis=0)


def write_image(path: Path, image: np.ndarray) -> None:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    quality = [cv2.IMWRITE_JPEG_QUALITY, 88] if path.suffix.lower() in (".jpg", ".jpeg") else []
    cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR), quality)
