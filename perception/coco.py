"""COCO-format detection sets: writing one from instance masks, reading it back, and the
training ``Dataset`` over it. No simulator imports (the model side uses it too).

A set is a folder: ``images/NNNNNNN.png`` (RGB) and ``annotations.json`` (COCO: ``images``,
``annotations`` with compressed-RLE ``segmentation``, ``bbox`` as [x, y, w, h], ``area`` =
mask pixels, ``iscrowd`` 0; ``categories`` with ids ``k + 1`` for ``CLASSES[k]``; ``info``
saying how the set was made).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from contracts.errors import NesyError
from perception.classes import CLASSES

ANNOTATIONS = "annotations.json"


class DatasetError(NesyError):
    """A missing or malformed COCO detection set."""


@dataclass(frozen=True)
class InstanceMask:
    """One object's exact mask in one frame."""

    object_type: str
    mask: np.ndarray  # H x W bool


def encode_mask(mask: np.ndarray) -> dict[str, Any]:
    """COCO compressed RLE of an H x W bool mask (``counts`` as text, JSON-ready)."""
    from pycocotools import mask as mask_utils

    rle = mask_utils.encode(np.asfortranarray(mask.astype(np.uint8)))
    return {"size": [int(v) for v in rle["size"]], "counts": rle["counts"].decode("ascii")}


def decode_mask(segmentation: dict[str, Any]) -> np.ndarray:
    from pycocotools import mask as mask_utils

    rle = {"size": segmentation["size"], "counts": segmentation["counts"].encode("ascii")}
    with warnings.catch_warnings():  # pycocotools' own numpy 2 DeprecationWarning (copy=False)
        warnings.simplefilter("ignore", DeprecationWarning)
        return mask_utils.decode(rle).astype(bool)


def annotate(image_id: int, instances: list[InstanceMask], first_id: int) -> list[dict[str, Any]]:
    """COCO annotation records of one frame's instances (ids from ``first_id``)."""
    out = []
    for k, inst in enumerate(instances):
        rows = np.flatnonzero(inst.mask.any(axis=1))
        cols = np.flatnonzero(inst.mask.any(axis=0))
        x0, y0, x1, y1 = int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1
        out.append({
            "id": first_id + k, "image_id": image_id,
            "category_id": CLASSES.index(inst.object_type) + 1,
            "segmentation": encode_mask(inst.mask), "area": int(inst.mask.sum()),
            "bbox": [x0, y0, x1 - x0, y1 - y0], "iscrowd": 0,
        })
    return out


def corner_boxes(anns: list[dict[str, Any]]) -> np.ndarray:
    """The annotations' COCO boxes (x, y, width, height) as an N x 4 float32 array of corners
    (x0, y0, x1, y1), the form torchvision's detection models take."""
    return np.array([[a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]]
                     for a in anns], dtype=np.float32).reshape(-1, 4)


def image_tensor(rgb: np.ndarray) -> Any:
    """An H x W x 3 uint8 frame as the 3 x H x W float tensor in [0, 1] the network takes."""
    import torch

    return torch.from_numpy(np.ascontiguousarray(rgb)).permute(2, 0, 1).float().div_(255.0)


def categories() -> list[dict[str, Any]]:
    return [{"id": k + 1, "name": name, "supercategory": "object"} for k, name in enumerate(CLASSES)]


def write_annotations(folder: Path, images: list[dict], annotations: list[dict], info: dict) -> Path:
    path = folder / ANNOTATIONS
    payload = {"info": info, "images": images, "annotations": annotations, "categories": categories()}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload), encoding="utf-8")
    tmp.replace(path)
    return path


def read_annotations(folder: Path) -> dict[str, Any]:
    """The COCO dict of a set folder, checked against our class list."""
    path = Path(folder) / ANNOTATIONS
    if not path.is_file():
        raise DatasetError(f"{path}: no such file; make the set with: nesy detector data --out {folder}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        names = [c["name"] for c in sorted(data["categories"], key=lambda c: c["id"])]
        data["images"], data["annotations"]  # noqa: B018 -- required keys
    except (json.JSONDecodeError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: not a COCO annotations file ({type(exc).__name__}: {exc})") from None
    if tuple(names) != CLASSES:
        raise DatasetError(f"{path}: its {len(names)} categories are not the detector's {len(CLASSES)} "
                           "classes (perception/classes.py); regenerate it with nesy detector data")
    return data


class CocoFrames:
    """A COCO set as (image tensor, target dict) pairs for torchvision's Mask R-CNN; an
    optional horizontal flip decided by the caller (so training stays seeded and resumable)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        data = read_annotations(self.folder)
        self.images = sorted(data["images"], key=lambda im: im["id"])
        self.by_image: dict[int, list[dict]] = {im["id"]: [] for im in self.images}
        for ann in data["annotations"]:
            self.by_image.setdefault(ann["image_id"], []).append(ann)

    def __len__(self) -> int:
        return len(self.images)

    def rgb(self, index: int) -> np.ndarray:
        import cv2

        path = self.folder / "images" / self.images[index]["file_name"]
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if bgr is None:
            raise DatasetError(f"{path}: missing or unreadable image of the set in {self.folder}")
        return bgr[:, :, ::-1]

    def item(self, index: int, flip: bool = False) -> tuple[Any, dict[str, Any]]:
        import torch

        rgb = self.rgb(index)
        anns = self.by_image[self.images[index]["id"]]
        h, w = rgb.shape[:2]
        masks = np.stack([decode_mask(a["segmentation"]) for a in anns]) if anns else np.zeros((0, h, w), bool)
        boxes = corner_boxes(anns)
        if flip:
            rgb, masks = rgb[:, ::-1], masks[:, :, ::-1]
            boxes = np.stack([w - boxes[:, 2], boxes[:, 1], w - boxes[:, 0], boxes[:, 3]], axis=1)
        image = image_tensor(rgb)
        target = {
            "boxes": torch.from_numpy(np.ascontiguousarray(boxes, dtype=np.float32)),
            "labels": torch.tensor([a["category_id"] for a in anns], dtype=torch.int64),
            "masks": torch.from_numpy(np.ascontiguousarray(masks, dtype=np.uint8)),
        }
        return image, target


class FrameSets:
    """Several ``CocoFrames`` trained on as one: index ``i`` runs through the first set's
    frames, then the next set's."""

    def __init__(self, sets: list[CocoFrames]) -> None:
        self.sets = sets
        self.starts = np.cumsum([0] + [len(s) for s in sets])

    def __len__(self) -> int:
        return int(self.starts[-1])

    def item(self, index: int, flip: bool = False) -> tuple[Any, dict[str, Any]]:
        k = int(np.searchsorted(self.starts, index, side="right")) - 1
        return self.sets[k].item(index - int(self.starts[k]), flip=flip)
