"""The region classifier: the Mask R-CNN's class decision made again with each region's pixels.

The shipped Mask R-CNN pools every proposal from feature maps of stride 8 and more, so a
knife 6 px wide is under one feature cell: given a knife's exact box, its box head says
background (``nesy detector stages``, docs/perception.md). The region classifier takes
the box head's 512-d feature of a proposal, plus the proposal's own pixels (the frame
resampled inside the box grown by ``context``, ``crop`` x ``crop``, through a small CNN)
and its size and shape, and gives the class logits in place of the box predictor's. Its
last layer starts as the box predictor's classifier and the pixel branch's share starts at
zero, so before fitting it decides exactly as the network does. Box regression and masks
stay the network's.

It is fitted to one set of Mask R-CNN weights (``perception.region_fit``) and its file
records that file's SHA-256; loading it next to other weights is refused. A weights file
is ``torch.save`` of a plain dict (``format``, ``config``, ``classes``, ``state``,
``meta``), read with ``torch.load(..., weights_only=True)``. No simulator imports here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perception.maskrcnn_model import WeightsError, config_from_dict, half_weights, load_fitted

FORMAT = "nesy-region-classifier-v1"
DEFAULT_REGION_WEIGHTS = Path(__file__).resolve().parent / "weights" / "region_classifier.pt"
MAKE_REGION_WEIGHTS = "nesy detector regions --data runs/detector/data --out runs/detector/regions.pt (docs/perception.md)"


@dataclass(frozen=True)
class RegionConfig:
    """Everything that shapes the region classifier (saved in its file)."""

    num_classes: int  # object classes, without the background
    feature: int = 512  # the box head's representation width
    crop: int = 32  # pixels per side of a region's resampled crop
    context: float = 0.1  # the box grown by this fraction of its size on each side before cropping
    channels: tuple[int, int, int] = (24, 48, 64)
    hidden: int = 256

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> RegionConfig:
        return config_from_dict(cls, raw, "region classifier", tuples=("channels",))


def build_region_classifier(config: RegionConfig, base_classifier=None):
    """The network; ``base_classifier`` (the box predictor's ``cls_score`` Linear) gives its
    last layer's starting weights."""
    import torch
    from torch import nn

    class RegionClassifier(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c1, c2, c3 = config.channels
            self.pixels = nn.Sequential(
                nn.Conv2d(3, c1, 3, stride=2, padding=1), nn.ReLU(inplace=True),
                nn.Conv2d(c1, c2, 3, stride=2, padding=1), nn.ReLU(inplace=True),
                nn.Conv2d(c2, c3, 3, padding=1), nn.ReLU(inplace=True),
                nn.AdaptiveAvgPool2d(2), nn.Flatten(),
            )
            self.mix = nn.Sequential(nn.Linear(4 * c3 + 2 + config.feature, config.hidden), nn.ReLU(inplace=True),
                                     nn.Linear(config.hidden, config.num_classes + 1))
            nn.init.zeros_(self.mix[2].weight)
            nn.init.zeros_(self.mix[2].bias)
            self.base = nn.Linear(config.feature, config.num_classes + 1)
            if base_classifier is not None:
                self.base.load_state_dict(base_classifier.state_dict())

        def forward(self, features, crops, shapes):
            """Class logits (N x classes + 1) from box head features (N x feature), crops (N x 3
            x crop x crop in [0, 1]) and shapes (N x 2, ``region_inputs``)."""
            pixels = self.pixels(crops - 0.5)
            return self.base(features) + self.mix(torch.cat([features, pixels, shapes], dim=1))

    return RegionClassifier()


def region_inputs(image, boxes, config: RegionConfig):
    """(crops, shapes) of ``boxes`` (N x 4, x0 y0 x1 y1 pixels) in ``image`` (3 x H x W in [0,
    1]); a shape is the log of the box's width and height over the frame's longer side."""
    import torch
    from torchvision.ops import roi_align

    size = (boxes[:, 2:] - boxes[:, :2]).clamp(min=1.0)
    grown = torch.cat([boxes[:, :2] - config.context * size, boxes[:, 2:] + config.context * size], dim=1)
    crops = roi_align(image[None], [grown], output_size=config.crop, spatial_scale=1.0, sampling_ratio=2,
                      aligned=True)
    shapes = torch.log(size / max(image.shape[1:]))
    return crops, shapes


def save_region_classifier(path: Path, model, config: RegionConfig, classes: tuple[str, ...],
                           meta: dict[str, Any]) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    state = half_weights(model.state_dict())
    config_dict = {**asdict(config), "channels": list(config.channels)}
    torch.save({"format": FORMAT, "config": config_dict, "classes": list(classes), "state": state, "meta": meta}, tmp)
    tmp.replace(path)


def load_region_classifier(path: Path, classes: tuple[str, ...], base_sha256: str):
    """(model in eval mode, config, meta) of a region classifier file fitted to the Mask
    R-CNN weights whose SHA-256 is ``base_sha256``; one clear ``WeightsError`` otherwise."""
    def build(raw: dict[str, Any]):
        config = RegionConfig.from_dict(raw["config"])
        model = build_region_classifier(config)
        model.load_state_dict(raw["state"])
        return model, config

    model, config, raw, meta = load_fitted(path, "region classifier", FORMAT, MAKE_REGION_WEIGHTS,
                                           "region_classifier", base_sha256, build)
    if tuple(raw["classes"]) != tuple(classes):
        raise WeightsError(f"{path}: fitted to other detector classes; make it again with: {MAKE_REGION_WEIGHTS}")
    return model.float().eval(), config, meta
