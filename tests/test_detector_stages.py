"""``nesy detector stages``: which stage of the Mask R-CNN loses a class. The shipped weights
propose and classify the large objects of a fixed reference frame; the CLI prints its keys
and names a class the set does not have."""

from __future__ import annotations

import json

import numpy as np
from test_maskrcnn import box_of, reference_frame, tiny_run  # noqa: F401  (pytest fixtures)

from perception.maskrcnn import MaskRCNNPerception
from perception.stages import PROPOSED_IOU, probe


def test_the_shipped_weights_propose_and_classify_the_large_objects_of_a_reference_frame(reference_frame):  # noqa: F811
    rgb, truth = reference_frame
    objects = []
    for name in ("Fridge", "CounterTop", "Cabinet"):
        for mask in truth[name]:
            x0, y0, x1, y1 = box_of(mask)
            objects.append((name, (x0, y0, x1 - x0, y1 - y0)))
    rows = probe(MaskRCNNPerception(), rgb, objects)
    assert [r.name for r in rows] == [name for name, _ in objects]
    for row in rows:
        assert row.proposal_iou >= PROPOSED_IOU, row
        assert row.head_right and row.head_own_probability > 0.5, row
    # a frame of another size is resized by the network, and its boxes with it
    doubled = np.ascontiguousarray(rgb.repeat(2, axis=0).repeat(2, axis=1))
    fridge = probe(MaskRCNNPerception(), doubled, [(objects[0][0], tuple(2 * v for v in objects[0][1]))])[0]
    assert fridge.proposal_iou >= PROPOSED_IOU and fridge.head_right


def test_cli_stages_prints_its_keys_and_rejects_an_unknown_class(tiny_run, capsys):  # noqa: F811
    from agent.cli import main

    root, _, _ = tiny_run
    weights = str(root / "run" / "maskrcnn.pt")
    args = ["detector", "stages", "--data", str(root / "data"), "--weights", weights, "--threads", "1", "--limit", "2"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["images"] == 2 and result["instances"] > 0
    assert sum(s["instances"] for s in result["per_shape"].values()) == result["instances"]
    assert sum(c["instances"] for c in result["per_class"].values()) == result["instances"]
    for summary in result["per_class"].values():
        assert set(summary) == {"instances", "proposal_iou_median", "proposed", "head_right",
                                "head_own_probability_median"}
        assert 0.0 <= summary["proposed"] <= 1.0 and 0.0 <= summary["head_right"] <= 1.0
    assert main([*args, "--classes", "Knif"]) == 2
    assert "not classes of this set: Knif" in capsys.readouterr().err
