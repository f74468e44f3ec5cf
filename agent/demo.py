"""The demo job: the config's Commander and Follower on a small valid_unseen slice.

``nesy demo`` runs the evaluation harness (``agent.evaluation``) on the first episodes of
each TEACh task type of the unseen validation floor plans (one per type by default, 12
episodes: a few minutes on 2 cores with the default no-oracle Follower, seconds with
``oracle``), then writes the report (tables and plots) and a replay of one episode (with
the map the Follower built beside its view when it maps from rendered frames). If the config names no Follower or no Commander, the pairing of
``configs/teach-baseline.yaml`` (TEACh's rule-based baseline) fills in, and the demo says so.
The demo starts its folder over each time (it is a showcase; ``nesy eval`` resumes).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEMO_SUITE, DEMO_SPLIT, DEMO_PER_TASK = "tatc", "valid_unseen", 1
# Follower actions the demo's replay shows at most, one frame each (a failed default episode
# runs to the 1,000-step limit: a frame per action made a 60 MB, four-minute GIF)
REPLAY_ACTION_FRAMES = 250


@dataclass
class DemoOutcome:
    summary: dict[str, Any]
    folder: Path
    report: Path
    replay: Path | None
    note: str | None


def run_demo(
    config: str = "default", overrides: Sequence[str] = (), out: str | Path = "runs/demo",
    per_task: int = DEMO_PER_TASK, workers: int | None = None, split: str = DEMO_SPLIT,
    say: Callable[[str], None] = print,
) -> DemoOutcome:
    from agent.evaluation.harness import EvalRequest, load_paired_config, run_evaluation
    from agent.evaluation.replay import replay
    from agent.evaluation.report import write_report
    from agent.evaluation.results import log_name

    loaded, note = load_paired_config(config, overrides)
    pairing = list(overrides)
    if note:
        say(note)
        pairing = [f"{role}.name={getattr(loaded.config, role).name}" for role in ("follower", "commander")] + pairing
    say(f"config: {loaded.path}; Follower {loaded.config.follower.name}, Commander {loaded.config.commander.name}")
    workers = workers or min(2, os.cpu_count() or 1)
    request = EvalRequest(config=config, overrides=pairing, suite=DEMO_SUITE, split=split, out=out,
                          per_task=per_task, workers=workers, fresh=True)
    say(f"running {per_task} episode(s) per task type of {DEMO_SUITE}/{split} on {workers} worker(s) ...")
    run = run_evaluation(request)
    report = write_report([run.folder])
    rows = [json.loads(line) for line in (run.folder / "episodes.jsonl").read_text().splitlines()]
    shown = next((r for r in rows if not r["success"]), rows[0])  # a failure is the more telling
    episode_id = shown["episode_id"]
    replay_path, _ = replay(run.folder / "logs" / log_name(episode_id), run.folder / "replay.gif",
                            stride=replay_stride(shown["steps"]), follower_map=follower_map(loaded.config))
    return DemoOutcome(run.summary, run.folder, report, replay_path, note)


def follower_map(config: Any) -> tuple[str, str] | None:
    """(perception, mapper) of a modular Follower that maps from rendered frames: the replay
    draws the map it built beside its view; None otherwise."""
    modules = config.modules
    if config.simulator.render != "egl" or config.follower is None or config.follower.name != "modular" \
            or modules.mapper is None or modules.perception is None or modules.mapper.name.startswith("oracle"):
        return None
    return modules.perception.name, modules.mapper.name


def replay_stride(steps: int) -> int:
    """Follower actions per replay frame: every one, unless the episode has more than
    ``REPLAY_ACTION_FRAMES`` (the replay still shows every utterance and the end)."""
    return max(1, -(-int(steps) // REPLAY_ACTION_FRAMES))
