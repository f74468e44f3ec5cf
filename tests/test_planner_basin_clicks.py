"""A put into a basin clicks its inside, below the rim: not the counter around it, not the faucet."""

from __future__ import annotations

import numpy as np

from contracts.perception import Detection, mask_box
from planner.clicking import MIN_INSIDE, basin_inside

RIM, FLOOR, TAP = 1.02, 0.88, 1.20  # metres: the counter and rim, the basin's floor, the faucet over it


def frame(heights: np.ndarray) -> np.ndarray:
    """H x W x 3 points whose y is ``heights`` (x, z do not matter to the rule)."""
    points = np.zeros(heights.shape + (3,))
    points[..., 1] = heights
    return points


def sink_detection(mask: np.ndarray, kind: str = "Sink") -> Detection:
    return Detection(kind, 0.9, mask_box(mask), mask)


def test_a_sink_detection_is_clicked_only_where_its_basin_lies_below_the_rim():
    heights = np.full((60, 80), RIM)
    heights[20:40, 25:55] = FLOOR  # the basin's floor inside a counter-height rim
    heights[20:30, 38:42] = TAP  # the faucet's arm reaching over it
    mask = np.zeros((60, 80), dtype=bool)
    mask[10:50, 15:65] = True  # the detection takes in the rim and the counter around the basin
    inside = basin_inside(sink_detection(mask), frame(heights))
    expected = mask & (heights == FLOOR)
    assert np.array_equal(inside.mask, expected)
    assert inside.object_type == "Sink" and inside.score == 0.9
    x0, y0, x1, y1 = inside.box
    assert (x0, y0, x1, y1) == (25, 20, 55, 40)


def test_the_rim_is_read_from_the_mask_edge_not_where_the_frame_cuts_it():
    heights = np.full((60, 80), RIM)
    heights[40:60, 20:60] = FLOOR  # the basin runs out of the frame at the bottom
    mask = np.zeros((60, 80), dtype=bool)
    mask[30:60, 10:70] = True
    inside = basin_inside(sink_detection(mask, "SinkBasin"), frame(heights))
    assert np.array_equal(inside.mask, mask & (heights == FLOOR))


def test_a_basin_whose_inside_does_not_show_keeps_its_detection():
    heights = np.full((60, 80), RIM)  # seen edge-on: only the rim and the counter
    mask = np.zeros((60, 80), dtype=bool)
    mask[25:35, 10:70] = True
    detection = sink_detection(mask)
    assert basin_inside(detection, frame(heights)) is detection
    heights[28:30, 30:33] = FLOOR  # a few pixels of the floor are no target of their own
    assert int((heights[mask] == FLOOR).sum()) < MIN_INSIDE
    assert basin_inside(detection, frame(heights)) is detection


def test_pixels_without_depth_are_neither_rim_nor_inside():
    heights = np.full((60, 80), RIM)
    heights[20:40, 25:55] = FLOOR
    heights[:, :20] = np.nan  # no depth there
    mask = np.zeros((60, 80), dtype=bool)
    mask[10:50, 10:65] = True
    inside = basin_inside(sink_detection(mask), frame(heights))
    assert np.array_equal(inside.mask, mask & (heights == FLOOR))
