"""The fine segmenter: where the small and thin things are, as proposals for the Mask R-CNN.

The shipped Mask R-CNN's RPN sees feature maps of stride 8 and more, so a knife 6 px wide
is under one cell and rarely gets a proposal (21% of knives; knife mask AP@0.5 0.06),
while its box head with the region classifier names 53% of knives and 70-94% of sliced
pieces right given their exact boxes (docs/perception.md). The fine segmenter labels every
pixel small thing (any of ``classes``: cutlery, sliced pieces, pens...) or not, from the
backbone's stride-4 block (MobileNetV2 block 3), the FPN's stride-8 level for context, and
the frame's own pixels folded into each stride-4 cell; each cell's logits unfold into 2 x 2
cells of stride 2 (``pixel_shuffle``). The box of each connected region of small-thing
pixels (``region_boxes``; regions taken at more than one level of certainty, so that
things that touch are parted at the higher ones) joins the RPN's proposals; the box head
and the region classifier then name and place it as any other proposal, and a small
thing's mask is the segmenter's pixels inside its box (``refined_masks``). The Mask R-CNN
is not changed: its features are read as they are computed (``FeatureTap``).

It is fitted to one set of Mask R-CNN weights (``perception.fine_fit``) and its file records
that file's SHA-256; loading it next to other weights is refused. A file is ``torch.save``
of a plain dict (``format``, ``config``, ``classes``, ``state``, ``meta``), read with
``torch.load(..., weights_only=True)``. No simulator imports here.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from perception.maskrcnn_model import WeightsError, config_from_dict, half_weights, load_fitted

FORMAT = "nesy-fine-segmenter-v1"
DEFAULT_FINE_WEIGHTS = Path(__file__).resolve().parent / "weights" / "fine_segmenter.pt"
MAKE_FINE_WEIGHTS = "nesy detector fine --data runs/detector/data --out runs/detector/fine.pt (docs/perception.md)"
FINE_BLOCK = "3"  # MobileNetV2's last stride-4 block (24 channels), inside the Mask R-CNN's frozen blocks
FINE_CLASSES = (
    "Knife", "ButterKnife", "Fork", "Spoon", "Spatula", "Ladle", "Pen", "Pencil", "CD", "CreditCard",
    "KeyChain", "Watch", "CellPhone", "SaltShaker", "PepperShaker", "DishSponge", "SoapBar",
    "AppleSliced", "BreadSliced", "LettuceSliced", "PotatoSliced", "TomatoSliced", "EggCracked",
)


@dataclass(frozen=True)
class FineConfig:
    """Everything that shapes the fine segmenter (saved in its file)."""

    classes: tuple[str, ...] = FINE_CLASSES  # the detector classes whose pixels are small things
    fine_channels: int = 24  # the stride-4 block's channels
    coarse_channels: int = 128  # the FPN's channels
    context: int = 48  # the stride-8 level reduced to this many channels
    width: int = 64
    stride: int = 4  # the fine block's stride (the frame's pixels are folded into its cells)
    unfold: int = 2  # each cell's logits unfold into unfold x unfold cells of stride ``stride / unfold``
    min_pixels: int = 10  # smaller regions are no instance (the data sets' own floor)
    # a small thing's pixel weighs this many other pixels in the fit's loss (they are about 1
    # in 300 of a frame's pixels); at inference the regions are taken at each of ``shifts``:
    # shift x log(object_weight) taken off the small things' logit (1: calibrated
    # probabilities; 0: the fit's leaning to small things kept, larger regions; 2: only the
    # surest cores, which part things that touch, such as the slices of one apple); chosen
    # on tuning frames
    object_weight: float = 20.0
    shifts: tuple[float, ...] = (1.0,)
    # the mask of a detection of one of ``classes`` is the small-thing pixels in its box at
    # this shift (the mask head's 28 x 28 masks from stride-8 features are blobs around a
    # knife 6 px wide); negative: the mask head's masks kept
    mask_shift: float = 1.0

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> FineConfig:
        return config_from_dict(cls, raw, "fine segmenter", tuples=("classes", "shifts"))


def build_fine_segmenter(config: FineConfig):
    import torch
    from torch import nn
    from torch.nn import functional

    def separable(width: int, dilation: int) -> list:
        return [nn.Conv2d(width, width, 3, padding=dilation, dilation=dilation, groups=width),
                nn.Conv2d(width, width, 1), nn.ReLU(inplace=True)]

    class FineSegmenter(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            s, w = config.stride, config.width
            self.context = nn.Sequential(nn.Conv2d(config.coarse_channels, config.context, 1), nn.ReLU(inplace=True))
            self.mix = nn.Sequential(
                nn.Conv2d(config.fine_channels + config.context + 3 * s * s, w, 1), nn.ReLU(inplace=True),
                *separable(w, 1), *separable(w, 2), *separable(w, 4),
                nn.Conv2d(w, 2 * config.unfold ** 2, 1),
            )

        def forward(self, fine, coarse, pixels):
            """Logits (B x 2 x H/2 x W/2: other, small thing) from the stride-4 block (B x
            fine_channels x H/4 x W/4), the FPN's stride-8 level and the network's normalised
            input (B x 3 x H x W)."""
            size = fine.shape[-2:]
            context = functional.interpolate(self.context(coarse), size=size, mode="nearest")
            folded = functional.pixel_unshuffle(pixels[..., :size[0] * config.stride, :size[1] * config.stride],
                                                config.stride)
            return functional.pixel_shuffle(self.mix(torch.cat([fine, context, folded], dim=1)), config.unfold)

    return FineSegmenter()


class FeatureTap:
    """The Mask R-CNN's backbone run for the fine segmenter: the network's normalised, padded
    input, its stride-4 block's output (a forward hook) and the FPN's stride-8 level."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.fine = None
        model.backbone.body[FINE_BLOCK].register_forward_hook(self._keep)

    def _keep(self, _module, _inputs, output) -> None:
        self.fine = output

    def inputs(self, features: Any) -> tuple[Any, Any]:
        """(stride-4 block, stride-8 level) of the backbone pass that made ``features``."""
        return self.fine, features["0"]

    def channels(self) -> tuple[int, int]:
        """(the stride-4 block's channels, the FPN's channels)."""
        return self.model.backbone.body[FINE_BLOCK].out_channels, self.model.backbone.out_channels

    def __call__(self, images: list[Any]) -> tuple[Any, Any, Any, tuple[int, int]]:
        """(normalised padded input, stride-4 block, stride-8 level, the frames' size (H, W)
        in the input) of a list of frames of one size."""
        transformed, _ = self.model.transform(images)
        features = self.model.backbone(transformed.tensors)
        return transformed.tensors, self.fine, features["0"], tuple(transformed.image_sizes[0])


def full_logits(logits, config: FineConfig):
    """The segmenter's logits resampled to the network's input pixels (training's loss)."""
    from torch.nn import functional

    return functional.interpolate(logits, scale_factor=config.stride // config.unfold, mode="bilinear",
                                  align_corners=False)


def margins(logits, config: FineConfig, size: tuple[int, int]) -> np.ndarray:
    """H x W: the small thing's logit over the other's at the frame's pixels in the network's
    input (``size``), from one frame's logits (2 x h x w over the padded input)."""
    return full_logits((logits[1] - logits[0])[None, None], config)[0, 0, :size[0], :size[1]].numpy()


def refined_masks(out: dict[str, np.ndarray], margin: np.ndarray, config: FineConfig,
                  classes: tuple[str, ...], among: np.ndarray | None = None) -> np.ndarray:
    """``out``'s masks (N x H x W) with each detection of one of ``config.classes`` outlined
    by the small-thing pixels inside its box (``margin`` above ``mask_shift``, at the
    frame's pixels), where they are at least ``min_pixels``; ``classes``: the detector's;
    ``among`` (a flag per detection): only the flagged ones."""
    masks = out["masks"]
    if config.mask_shift < 0 or not len(masks):
        return masks
    where = margin > config.mask_shift * math.log(config.object_weight)
    masks = masks.copy()
    for k, (box, label) in enumerate(zip(out["boxes"], out["labels"], strict=True)):
        if classes[int(label) - 1] not in config.classes or (among is not None and not among[k]):
            continue
        x0, y0 = int(max(box[0], 0)), int(max(box[1], 0))
        x1, y1 = int(math.ceil(box[2])), int(math.ceil(box[3]))
        inside = np.zeros_like(where)
        inside[y0:y1, x0:x1] = where[y0:y1, x0:x1]
        if inside.sum() >= config.min_pixels:
            masks[k] = inside
    return masks


def region_boxes(margin: np.ndarray, config: FineConfig):
    """The boxes (N x 4, x0 y0 x1 y1 in ``margin``'s pixels, no two alike) of the connected
    regions of at least ``min_pixels`` where a small thing is more probable than not, the
    fit's leaning taken back by each of ``shifts`` (``margin``: from ``margins``)."""
    import cv2
    import torch

    boxes = set()
    for shift in config.shifts:
        where = (margin > shift * math.log(config.object_weight)).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(where, connectivity=8)
        boxes.update((x, y, x + w, y + h) for x, y, w, h, area in stats[1:] if area >= config.min_pixels)
    return torch.tensor(sorted(boxes), dtype=torch.float32).reshape(-1, 4)


def save_fine_segmenter(path: Path, model, config: FineConfig, meta: dict[str, Any]) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    config_dict = {**asdict(config), "classes": list(config.classes), "shifts": list(config.shifts)}
    torch.save({"format": FORMAT, "config": config_dict, "classes": list(config.classes),
                "state": half_weights(model.state_dict()), "meta": meta}, tmp)
    tmp.replace(path)


def load_fine_segmenter(path: Path, detector_classes: tuple[str, ...], base_sha256: str):
    """(model in eval mode, config, meta) of a fine segmenter file fitted to the Mask R-CNN
    weights whose SHA-256 is ``base_sha256``; one clear ``WeightsError`` otherwise."""
    import torch

    def build(raw: dict[str, Any]):
        config = FineConfig.from_dict(raw["config"])
        model = build_fine_segmenter(config)
        model.load_state_dict(raw["state"])
        return model, config

    model, config, _, meta = load_fitted(path, "fine segmenter", FORMAT, MAKE_FINE_WEIGHTS, "fine_segmenter",
                                         base_sha256, build)
    if set(config.classes) - set(detector_classes):
        raise WeightsError(f"{path}: its classes are not all detector classes; make it again with: {MAKE_FINE_WEIGHTS}")
    return model.float().eval().to(memory_format=torch.channels_last), config, meta
