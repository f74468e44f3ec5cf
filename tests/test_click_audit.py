"""`nesy clicks`: the modular Follower logs what each click is meant for, and the audit
re-simulates the logs to say which clicks were refused or acted on another kind of thing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.cli import main
from agent.evaluation.click_audit import Click, ClickAudit, audit_log, audit_run

CONFIG = str(Path(__file__).resolve().parents[1] / "configs" / "ablations" / "pddl-oracle-belief.yaml")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run")
    assert main(["eval", CONFIG, "--suite", "tatc", "--split", "valid_unseen", "--episodes", "1",
                 "--out", str(out)]) == 0
    return out


def clicks_of(log: dict) -> list[dict]:
    return [e for e in log["interactions"] if e["agent_id"] == 1 and "x" in e]


def test_the_modular_follower_logs_what_every_click_is_meant_for(run_dir):
    (path,) = (run_dir / "logs").iterdir()
    clicks = clicks_of(json.loads(path.read_text()))
    assert clicks and all(e.get("meant") for e in clicks)
    puts = [e for e in clicks if e["action"] == "Place"]
    assert puts and all(e["meant"] != "Potato" for e in puts)  # a put names its receptacle, not what it carries


def test_an_oracle_run_clicks_where_it_means(run_dir):
    audit = audit_run([run_dir])
    summary = audit.summary()
    assert summary["episodes"] == 1 and summary["clicks"] == summary["meant_logged"] > 0
    assert summary["refused"] == summary["off"] == summary["divergences"] == 0
    assert all(c.acted and (c.acted == c.meant or not c.off) for c in audit.clicks)


def test_a_click_off_its_target_is_refused_and_reported(run_dir):
    (path,) = (run_dir / "logs").iterdir()
    log = json.loads(path.read_text())
    first = clicks_of(log)[0]
    first["x"], first["y"] = 0.0, 0.0  # the frame's corner: nothing there to act on
    audit = ClickAudit()
    audit_log(log, audit)
    click = audit.clicks[0]
    assert click.failed and click.meant == first["meant"] and "No object that can be acted on" in click.error
    assert "(0.00" not in click.error  # points and ids are left out, so refusals of a kind count together
    assert audit.divergences and "logged success=True" in audit.divergences[0]


def test_off_means_another_kind_than_meant():
    def click(meant: str, acted: str) -> Click:
        return Click("e", 1, "Place", meant, acted or "-", acted, "" if acted else "refused")

    assert click("SinkBasin", "CounterTop").off
    assert not click("SinkBasin", "Sink").off and not click("Sink", "SinkBasin").off  # one kind to a click
    assert not click("SinkBasin", "SinkBasin").off
    assert not click("?", "CounterTop").off  # a log that does not say what was meant
    assert not click("SinkBasin", "").off and click("SinkBasin", "").failed


def test_the_command_prints_json_and_a_folder_without_logs_is_a_clear_error(run_dir, tmp_path, capsys):
    assert main(["clicks", str(run_dir), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["clicks"] == len(out["clicks"]) > 0
    assert main(["clicks", str(tmp_path)]) == 2
    assert "no episode logs" in capsys.readouterr().err
