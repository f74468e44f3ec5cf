"""Which of Mask R-CNN's overlapping boxes ``maskrcnn.detect`` keeps (``_outranked``): a weak
box of an attended type under another class scoring higher, and lookalike utensils sharing a box."""

from __future__ import annotations

import numpy as np


def test_a_low_scoring_box_is_outranked_by_another_class_scoring_higher_in_its_place():
    from perception.maskrcnn import _outranked

    out = {"boxes": np.array([[0, 0, 10, 10], [1, 0, 10, 10], [0, 0, 9, 10], [50, 50, 60, 60]], dtype=np.float32),
           "labels": np.array([1, 2, 1, 3]), "scores": np.array([0.9, 0.3, 0.35, 0.3], dtype=np.float32)}
    # the second: class 1 scores higher there; the third: only its own class does; the fourth: alone
    assert _outranked(out).tolist() == [False, True, False, False]


def test_of_two_lookalike_utensils_in_one_place_the_higher_scoring_type_stands_whatever_the_scores():
    from contracts.perception import LOOKALIKES
    from perception.maskrcnn import _outranked

    assert {"Knife", "Spatula"} <= LOOKALIKES and "Pan" not in LOOKALIKES
    # a spatula at 0.9 also scored as a knife at 0.67; a knife at 0.8 under a pan's box at 0.95
    out = {"boxes": np.array([[0, 0, 10, 40], [1, 0, 10, 40], [50, 50, 60, 90], [50, 50, 61, 90]], dtype=np.float32),
           "labels": np.array([1, 2, 2, 3]), "scores": np.array([0.9, 0.67, 0.8, 0.95], dtype=np.float32)}
    utensils = np.array([True, True, True, False])
    assert _outranked(out, among=utensils).tolist() == [False, True, False, False]


def test_what_lies_mostly_in_a_house_plants_mask_is_the_plant():
    """In a frame of TATC 0120, FloorPlan10's plant held a tomato (0.91) wholly in its mask."""
    from contracts.perception import Detection
    from perception.maskrcnn import without_plant_parts

    def det(kind, rows, cols):
        mask = np.zeros((100, 100), dtype=bool)
        mask[rows[0]:rows[1], cols[0]:cols[1]] = True
        return Detection(kind, 0.9, (cols[0], rows[0], cols[1], rows[1]), mask)

    plant = det("HousePlant", (10, 60), (10, 50))
    pot = det("Plate", (45, 60), (15, 45))  # wholly in the plant
    mug = det("Mug", (50, 70), (40, 60))  # in front of it, a quarter in its mask
    kept = without_plant_parts([plant, pot, mug])
    assert [d.object_type for d in kept] == ["HousePlant", "Mug"]
    assert without_plant_parts([pot, mug]) == [pot, mug]  # no plant in view: nothing is a part of one
