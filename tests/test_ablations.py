"""`nesy ablations`: the default and its one-module ablations on the same episodes, one report."""

from __future__ import annotations

import json

import pytest

from agent.cli import main
from agent.evaluation.ablations import ABLATIONS, AblationError, chosen
from agent.settings import load_config

# the default's oracle-free modules are slow for a test: every run gets the symbolic stand-ins
FAST = ["simulator.render=none", "modules.perception.name=oracle-visible", "modules.mapper.name=oracle-map"]


def test_every_ablation_is_the_default_with_one_thing_swapped():
    default = load_config("default").config
    for ablation in ABLATIONS:
        config = load_config(f"ablations/{ablation.name}").config
        changed = [part for part in ("simulator", "commander", "follower", "evaluation") if getattr(config, part) != getattr(default, part)]
        changed += [f"modules.{m}" for m in ("parser", "perception", "mapper", "planner", "dialogue_manager")
                    if getattr(config.modules, m) != getattr(default.modules, m)]
        assert len(changed) == 1, (ablation.name, changed)


def test_unknown_ablations_are_named_with_the_known_ones(capsys):
    with pytest.raises(AblationError, match="oracle-seg"):
        chosen(["oracle-segs"])
    assert main(["ablations", "--out", "x", "--only", "nope"]) == 2
    assert "unknown ablation(s) nope" in capsys.readouterr().err


def test_the_suite_runs_each_ablation_on_the_same_episodes_and_resumes(tmp_path, capsys):
    args = ["ablations", "--out", str(tmp_path), "--only", "rules-parser,questions-never", "--episodes", "2", *FAST]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "| default | (the default) |" in printed and "| rules-parser | parser: trained -> rules |" in printed
    report = (tmp_path / "report.md").read_text()
    assert report.startswith("# Ablations") and "questions-never" in report
    for name in ("default", "rules-parser", "questions-never"):
        rows = [json.loads(line) for line in (tmp_path / name / "episodes.jsonl").read_text().splitlines()]
        assert [r["episode_id"] for r in rows] == [r["episode_id"] for r in
                                                    map(json.loads, (tmp_path / "default" / "episodes.jsonl").read_text().splitlines())]
    assert main(args) == 0  # resumed: nothing is run again
    assert len((tmp_path / "default" / "episodes.jsonl").read_text().splitlines()) == 2
