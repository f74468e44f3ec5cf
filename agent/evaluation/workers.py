"""One evaluation worker: its own Simulator and agents, built from the effective config.

Workers are built from the effective config's YAML text (what ``config.yaml`` holds), so a
process, a Ray actor on another machine and the serial path all build the same agents.
Each episode runs with ``episode_seed(config seed, episode id)``; Python's, NumPy's (and,
if loaded, PyTorch's) global generators are reseeded with it before the episode, so a
result does not depend on which worker ran it or what that worker ran before. An exception
raised by an agent is recorded as a failed episode (``end_reason`` ``exception:<Type>``,
the traceback in its log) instead of stopping the run.

A worker knows its index (0..K-1: 0 in the calling process; each pool process and Ray actor
a stable one), handed to the runner for the module context. A pool process exits as soon
as its parent does (``watch_parent``), however the parent ends (SIGKILL, SIGHUP, a crash),
and records in shared memory which episode it is running, so a worker that dies can be
named with its episode.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import multiprocessing.connection
import os
import random
import sys
import threading
import time
import traceback
import zlib
from typing import Any

from agent.config import safe_yaml
from agent.config_schema import RawConfig, build_dataclass
from agent.metrics import episode_metrics
from agent.runner import LIMITS, EpisodeResult, episode_task, goal_conditions, run_episode
from agent.settings import LoadedConfig, NesyConfig
from simulator.episodes.model import Episode, episode_from_dict, episode_to_dict

Outcome = tuple[dict[str, Any], dict[str, Any]]  # (episode line, episode log)


def episode_seed(config_seed: int, episode_id: str) -> int:
    """The seed of one episode: independent of order, worker and the rest of the run."""
    return zlib.crc32(f"{config_seed}:{episode_id}".encode())


def loaded_from_text(text: str, label: str = "config.yaml") -> LoadedConfig:
    """A ``LoadedConfig`` from effective-config YAML (``agent.config.to_yaml``)."""
    from pathlib import Path

    tree = safe_yaml(text, label) or {}
    raw = RawConfig(tree, {}, fallback=f"the effective config ({label})")
    return LoadedConfig(build_dataclass(NesyConfig, raw), raw, Path(label))


def suite_oracles(oracles: list[str], suite: str) -> list[str]:
    """The oracles a suite uses: ALFRED episodes have no Commander."""
    return [o for o in oracles if suite == "tatc" or not o.startswith("commander:")]


def limits_for(config: NesyConfig, suite: str) -> tuple[int, int]:
    steps, failed = LIMITS[suite]
    evaluation = config.evaluation
    return (steps if evaluation.max_steps is None else evaluation.max_steps,
            failed if evaluation.max_failed_actions is None else evaluation.max_failed_actions)


def reseed(seed: int) -> None:
    random.seed(seed)
    try:
        import numpy as np

        np.random.seed(seed % 2**32)
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.manual_seed(seed)


class EpisodeWorker:
    """Builds a Simulator and the config's agents once; runs episodes one at a time."""

    def __init__(self, config_text: str, suite: str = "tatc", worker_index: int = 0) -> None:
        from agent.pairing import build_agents
        from simulator.sim import Simulator

        self.worker_index = worker_index
        self.loaded = loaded_from_text(config_text)
        self.config = self.loaded.config
        self.agents = build_agents(self.loaded, with_commander=suite == "tatc")
        self.agents.oracles = suite_oracles(self.agents.oracles, suite)
        self.sim = Simulator(self.config.simulator)

    def run(self, episode: Episode | dict[str, Any]) -> Outcome:
        if isinstance(episode, dict):
            episode = episode_from_dict(episode)
        seed = episode_seed(self.config.seed, episode.episode_id)
        reseed(seed)
        started = time.perf_counter()
        try:
            result, log = run_episode(
                episode, self.agents, self.sim, limits_for(self.config, episode.suite),
                self.config.evaluation.step_instructions, seed, worker_index=self.worker_index,
            )
            row = result.to_dict()
        except Exception as exc:  # an agent's bug: a failed episode, visible in the results
            row, log = self._crashed(episode, exc, time.perf_counter() - started)
        row["seed"] = seed
        # how the episode was simulated (click resolution depends on rendering): for replays
        log["simulator"] = dataclasses.asdict(self.config.simulator)
        return row, log

    def _crashed(self, episode: Episode, exc: Exception, elapsed: float) -> Outcome:
        satisfied, total = _goal_conditions(self.sim, episode)
        metrics = episode_metrics(False, satisfied, total, episode.expert_actions, 0)
        result = EpisodeResult(
            episode.episode_id, episode.suite, episode.split, episode.task_type, episode.floor_plan,
            False, satisfied, total, 0, 0, 0, 0, episode.expert_actions,
            f"exception:{type(exc).__name__}", list(self.agents.oracles), round(elapsed, 3),
            metrics.to_dict(),
        )
        row = result.to_dict()
        row["error"] = f"{type(exc).__name__}: {exc}"
        log = {"episode": episode_to_dict(episode), "interactions": [], "result": row,
               "traceback": traceback.format_exc()}
        return row, log

    def close(self) -> None:
        self.sim.close()


def _goal_conditions(sim: Any, episode: Episode) -> tuple[int, int]:
    """Goal conditions of the state the episode crashed in (0/0 if even that fails)."""
    try:
        _, satisfied, total = goal_conditions(sim, episode, episode_task(episode))
        return satisfied, total
    except Exception:
        return 0, 0


# ----------------------------------------------------------------------------- processes
_WORKER: EpisodeWorker | None = None
_INIT_ERROR: Exception | None = None
_SLOT: tuple[Any, Any, int] | None = None  # (pids, running, index): shared with the parent
IDLE = -1


def watch_parent() -> None:
    """Exit this process the moment its parent process ends (a daemon thread waits on the
    parent's sentinel, a pipe that the parent's death closes)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=wait, name="nesy-watch-parent", daemon=True).start()


def init_process(config_text: str, suite: str, counter: Any, pids: Any, running: Any) -> None:
    """``ProcessPoolExecutor`` initializer: watch the parent, take the next worker index
    (``counter``), note this pid in ``pids``; one thread per library. A failure to build the
    agents is kept and raised by the first episode (a failing initializer would only break
    the pool without saying why)."""
    global _WORKER, _INIT_ERROR, _SLOT
    watch_parent()
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    with counter.get_lock():
        index = counter.value
        counter.value += 1
    pids[index] = os.getpid()
    running[index] = IDLE
    _SLOT = (pids, running, index)
    try:
        _WORKER = EpisodeWorker(config_text, suite, worker_index=index)
    except Exception as exc:
        _INIT_ERROR = exc


def run_in_process(episode: dict[str, Any], position: int) -> Outcome:
    """Run one episode; ``position`` (its index in the run's to-do list) is recorded in this
    worker's slot while it runs."""
    if _INIT_ERROR is not None:
        raise _INIT_ERROR
    assert _WORKER is not None and _SLOT is not None, "init_process was not called"
    _, running, index = _SLOT
    running[index] = position
    try:
        return _WORKER.run(episode)
    finally:
        running[index] = IDLE
