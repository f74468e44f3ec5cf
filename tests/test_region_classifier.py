"""The region classifier (the box head's feature plus each region's pixels): before fitting it
decides exactly as the box head; fitting on a tiny set lowers its loss and writes a file
that the module loads; a file fitted to other weights, a damaged file and a missing one give
one clear line; the CLI's fit and eval."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from test_maskrcnn import tiny_run  # noqa: F401  (pytest fixture)

from perception.classes import CLASSES
from perception.maskrcnn import MaskRCNNPerception
from perception.maskrcnn_model import WeightsError, sha256
from perception.region_classifier import (
    RegionConfig,
    build_region_classifier,
    load_region_classifier,
    region_inputs,
    save_region_classifier,
)
from perception.region_fit import RegionFitSpec, fit


def _rgb(root, index: int = 0) -> np.ndarray:
    import cv2

    return np.ascontiguousarray(cv2.imread(str(root / "data" / "images" / f"{index:07d}.png"))[:, :, ::-1])


@pytest.fixture(scope="module")
def fitted(tiny_run, tmp_path_factory):  # noqa: F811
    root, _, _ = tiny_run
    weights = root / "run" / "maskrcnn.pt"
    module = MaskRCNNPerception(MaskRCNNPerception.Params(weights=str(weights), region_classifier="none"))
    out = tmp_path_factory.mktemp("regions") / "regions.pt"
    spec = RegionFitSpec(data=(str(root / "data"),), out=str(out), images=4, epochs=12, batch=64, lr=3e-3)
    return weights, out, fit(spec, module, sha256(weights), progress=False)


def test_before_fitting_it_decides_as_the_box_head():
    config = RegionConfig(num_classes=len(CLASSES), feature=64)
    base = torch.nn.Linear(64, len(CLASSES) + 1)
    model = build_region_classifier(config, base_classifier=base).eval()
    features = torch.randn(5, 64)
    image = torch.rand(3, 300, 300)
    crops, shapes = region_inputs(image, torch.tensor([[10.0, 20, 40, 26], [0, 0, 300, 300], [5, 5, 6, 200],
                                                       [100, 100, 101, 101], [50, 60, 150, 260]]), config)
    assert crops.shape == (5, 3, config.crop, config.crop) and shapes.shape == (5, 2)
    assert torch.allclose(shapes[1], torch.zeros(2)) and shapes[0, 0] > shapes[0, 1]  # wide and low
    with torch.no_grad():
        assert torch.allclose(model(features, crops, shapes), base(features), atol=1e-6)


def test_the_module_with_an_unfitted_classifier_detects_as_without_one(tiny_run, tmp_path):  # noqa: F811
    root, _, _ = tiny_run
    weights = root / "run" / "maskrcnn.pt"
    plain = MaskRCNNPerception(MaskRCNNPerception.Params(weights=str(weights), region_classifier="none"))
    config = RegionConfig(num_classes=len(CLASSES), feature=plain.model.roi_heads.box_head.fc7.out_features)
    unfitted = build_region_classifier(config, base_classifier=plain.model.roi_heads.box_predictor.cls_score)
    file = tmp_path / "unfitted.pt"
    save_region_classifier(file, unfitted, config, plain.classes, {"base_sha256": sha256(weights)})
    module = MaskRCNNPerception(MaskRCNNPerception.Params(weights=str(weights), region_classifier=str(file)))
    assert module.regions is not None and module.meta["region_classifier"]["file"] == str(file)
    rgb = _rgb(root)
    a, b = plain.predict(rgb, floor=0.0), module.predict(rgb, floor=0.0)
    assert len(a["scores"]) > 0 and np.array_equal(a["labels"], b["labels"])
    assert np.allclose(a["scores"], b["scores"], atol=1e-3) and np.allclose(a["boxes"], b["boxes"], atol=1e-2)


def test_fitting_lowers_the_loss_and_the_module_loads_the_file(tiny_run, fitted):  # noqa: F811
    root, _, _ = tiny_run
    weights, out, summary = fitted
    assert len(summary["loss_per_epoch"]) == 12 and summary["loss_per_epoch"][-1] < summary["loss_per_epoch"][0]
    assert summary["regions"] > summary["object_regions"] > 0 and summary["base_sha256"] == sha256(weights)
    module = MaskRCNNPerception(MaskRCNNPerception.Params(weights=str(weights), region_classifier=str(out),
                                                          score_threshold=0.0))
    assert module.meta["region_classifier"]["regions"] == summary["regions"]
    out_ = module.predict(_rgb(root, 1), floor=0.0)
    assert len(out_["labels"]) and out_["masks"].shape[1:] == (300, 300)
    # with weights of its own the shipped classifier is not used; asked for, it is refused
    assert MaskRCNNPerception(MaskRCNNPerception.Params(weights=str(weights))).regions is None


def test_a_file_fitted_to_other_weights_a_damaged_and_a_missing_file_give_one_clear_line(fitted, tmp_path):
    weights, out, _ = fitted
    with pytest.raises(WeightsError, match="fitted to Mask R-CNN weights .* not to these .*region_classifier=none"):
        load_region_classifier(out, CLASSES, "0" * 64)
    with pytest.raises(WeightsError, match="fitted to other detector classes"):
        load_region_classifier(out, CLASSES[:-1], sha256(weights))
    broken = tmp_path / "broken.pt"
    broken.write_bytes(out.read_bytes()[:500])
    with pytest.raises(WeightsError, match="corrupt or unreadable.*nesy detector regions"):
        load_region_classifier(broken, CLASSES, sha256(weights))
    with pytest.raises(WeightsError, match="does not exist; make it with: nesy detector regions"):
        load_region_classifier(tmp_path / "none.pt", CLASSES, sha256(weights))
    other = tmp_path / "other.pt"
    torch.save({"format": "something-else"}, other)
    with pytest.raises(WeightsError, match="not a nesy region classifier file"):
        load_region_classifier(other, CLASSES, sha256(weights))


def test_cli_fits_and_evaluates_with_a_region_classifier(tiny_run, tmp_path, capsys):  # noqa: F811
    from agent.cli import main

    root, _, _ = tiny_run
    weights = str(root / "run" / "maskrcnn.pt")
    out = tmp_path / "r.pt"
    assert main(["detector", "regions", "--data", str(root / "data"), "--weights", weights, "--out", str(out),
                 "--images", "2", "--epochs", "1", "--threads", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["out"] == str(out) and summary["spec"]["images"] == 2 and out.is_file()
    assert main(["detector", "eval", "--data", str(root / "data"), "--weights", weights, "--region-classifier",
                 str(out), "--threads", "1", "--limit", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["images"] == 2 and result["weights_meta"]["region_classifier"]["file"] == str(out)
    assert main(["detector", "regions", "--data", str(tmp_path), "--out", str(out)]) == 2
    assert "no COCO set there" in capsys.readouterr().err
