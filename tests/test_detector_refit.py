"""``nesy detector refit``: the box classifier fitted again on a training set's region
features. Only that layer changes, its loss goes down, the class weights follow the counts,
and the CLI checks its input."""

from __future__ import annotations

import json

import torch
from test_maskrcnn import tiny_run  # noqa: F401  (a pytest fixture)

from perception.maskrcnn_model import load_weights
from perception.refit import RefitSpec, class_weights, refit


def test_class_weights_follow_the_counts_and_leave_the_background_at_one():
    labels = torch.tensor([0] * 50 + [1] * 40 + [2] * 10 + [4] * 10)
    weights = class_weights(labels, 5, 0.5)
    assert torch.allclose(weights, torch.tensor([1.0, 1.0, 2.0, 1.0, 2.0]))
    assert torch.equal(class_weights(labels, 5, 0.0), torch.ones(5))


def test_refit_changes_only_the_box_classifier_and_its_loss_goes_down(tiny_run, tmp_path):  # noqa: F811
    root, _, _ = tiny_run
    source = root / "run" / "maskrcnn.pt"
    spec = RefitSpec(data=str(root / "data"), out=str(tmp_path / "refit.pt"), weights=str(source), images=4,
                     epochs=30, lr=1e-2, batch=64)
    summary = refit(spec, progress=False)
    assert summary["regions"] > summary["foreground"] > 0
    assert summary["last_loss"] < summary["first_loss"]
    config, classes, before, _ = load_weights(source)
    config_after, classes_after, after, meta = load_weights(tmp_path / "refit.pt")
    assert (config_after, classes_after) == (config, classes)
    changed = {k for k in before if not torch.equal(before[k], after[k])}
    assert changed == {"roi_heads.box_predictor.cls_score.weight", "roi_heads.box_predictor.cls_score.bias"}
    assert meta["refit"]["regions"] == summary["regions"]
    assert refit(spec, progress=False)["last_loss"] == summary["last_loss"]  # seeded


def test_cli_refit_prints_its_summary_and_checks_the_balance(tiny_run, tmp_path, capsys):  # noqa: F811
    from agent.cli import main

    root, _, _ = tiny_run
    args = ["detector", "refit", "--data", str(root / "data"), "--weights", str(root / "run" / "maskrcnn.pt"),
            "--out", str(tmp_path / "w.pt"), "--images", "2", "--epochs", "2"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["weights"] == str(tmp_path / "w.pt") and result["threads"] == 1
    assert main([*args, "--balance", "2"]) == 2
    assert "--balance must be 0..1" in capsys.readouterr().err
