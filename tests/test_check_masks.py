"""check-masks: our rendered target masks vs AI2-THOR's recorded ones (a few interactions)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agent.cli import main
from simulator.calibration.check import score
from simulator.calibration.masks import MaskFileError, RecordedInteraction, decode_rle, load_masks
from simulator.render import available

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
TRAJ, MASKS = DATA / "alfred_train.jsonl.gz", DATA / "alfred_train_masks.jsonl.gz"
needs_data = pytest.mark.skipif(not MASKS.is_file(), reason=f"ALFRED masks not found at {MASKS}")
needs_egl = pytest.mark.skipif(not available(), reason="rendering needs EGL")


def test_rle_decodes_row_major_with_x_as_column():
    mask = decode_rle([300 * 2 + 5, 3], 300)  # row y=2, columns x=5..7
    assert mask.sum() == 3 and mask[2, 5] and mask[2, 7] and not mask[5, 2]


def test_score_counts_iou_point_and_visibility():
    rec = RecordedInteraction(0, "PickupObject", "Mug|+0.00|+0.00|+0.00", None, (0, 0, 9, 9), (5, 5),
                              tuple(v for y in range(10) for v in (y * 300, 10)))
    ours = np.zeros((300, 300), dtype=bool)
    ours[0:10, 5:15] = True  # half overlaps the recorded 10 x 10 square
    s = score(ours, rec)
    assert s["iou"] == pytest.approx(50 / 150) and s["point_hit"] and s["visible"]
    assert s["ours_bbox"] == (5, 0, 14, 9)
    assert not score(np.zeros((300, 300), dtype=bool), rec)["visible"]


def test_bad_masks_file_is_one_clear_error(tmp_path, capsys):
    with pytest.raises(MaskFileError, match="no such file"):
        list(load_masks(tmp_path / "nope.jsonl.gz"))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"trial": "t", "interactions": [{"low_idx": 1}]}) + "\n")
    with pytest.raises(MaskFileError, match="not an ALFRED interaction mask"):
        list(load_masks(bad))
    if TRAJ.is_file():
        assert main(["alfred", "check-masks", str(TRAJ), "--masks", str(bad), "--limit", "1"]) == 2
        assert "interaction mask" in capsys.readouterr().err


@needs_data
@needs_egl
def test_check_masks_cli_json_and_overlays(tmp_path, capsys):
    args = ["alfred", "check-masks", str(TRAJ), "--masks", str(MASKS), "--limit", "3",
            "--overlays", str(tmp_path / "ov"), "--details", str(tmp_path / "d.jsonl"), "--json"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for key in ("interactions", "mean_iou", "point_hit_rate", "visible_rate", "per_action", "per_type",
                "worst_types"):
        assert key in summary
    assert summary["interactions"] >= 3 and summary["missing_targets"] == 0
    assert 0.0 <= summary["mean_iou"] <= 1.0
    assert len(list((tmp_path / "ov").glob("*.png"))) == summary["interactions"]
    lines = (tmp_path / "d.jsonl").read_text().splitlines()
    assert len(lines) == summary["interactions"] and "iou" in json.loads(lines[0])
