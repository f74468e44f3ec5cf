"""The README's "Adding a module" example stays true: its code registers a perception module
that detects, and the config it shows selects that module with its params."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from contracts.geometry import CameraIntrinsics, Pose
from contracts.observation import FOLLOWER, ModuleContext, Observation
from contracts.registry import perception

README = Path(__file__).resolve().parents[1] / "README.md"


def _section_blocks(heading: str, language: str) -> list[str]:
    text = README.read_text()
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.S)


@pytest.fixture
def example_module(monkeypatch):
    """The README's module, registered for this test only."""
    monkeypatch.setattr(perception, "_modules", dict(perception._modules))
    monkeypatch.setattr(perception, "_origins", dict(perception._origins))
    (code,) = _section_blocks("## Adding a module", "python")
    module = types.ModuleType("readme_example")  # a real module: dataclasses look their class's module up
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(code, str(README), "exec"), module.__dict__)  # noqa: S102 - our own README
    return module.MyDetector


def test_the_readme_module_registers_and_detects(example_module):
    assert perception.get("my-detector") is example_module
    detector = example_module(example_module.Params(threshold=0.7))
    detector.reset(ModuleContext(CameraIntrinsics(8, 8, 90.0, 1.5), True))
    depth = np.full((8, 8), 2.0, dtype=np.float32)
    depth[2:4, 3:6] = 0.3  # something within half a metre
    observation = Observation(FOLLOWER, Pose(0.0, 0.0, 0.0, 0.0), False, None, True, "", [], None, depth)
    (found,) = detector.detect(observation)
    assert found.object_type == "Wall" and found.mask.sum() == 6
    symbolic = Observation(FOLLOWER, Pose(0.0, 0.0, 0.0, 0.0), False, None, True, "", [], None, None)
    assert detector.detect(symbolic) == []


def test_the_readme_config_selects_it_with_its_params(example_module, tmp_path):
    from agent.evaluation.harness import check_modules
    from agent.settings import load_config

    swap = _section_blocks("## Swapping a module", "yaml")[0]
    config = tmp_path / "ablations" / "my-ablation.yaml"
    config.parent.mkdir()
    config.write_text(swap.replace("../default.yaml", str(Path(__file__).resolve().parents[1] / "configs" / "default.yaml")))
    loaded = load_config(config)
    assert loaded.config.modules.perception.name == "my-detector"
    check_modules(loaded)  # the name is registered and its params validate
