"""``nesy detector {data,train,eval,stages,regions,export}``: the Mask R-CNN perception pipeline
(docs/perception.md).

``data`` renders COCO sets with exact instance masks (train floor plans for OUT/train,
valid_unseen's for OUT/valid), ``train`` trains on a set on the CPU (seeded, checkpointed,
resumable: rerun the same command), ``eval`` scores weights with pycocotools, ``regions``
fits the region classifier to a weights file, ``export`` writes the shipped (float16) form
of a weights file.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent.cli.common import InputError, positive_int, print_json

ORDER = 58


def add_module_arguments(parser: argparse.ArgumentParser) -> None:
    """The maskrcnn module's files and mask settings (``module_params`` reads them back)."""
    parser.add_argument("--weights", default="", help="weights file (default: the shipped "
                        "perception/weights/maskrcnn.pt)")
    parser.add_argument("--region-classifier", default="", metavar="FILE",
                        help="a region classifier fitted to --weights (default: the shipped one with the shipped "
                        "weights; none: the box head's own classes)")
    parser.add_argument("--fine-segmenter", default="", metavar="FILE",
                        help="a fine segmenter fitted to --weights (default: the shipped one with the shipped "
                        "weights; none: the small things left to the network)")
    parser.add_argument("--edge-radius", type=int, default=None, metavar="PX",
                        help="the guided filter snapping masks to the frame's edges (default: the module's; "
                        "0: the mask head's masks as pasted)")
    parser.add_argument("--mask-threshold", type=float, default=None, help="mask probability threshold "
                        "(default: the module's)")


def module_params(args: argparse.Namespace) -> Any:
    """``MaskRCNNPerception.Params`` from ``add_module_arguments``' arguments and ``--threads``."""
    from perception.maskrcnn import MaskRCNNPerception

    chosen = {"edge_radius": args.edge_radius, "mask_threshold": args.mask_threshold}
    return MaskRCNNPerception.Params(weights=args.weights, threads=args.threads,
                                     region_classifier=args.region_classifier, fine_segmenter=args.fine_segmenter,
                                     **{key: value for key, value in chosen.items() if value is not None})


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "detector", help="Mask R-CNN perception: generate data, train, evaluate",
        description="Generate rendered COCO sets, train the maskrcnn perception module on the CPU, "
        "evaluate it (see docs/perception.md).",
    )
    sub = parser.add_subparsers(dest="detector_command", metavar="STEP", required=True)

    data = sub.add_parser("data", help="render COCO sets (OUT/train from train floor plans, OUT/valid from "
                          "valid_unseen) with exact instance masks (needs EGL)")
    data.add_argument("--out", required=True, help="folder for the sets (e.g. runs/detector/data)")
    data.add_argument("--train-images", type=int, default=2000, help="training images (0: none; default 2000)")
    data.add_argument("--valid-images", type=int, default=200, help="validation images (0: none; default 200)")
    data.add_argument("--frames-per-start", type=positive_int, default=8,
                      help="frames per randomised start state (default 8)")
    data.add_argument("--fov", type=float, nargs="+", default=[90.0],
                      help="vertical fields of view to draw from, one per start state (default 90; "
                      "ALFRED's camera is 60)")
    data.add_argument("--size", type=int, default=300, help="square frame size in pixels (default 300)")
    data.add_argument("--close-ups", type=float, default=0.0, metavar="FRACTION",
                      help="this fraction of the frames are close-ups of small pickupable objects, 0.5-1.25 m "
                      "away, their type drawn uniformly (default 0: the sets made before this option)")
    data.add_argument("--close-up-types", nargs="+", default=[], metavar="TYPE",
                      help="draw close-ups from these object types where a floor plan has them (default: every "
                      "pickupable type)")
    data.add_argument("--follower-episodes", type=int, default=0, metavar="N",
                      help="also OUT/follower: the Follower's own frames on N TATC train episodes, with exact "
                      "masks (default 0: none; rerun to resume; agent/follower_frames.py)")
    data.add_argument("--follower-valid-episodes", type=int, default=0, metavar="N",
                      help="also OUT/follower_valid: the same on N TATC valid_unseen episodes, to measure on "
                      "(default 0: none)")
    data.add_argument("--follower-every", type=positive_int, default=3, metavar="K",
                      help="keep every K-th frame the Follower acts on (default 3)")
    data.add_argument("--seed", type=int, default=0)
    data.add_argument("--workers", type=positive_int, default=2, help="processes (default 2)")
    data.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    data.set_defaults(handler=run_data)

    train = sub.add_parser("train", help="train on a set (CPU, seeded; rerun the same command to resume)")
    train.add_argument("--data", required=True, nargs="+",
                       help="folders from 'nesy detector data' (each one's train/ set is used), trained on together")
    train.add_argument("--out", required=True, help="run folder: checkpoints/, train_log.jsonl, maskrcnn.pt")
    train.add_argument("--steps", type=positive_int, default=20000)
    train.add_argument("--batch", type=positive_int, default=4)
    train.add_argument("--lr", type=float, default=0.005, help="peak learning rate (default 0.005 for batch 4)")
    train.add_argument("--warmup", type=positive_int, default=500, help="linear warm-up steps (default 500)")
    train.add_argument("--threads", type=positive_int, default=2, help="torch CPU threads (default 2)")
    train.add_argument("--checkpoint-every", type=positive_int, default=500)
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--backbone", choices=("imagenet", "scratch"), default="imagenet",
                       help="imagenet: MobileNetV2's ImageNet weights, frozen batch norm (default); scratch: "
                       "random weights, group norm, every block trained (the issue's comparison)")
    train.add_argument("--init", default="", metavar="WEIGHTS",
                       help="start from this weights file (e.g. perception/weights/maskrcnn.pt: continue the "
                       "shipped model) instead of the ImageNet backbone alone")
    train.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    train.set_defaults(handler=run_train)

    evaluate = sub.add_parser("eval", help="COCO mask/box mAP of weights on a set (pycocotools)")
    evaluate.add_argument("--data", required=True,
                          help="a folder from 'nesy detector data' (its valid/ set is used) or a set folder")
    add_module_arguments(evaluate)
    evaluate.add_argument("--limit", type=positive_int, default=None, help="evaluate the first N images only")
    evaluate.add_argument("--threads", type=positive_int, default=2, help="torch CPU threads (default 2)")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    evaluate.set_defaults(handler=run_eval)

    stage = sub.add_parser("stages", help="which stage loses a class: the RPN's proposals or the box head's "
                           "class for the exact ground-truth box")
    stage.add_argument("--data", required=True,
                       help="a set folder, or a folder from 'nesy detector data' (its valid/ set is used)")
    add_module_arguments(stage)
    stage.add_argument("--classes", nargs="+", default=[], metavar="CLASS", help="only these classes (default: all)")
    stage.add_argument("--limit", type=positive_int, default=None, help="the first N images only")
    stage.add_argument("--threads", type=positive_int, default=2, help="torch CPU threads (default 2)")
    stage.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    stage.set_defaults(handler=run_stages)

    regions = sub.add_parser("regions", help="fit the region classifier (the box head's feature plus each "
                             "region's pixels) to a weights file, on sets of train floor plans")
    regions.add_argument("--data", required=True, nargs="+", metavar="SET",
                         help="folders from 'nesy detector data' (their train/ sets are used) or set folders")
    regions.add_argument("--out", required=True, help="the region classifier file to write")
    regions.add_argument("--weights", default="", help="the Mask R-CNN weights it is fitted to (default: the shipped "
                         "perception/weights/maskrcnn.pt)")
    regions.add_argument("--images", type=positive_int, default=4000, help="frames per set at most (default 4000)")
    regions.add_argument("--epochs", type=positive_int, default=6)
    regions.add_argument("--balance", type=float, default=0.5,
                         help="class weights count ** -BALANCE (0: none; default 0.5)")
    regions.add_argument("--threads", type=positive_int, default=2, help="torch CPU threads (default 2)")
    regions.add_argument("--seed", type=int, default=0)
    regions.add_argument("--cache", default="", metavar="FOLDER",
                         help="keep each set's collected regions in FOLDER; a later fit of the same sets, frames and "
                         "weights reads them instead of collecting again (about 0.4 GB per 1,000 frames; keep it "
                         "under runs/)")
    regions.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    regions.set_defaults(handler=run_regions)

    fine = sub.add_parser("fine", help="fit the fine segmenter (where knives, sliced pieces and other small things "
                          "are, per pixel: proposals and masks for them) to a weights file, on sets of train floor plans")
    fine.add_argument("--data", required=True, nargs="+", metavar="SET",
                      help="folders from 'nesy detector data' (their train/ sets are used) or set folders")
    fine.add_argument("--tune", default="", metavar="SET",
                      help="a set of other train floor plans on which the proposals' and masks' shifts are chosen "
                      "(default: the segmenter's default shifts)")
    fine.add_argument("--out", required=True, help="the fine segmenter file to write (OUT.ckpt: its checkpoint; "
                      "the same command resumes from it)")
    fine.add_argument("--weights", default="", help="the Mask R-CNN weights it is fitted to (default: the shipped "
                      "perception/weights/maskrcnn.pt)")
    fine.add_argument("--images", type=positive_int, default=20000, help="frames per set at most (default 20000)")
    fine.add_argument("--epochs", type=positive_int, default=2)
    fine.add_argument("--threads", type=positive_int, default=2, help="torch CPU threads (default 2)")
    fine.add_argument("--seed", type=int, default=0)
    fine.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    fine.set_defaults(handler=run_fine)

    draw = sub.add_parser("overlay", help="draw frames of a set with the ground truth and the module's masks, "
                          "as pasted and snapped to the frame's edges (an image to look at)")
    draw.add_argument("--data", required=True,
                      help="a set folder, or a folder from 'nesy detector data' (its valid/ set is used)")
    draw.add_argument("--images", type=int, nargs="+", required=True, metavar="INDEX", help="frame indices in the set")
    draw.add_argument("--out", required=True, help="image file (.jpg or .png)")
    add_module_arguments(draw)
    draw.add_argument("--threads", type=positive_int, default=2, help="torch CPU threads (default 2)")
    draw.set_defaults(handler=run_overlay)

    export = sub.add_parser("export", help="write the shipped form (float16) of a weights file or checkpoint")
    export.add_argument("weights", help="a weights file or training checkpoint (e.g. runs/detector/train/maskrcnn.pt)")
    export.add_argument("--out", default="", help="target file (default: the shipped perception/weights/maskrcnn.pt)")
    export.add_argument("--json", action="store_true", help="print one JSON object (last line)")
    export.set_defaults(handler=run_export)


def _set_folder(folder: str, preferred: str) -> Path:
    """``folder/preferred`` when it holds a set, else ``folder`` itself."""
    root = Path(folder)
    if (root / preferred / "annotations.json").is_file():
        return root / preferred
    if (root / "annotations.json").is_file():
        return root
    raise InputError(f"{root}: no COCO set there (expected {root / preferred / 'annotations.json'}); "
                     f"make one with: nesy detector data --out {root}")


def _emit(result: dict, as_json: bool) -> int:
    if as_json:
        print_json(result)
    else:
        print(json.dumps(result, indent=2))
    return 0


def run_data(args: argparse.Namespace) -> int:
    from perception.classes import CLASSES
    from perception.data_gen import DataSpec, generate

    counts = (args.train_images, args.valid_images, args.follower_episodes, args.follower_valid_episodes)
    if min(counts) < 0 or sum(counts) == 0:
        raise InputError("--train-images, --valid-images, --follower-episodes and --follower-valid-episodes "
                         "must be at least 0, and not all 0")
    if not 64 <= args.size <= 900:
        raise InputError(f"--size must be 64..900 pixels (the renderer's limits), got {args.size}")
    if not 0.0 <= args.close_ups <= 1.0:
        raise InputError(f"--close-ups is a fraction of the frames, 0..1, got {args.close_ups}")
    unknown = sorted(set(args.close_up_types) - set(CLASSES))
    if unknown:
        raise InputError(f"--close-up-types: not detector classes: {', '.join(unknown)} (see perception/classes.py)")
    if any(not 1 <= f <= 179 for f in args.fov):
        raise InputError(f"--fov values must be 1..179 degrees, got {args.fov}")
    out = Path(args.out)
    jobs = [("train", "train", args.train_images, args.seed), ("valid", "valid_unseen", args.valid_images, args.seed + 1)]
    for folder, _, images, _ in jobs:
        if images and (out / folder / "annotations.json").exists():
            raise InputError(f"{out / folder} already holds a set; choose another --out or delete it")
    result = {}
    for folder, split, images, seed in jobs:
        if images:
            spec = DataSpec(split, images, seed=seed, frames_per_start=args.frames_per_start, size=args.size,
                            fields_of_view=tuple(args.fov), p_close_up=args.close_ups,
                            close_up_types=tuple(args.close_up_types))
            result[folder] = generate(spec, out / folder, workers=args.workers)
    from agent.follower_frames import FollowerFrameSpec, generate_follower_frames

    for folder, split, episodes in (("follower", "train", args.follower_episodes),
                                    ("follower_valid", "valid_unseen", args.follower_valid_episodes)):
        if episodes:
            spec = FollowerFrameSpec(episodes, split=split, every=args.follower_every)
            result[folder] = generate_follower_frames(spec, out / folder, workers=args.workers)
    return _emit(result, args.json)


def run_train(args: argparse.Namespace) -> int:
    from perception.maskrcnn_model import scratch_config
    from perception.train import TrainSpec, train

    data = tuple(str(_set_folder(folder, "train")) for folder in args.data)
    spec = TrainSpec(data=data[0] if len(data) == 1 else data, out=args.out, steps=args.steps, batch=args.batch, lr=args.lr,
                     warmup=args.warmup, seed=args.seed, threads=args.threads,
                     checkpoint_every=args.checkpoint_every, init=args.init)
    if args.backbone == "scratch":
        if args.init:
            raise InputError("--backbone scratch starts from random weights; drop --init, or drop --backbone "
                             "to continue the weights file")
        spec = replace(spec, pretrained=False, model=scratch_config(spec.model))
    return _emit(train(spec), args.json)


def run_eval(args: argparse.Namespace) -> int:
    import torch

    from perception.evaluate import evaluate
    from perception.maskrcnn import MaskRCNNPerception

    data = _set_folder(args.data, "valid")
    torch.set_num_threads(args.threads)
    module = MaskRCNNPerception(module_params(args))
    result = evaluate(module, data, limit=args.limit)
    result = {**result, "data": str(data), "weights": args.weights or "shipped", "threads": args.threads}
    return _emit(result, args.json)


def run_regions(args: argparse.Namespace) -> int:
    import torch

    from perception.maskrcnn import MaskRCNNPerception
    from perception.maskrcnn_model import DEFAULT_WEIGHTS, sha256
    from perception.region_fit import RegionFitSpec, fit
    from perception.train import check_training_set

    sets = tuple(str(_set_folder(folder, "train")) for folder in args.data)
    for folder in sets:
        check_training_set(Path(folder))
    torch.set_num_threads(args.threads)
    weights = Path(args.weights) if args.weights else DEFAULT_WEIGHTS
    module = MaskRCNNPerception(MaskRCNNPerception.Params(weights=str(weights), threads=args.threads,
                                                          region_classifier="none"))
    spec = RegionFitSpec(data=sets, out=args.out, images=args.images, epochs=args.epochs, balance=args.balance,
                         seed=args.seed, cache=args.cache)
    return _emit(fit(spec, module, sha256(weights)), args.json)


def run_fine(args: argparse.Namespace) -> int:
    import torch

    from perception.fine_fit import FineFitSpec, fit
    from perception.maskrcnn import MaskRCNNPerception
    from perception.train import check_training_set

    sets = tuple(str(_set_folder(folder, "train")) for folder in args.data)
    tune = str(_set_folder(args.tune, "train")) if args.tune else ""
    for folder in sets + ((tune,) if tune else ()):
        check_training_set(Path(folder))
    if tune and any(Path(tune).resolve() == Path(folder).resolve() for folder in sets):
        raise InputError(f"--tune {tune} is also a training set; tune on frames the fit does not see")
    torch.set_num_threads(args.threads)
    module = MaskRCNNPerception(MaskRCNNPerception.Params(weights=args.weights, threads=args.threads,
                                                          fine_segmenter="none"))
    spec = FineFitSpec(data=sets, out=args.out, tune=tune, images=args.images, epochs=args.epochs, seed=args.seed)
    try:
        return _emit(fit(spec, module, module.weights_sha256), args.json)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def run_stages(args: argparse.Namespace) -> int:
    import torch

    from perception.maskrcnn import MaskRCNNPerception
    from perception.stages import stages

    data = _set_folder(args.data, "valid")
    torch.set_num_threads(args.threads)
    module = MaskRCNNPerception(module_params(args))
    try:
        result = stages(module, data, classes=tuple(args.classes), limit=args.limit)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return _emit({**result, "data": str(data), "weights": args.weights or "shipped"}, args.json)


def run_overlay(args: argparse.Namespace) -> int:
    from perception.maskrcnn import MaskRCNNPerception
    from perception.overlay import overlay, write_image

    data = _set_folder(args.data, "valid")
    try:
        image = overlay(MaskRCNNPerception(module_params(args)), data, args.images)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    write_image(Path(args.out), image)
    print(f"wrote {args.out} ({image.shape[1]} x {image.shape[0]} px)")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from perception.maskrcnn_model import DEFAULT_WEIGHTS, export_weights

    target = Path(args.out) if args.out else DEFAULT_WEIGHTS
    return _emit(export_weights(Path(args.weights), target), args.json)
