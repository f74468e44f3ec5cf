"""`nesy replay`: an episode re-simulated from its log as a GIF or an HTML page, with or
without EGL, and a log that does not match its replay is reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from agent.cli import main
from agent.evaluation.replay import PANEL, replay

BASELINE = str(Path(__file__).resolve().parents[1] / "configs" / "teach-baseline.yaml")


@pytest.fixture(scope="module")
def log_path(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run")
    assert main(["eval", BASELINE, "--suite", "tatc", "--split", "valid_unseen", "--episodes", "1",
                 "--out", str(out)]) == 0
    (path,) = (out / "logs").iterdir()
    return path


def test_replay_writes_an_animated_gif(log_path, tmp_path, capsys):
    target = tmp_path / "episode.gif"
    assert main(["replay", str(log_path), "--out", str(target)]) == 0
    assert "replay:" in capsys.readouterr().out
    with Image.open(target) as gif:
        assert gif.n_frames > 5
    _, result = replay(log_path, tmp_path / "again.gif")
    assert result.divergences == []  # the re-simulation agrees with the log at every step
    assert len(result.dialogue) == sum(1 for i in json.loads(log_path.read_text())["interactions"]
                                       if i["action"] == "Text")


def test_replay_writes_an_html_page_with_the_dialogue(log_path, tmp_path):
    target, result = replay(log_path, tmp_path / "episode.html")
    page = target.read_text()
    assert page.count("data:image/jpeg;base64,") == len(result.frames)
    assert "What should I do next?" in page and "<input id=slider" in page


def test_replay_works_without_egl(log_path, tmp_path, monkeypatch):
    import simulator.render

    monkeypatch.setattr(simulator.render, "available", lambda: False)
    _, result = replay(log_path, tmp_path / "map-only.gif")
    assert not result.egocentric
    assert result.frames[0].shape[1] == PANEL  # the top-down map only


def test_a_log_that_disagrees_with_its_replay_is_reported(log_path, tmp_path, capsys):
    log = json.loads(log_path.read_text())
    step = next(i for i in log["interactions"] if i["action"] not in ("Text", "Stop"))
    step["success"] = not step["success"]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(log))
    assert main(["replay", str(tampered), "--out", str(tmp_path / "t.gif"), "--no-egocentric"]) == 0
    assert "warning: interaction" in capsys.readouterr().out


def test_not_a_log_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert main(["replay", str(bad)]) == 2
    assert "not an episode log" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "no such episode log" in capsys.readouterr().err
