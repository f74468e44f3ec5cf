"""The fine segmenter (where small things are, as proposals): each region of small-thing
pixels is one box; fitting on a tiny set lowers its loss, resumes exactly after an
interruption and chooses its inference shift on a tuning set; the module adds the regions
to the RPN's proposals; files fitted to other weights, damaged or missing give one clear
line; the CLI's fit and eval."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import numpy as np
import pytest
import torch
from test_maskrcnn import tiny_run  # noqa: F401  (pytest fixture)

from perception import fine_fit, maskrcnn
from perception.classes import CLASSES
from perception.coco import CocoFrames
from perception.fine_fit import FineFitSpec, fit
from perception.fine_segmenter import (
    FineConfig,
    load_fine_segmenter,
    margins,
    refined_masks,
    region_boxes,
)
from perception.maskrcnn import MaskRCNNPerception
from perception.maskrcnn_model import WeightsError, sha256


def _module(weights, fine="none") -> MaskRCNNPerception:
    return MaskRCNNPerception(MaskRCNNPerception.Params(weights=str(weights), fine_segmenter=str(fine), threads=1))


@pytest.fixture(scope="module")
def fitted(tiny_run, tmp_path_factory):  # noqa: F811
    root, _, _ = tiny_run
    weights = root / "run" / "maskrcnn.pt"
    out = tmp_path_factory.mktemp("fine") / "fine.pt"
    spec = FineFitSpec(data=(str(root / "data"),), out=str(out), tune=str(root / "data"), images=4, epochs=8,
                       batch=2, lr=5e-3, checkpoint_every=3)
    return weights, spec, fit(spec, _module(weights), sha256(weights), progress=False)


def test_each_region_where_a_small_thing_is_more_probable_than_not_is_one_proposal_box():
    config = FineConfig(shifts=(0.0,))  # regions of at least 10 pixels
    logits = torch.zeros(2, 10, 10)  # stride 2 over a 20 x 20 input
    logits[1, 1:2, 1:6] = 4.0  # a knife-like strip
    logits[1, 6:8, 6:8] = 1.0  # a weak blob
    logits[1, 9, 0] = 4.0  # one cell in the corner: 9 pixels
    boxes = region_boxes(margins(logits, config, (20, 20)), config)
    assert len(boxes) == 2
    strip = boxes[torch.argmin(boxes[:, 1])].tolist()
    assert strip[0] <= 3 and strip[2] >= 11 and strip[1] >= 1 and strip[3] <= 5  # wide and low
    # the fit's leaning to small things (object_weight 20: log 20 = 3.0) taken back: the weak blob goes
    margin = margins(logits, config, (20, 20))
    assert len(region_boxes(margin, replace(config, shifts=(1.0,)))) == 1
    assert len(region_boxes(margin, replace(config, shifts=(0.0, 1.0, 1.0)))) == 3  # the strip's core too, no box twice
    touching = torch.zeros(2, 10, 10)
    touching[1] = -9.0
    touching[1, 2:5, 1:9] = 1.0
    touching[1, 2:5, 2:4] = touching[1, 2:5, 6:8] = 6.0  # two slices' cores in one region
    assert len(region_boxes(margins(touching, config, (20, 20)), replace(config, shifts=(0.0, 1.0)))) == 3
    assert len(region_boxes(margins(logits, config, (12, 20)), config)) == 1  # only the frame's part of the padded input


def test_a_small_things_mask_is_the_segmenters_pixels_in_its_box_and_other_masks_stay():
    config = FineConfig(mask_shift=0.0)
    margin = np.full((20, 20), -5.0, dtype=np.float32)
    margin[5, 2:15] = 2.0  # a knife one pixel wide
    margin[15:18, 15:18] = 2.0  # something else outside both boxes
    blob = np.zeros((20, 20), dtype=np.float32)
    blob[3:8, 1:16] = 0.9  # the mask head's blob around the knife
    out = {"boxes": np.array([[1, 3, 16, 8], [0, 0, 20, 20], [0, 10, 5, 12]], dtype=np.float32),
           "labels": np.array([CLASSES.index(name) + 1 for name in ("Knife", "Fridge", "Fork")]),
           "masks": np.stack([blob, blob, blob * 0.5])}
    masks = refined_masks(out, margin, config, CLASSES)
    assert masks[0].sum() == 13 and masks[0][5, 2:15].all()  # the knife's own pixels
    assert np.array_equal(masks[1], blob)  # a fridge: the mask head's
    assert np.array_equal(masks[2], blob * 0.5)  # a fork with no small-thing pixels in its box: the mask head's
    assert np.array_equal(refined_masks(out, margin, replace(config, mask_shift=-1.0), CLASSES), out["masks"])


def test_fitting_lowers_the_loss_chooses_a_shift_and_the_module_proposes_its_regions(tiny_run, fitted,  # noqa: F811
                                                                                      monkeypatch):
    root, _, _ = tiny_run
    weights, spec, summary = fitted
    losses = summary["loss_per_epoch"]
    assert len(losses) == 8 and losses[-1] < losses[0] and summary["base_sha256"] == sha256(weights)
    tune = summary["tune"]
    assert len(tune["by_shifts"]) == len(fine_fit.SHIFT_SETS) and "mask_map50" in tune["without"]
    best = max(tune["by_shifts"].values(), key=lambda v: v["mask_map50"] + v["mask_map"])
    assert tune["by_shifts"][" ".join(map(str, tune["shifts"]))] == best
    assert len(tune["by_mask_shift"]) == len(fine_fit.MASK_SHIFTS) and tune["by_mask_shift"]["-1.0"] == best
    assert tune["by_mask_shift"][str(tune["mask_shift"])] == max(
        tune["by_mask_shift"].values(), key=lambda v: v["mask_map50"] + v["mask_map"])
    module = _module(weights, spec.out)
    assert list(module.fine_config.shifts) == tune["shifts"] and module.fine_config.mask_shift == tune["mask_shift"]
    assert module.meta["fine_segmenter"]["file"] == spec.out
    seen = []
    classify = module.classify
    monkeypatch.setattr(maskrcnn, "region_boxes", lambda *_: torch.tensor([[10.0, 20.0, 60.0, 26.0]]))
    monkeypatch.setattr(module, "classify", lambda image, features, boxes, size: seen.append(boxes) or
                        classify(image, features, boxes, size))
    rgb = CocoFrames(root / "data").rgb(1)
    out = module.predict(rgb, floor=0.0)
    assert seen[-1][-1].tolist() == [10.0, 20.0, 60.0, 26.0]  # the region joined the RPN's proposals
    assert out["masks"].shape[1:] == rgb.shape[:2]
    module.attach_fine(None)
    assert module.fine is None and "fine_segmenter" not in module.meta


def test_an_interrupted_fit_resumes_to_the_same_weights(tiny_run, fitted, tmp_path, monkeypatch):  # noqa: F811
    root, _, _ = tiny_run
    weights, spec, _ = fitted
    short = FineFitSpec(**{**spec.__dict__, "out": str(tmp_path / "a.pt"), "tune": "", "epochs": 2})
    whole = fit(short, _module(weights), sha256(weights), progress=False)
    cut = FineFitSpec(**{**short.__dict__, "out": str(tmp_path / "b.pt")})
    calls = {"n": 0}
    batch = fine_fit._batch

    def stop_after_three(*args):
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return batch(*args)

    monkeypatch.setattr(fine_fit, "_batch", stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        fit(cut, _module(weights), sha256(weights), progress=False)
    monkeypatch.setattr(fine_fit, "_batch", batch)
    resumed = fit(cut, _module(weights), sha256(weights), progress=False)
    assert resumed["loss_per_epoch"] == whole["loss_per_epoch"]
    a = torch.load(tmp_path / "a.pt", weights_only=True)["state"]
    b = torch.load(tmp_path / "b.pt", weights_only=True)["state"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(ValueError, match="a checkpoint of another fit"):
        fit(FineFitSpec(**{**cut.__dict__, "epochs": 3}), _module(weights), sha256(weights), progress=False)


def test_a_file_fitted_to_other_weights_a_damaged_and_a_missing_file_give_one_clear_line(fitted, tmp_path):
    weights, spec, _ = fitted
    with pytest.raises(WeightsError, match="fitted to Mask R-CNN weights .* not to these .*fine_segmenter=none"):
        load_fine_segmenter(spec.out, CLASSES, "0" * 64)
    broken = tmp_path / "broken.pt"
    broken.write_bytes(open(spec.out, "rb").read()[:500])
    with pytest.raises(WeightsError, match="corrupt or unreadable.*nesy detector fine"):
        load_fine_segmenter(broken, CLASSES, sha256(weights))
    with pytest.raises(WeightsError, match="does not exist; make it with: nesy detector fine"):
        _module(weights, tmp_path / "none.pt")


def test_cli_fits_and_evaluates_with_a_fine_segmenter(tiny_run, tmp_path, capsys):  # noqa: F811
    from agent.cli import main

    root, _, _ = tiny_run
    weights = str(root / "run" / "maskrcnn.pt")
    data = tmp_path / "data"
    shutil.copytree(root / "data", data)
    out = tmp_path / "f.pt"
    assert main(["detector", "fine", "--data", str(data), "--weights", weights, "--out", str(out),
                 "--images", "2", "--epochs", "1", "--threads", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["out"] == str(out) and summary["spec"]["images"] == 2 and out.is_file()
    assert "tune" not in summary  # no tuning set: the default shift
    assert main(["detector", "eval", "--data", str(data), "--weights", weights, "--fine-segmenter", str(out),
                 "--threads", "1", "--limit", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["images"] == 2 and result["weights_meta"]["fine_segmenter"]["file"] == str(out)
    assert main(["detector", "fine", "--data", str(data), "--tune", str(data), "--out", str(out)]) == 2
    assert "also a training set" in capsys.readouterr().err
