"""Sliced pieces: their row fitted from recorded boxes, and laid out by the slicing rule."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import COUNTER, go_to, kitchen, obj, random_views

from simulator.calibration.boxfit import shape_points
from simulator.calibration.slicefit import fit_slices
from simulator.calibration.table import object_box, rotation_matrix, slice_layout
from simulator.sim import FOLLOWER


def test_the_row_of_pieces_is_recovered_from_their_projections():
    n = 60
    rng, pivots, cameras, rotations, views = random_views(1, n, (0.85, 0.95))
    index = rng.integers(1, 8, n).astype(float)
    size, start, step_ = np.array([0.12, 0.07, 0.015]), np.array([0.0, 0.0, -0.04]), np.array([0.0, 0.0, 0.011])
    boxes, ok = views.project(shape_points("TomatoSliced"), size, start + index[:, None] * step_)
    assert ok.all()
    observations = [
        {"target_id": f"Tomato|+00.00|+00.90|+01.00|TomatoSliced_{int(k)}", "object_type": "TomatoSliced",
         "action": "PickupObject", "whole_moved": False, "on_border": [False] * 4, "camera": list(c),
         "pivot": list(p), "rotation": list(r), "bbox": list(np.floor(b[:2])) + list(np.ceil(b[2:]) - 1)}
        for k, c, p, r, b in zip(index, cameras, pivots, rotations, boxes, strict=True)
    ]
    whole = {"Tomato": {"size": [0.11, 0.08, 0.11], "offset": [0.0, 0.0, 0.0]}}
    fitted = fit_slices(observations, whole, 1.576, 60.0)["TomatoSliced"]
    assert fitted["views"] == n
    assert np.array(fitted["step"]) == pytest.approx(step_, abs=3e-3)
    assert np.array(fitted["size"])[[0, 1]] == pytest.approx(size[[0, 1]], rel=0.15)


def test_pieces_lie_in_a_row_along_the_whole_objects_own_axis():
    layout = slice_layout("AppleSliced")
    whole = object_box("Apple")
    if layout is None or whole is None:
        pytest.skip("no fitted slice layout in calibration.json")
    sim = kitchen()
    knife, apple = obj(sim, "Knife"), obj(sim, "Apple")
    apple.rotation = (0.0, 90.0, 0.0)
    apple_id = apple.object_id
    pivot = np.array(apple.position) - rotation_matrix(apple.rotation) @ np.array(whole[1])
    go_to(sim, COUNTER)
    assert sim.step(FOLLOWER, "PickupObject", objectId=knife.object_id).success
    assert sim.step(FOLLOWER, "SliceObject", objectId=apple_id).success
    pieces = [sim.world.objects[f"{apple_id}|AppleSliced_{k}"] for k in range(8)]
    r = rotation_matrix((0.0, 90.0, 0.0))
    for k, piece in enumerate(pieces):
        low, high = np.array(whole[1]) - np.array(whole[0]) / 2, np.array(whole[1]) + np.array(whole[0]) / 2
        expected = pivot + r @ np.clip(np.array(layout[1]) + k * np.array(layout[2]), low, high)
        assert np.array(piece.position) == pytest.approx(expected, abs=1e-3)
        assert piece.rotation == (0.0, 90.0, 0.0) and piece.extent == pytest.approx(layout[0])
    assert np.array(pieces[1].size) == pytest.approx(np.abs(r) @ np.array(layout[0]), abs=1e-4)


def test_the_widths_table_groups_piece_pickups_by_parent_and_compares_box_widths():
    from simulator.calibration.widths import parent_type, width_rows

    def pickup(piece, parent, ours, theirs, hit):
        return {"action": "PickupObject", "target_type": piece, "parent": parent, "ours_bbox": ours,
                "theirs_bbox": theirs, "iou": 0.5 if hit else 0.0, "point_hit": hit}

    microwave = "Microwave|+01.04|+01.68|-01.30"
    details = [pickup("PotatoSliced", microwave, [10, 5, 13, 20], [0, 5, 21, 20], False),
               pickup("PotatoSliced", microwave, None, [0, 5, 19, 20], False),
               pickup("PotatoSliced", microwave, [10, 5, 27, 20], [0, 5, 23, 20], True),
               pickup("Apple", microwave, [0, 0, 9, 9], [0, 0, 9, 9], True),
               {"action": "PutObject", "target_type": "PotatoSliced", "parent": None}]
    (row,) = width_rows(details, minimum=2)
    assert (row.piece, row.parent, row.pickups, row.ours, row.theirs) == ("PotatoSliced", "Microwave", 3, 3, 21)
    assert row.point_hit == round(1 / 3, 3) and width_rows(details, minimum=4) == []
    assert parent_type("Sink|-00.72|+01.02|+01.33|SinkBasin") == "SinkBasin" and parent_type(None) == "none"
