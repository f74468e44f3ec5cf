"""perception.mask_edges: a mask head's blurred, misplaced border snapped to the frame's edges."""

import numpy as np

from perception.mask_edges import snapped_masks


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
    from perception.maskrcnn import MaskRCNNPerception

    parser = argparse.ArgumentParser()
    add_module_arguments(parser)
    parser.add_argument("--threads", type=int, default=1)
    default = MaskRCNNPerception.Params()
    shipped = module_params(parser.parse_args([]))
    assert (shipped.edge_radius, shipped.mask_threshold) == (default.edge_radius, default.mask_threshold)
    plain = module_params(parser.parse_args(["--edge-radius", "0", "--mask-threshold", "0.5"]))
    assert (plain.edge_radius, plain.mask_threshold) == (0, 0.5)
