"""perception.mask_edges: a mask head's blurred, misplaced border snapped to the frame's edges;
the shipped module's snapped masks fit the reference frame's objects better than the pasted
ones; ``nesy detector overlay`` draws both."""

import numpy as np
from test_maskrcnn import reference_frame, tiny_run  # noqa: F401  (pytest fixtures)

from perception.mask_edges import snapped_masks
from perception.maskrcnn import MaskRCNNPerception


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / (a | b).sum())


def test_a_blurred_mask_is_snapped_to_the_object_it_outlines():
    """A mask pasted with a soft border two pixels off (a 28 x 28 mask blown up) fits the
    rendered object better once snapped, and the background stays out."""
    import cv2

    rgb = np.full((120, 160, 3), (200, 190, 180), np.uint8)
    rgb[30:90, 40:110] = (60, 80, 120)  # the object
    truth = np.zeros(rgb.shape[:2], bool)
    truth[30:90, 40:110] = True
    pasted = np.zeros(rgb.shape[:2], np.float32)
    pasted[32:92, 42:112] = 1.0  # the head's mask: two pixels off, its border a soft band
    pasted = cv2.GaussianBlur(pasted, (0, 0), 2.5)
    before = _iou(pasted >= 0.45, truth)
    snapped = snapped_masks(pasted[None], rgb, radius=3, eps=1e-4)
    after = _iou(snapped[0] >= 0.45, truth)
    assert after > before + 0.03 and after > 0.9, (before, after)
    assert not (snapped[0] >= 0.45)[:, :30].any()


def test_radius_zero_and_no_masks_leave_the_masks_as_they_are():
    rgb = np.zeros((20, 30, 3), np.uint8)
    masks = np.random.default_rng(0).random((2, 20, 30)).astype(np.float32)
    assert snapped_masks(masks, rgb, radius=0, eps=1e-4) is masks
    empty = np.zeros((0, 20, 30), np.float32)
    assert snapped_masks(empty, rgb, radius=3, eps=1e-4) is empty


def test_the_detector_commands_set_the_snapping_or_keep_the_modules_default():
    import argparse

    from agent.cli.detector import add_module_arguments, module_params

    parser = argparse.ArgumentParser()
    add_module_arguments(parser)
    parser.add_argument("--threads", type=int, default=1)
    default = MaskRCNNPerception.Params()
    shipped = module_params(parser.parse_args([]))
    assert (shipped.edge_radius, shipped.mask_threshold) == (default.edge_radius, default.mask_threshold)
    plain = module_params(parser.parse_args(["--edge-radius", "0", "--mask-threshold", "0.5"]))
    assert (plain.edge_radius, plain.mask_threshold) == (0, 0.5)


def test_the_shipped_modules_snapped_masks_fit_the_reference_frames_objects_better(reference_frame):  # noqa: F811
    rgb, truth = reference_frame

    def best_ious(radius: int) -> list[float]:
        module = MaskRCNNPerception(MaskRCNNPerception.Params(edge_radius=radius))
        out = module.predict(rgb)
        masks = out["masks"] >= module.params.mask_threshold
        names = [module.classes[int(label) - 1] for label in out["labels"]]
        return [max(_iou(mask, object_mask) for mask, name in zip(masks, names, strict=True) if name == object_type)
                for object_type in ("Fridge", "CounterTop", "Cabinet", "Microwave") for object_mask in truth[object_type]]

    pasted, snapped = best_ious(0), best_ious(MaskRCNNPerception.Params().edge_radius)
    assert len(pasted) >= 8 and all(after >= before for before, after in zip(pasted, snapped, strict=True))
    assert np.mean(snapped) > np.mean(pasted) + 0.02, (pasted, snapped)


def test_the_overlay_command_draws_a_row_per_frame_and_names_a_missing_frame(tiny_run, tmp_path, capsys):  # noqa: F811
    import cv2

    from agent.cli import main
    from perception.coco import CocoFrames
    from perception.overlay import CAPTION

    root, _, _ = tiny_run
    args = ["detector", "overlay", "--data", str(root / "data"), "--weights", str(root / "run" / "maskrcnn.pt"),
            "--threads", "1", "--out"]
    assert main([*args, str(tmp_path / "o.png"), "--images", "0", "2"]) == 0
    image = cv2.imread(str(tmp_path / "o.png"))
    folder = next(path.parent for path in (root / "data").rglob("annotations.json"))
    height, width = CocoFrames(folder).rgb(0).shape[:2]
    assert image.shape == (2 * (CAPTION + height), 3 * width, 3)
    assert main([*args, str(tmp_path / "p.png"), "--images", "99"]) == 2
    assert "frame 99 is not in" in capsys.readouterr().err
