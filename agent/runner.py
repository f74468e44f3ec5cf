"""The episode runner: pairs a Commander with a Follower on one episode and scores it.

TATC: turns alternate, the Commander first (it may speak or declare the task done), then
the Follower takes one action (a motion, an interaction or an utterance). ALFRED: no
Commander; the Follower is briefed with the human goal (and step instructions if the
config says so). An episode ends when the Commander sees the task done and stops, when the
Follower says Stop (and, in TATC, Progress Check agrees), or at a limit (TEACh: 1000
Follower actions, 30 failed; ALFRED: 1000, 10). Every interaction goes into a
TEACh-game-like log that is enough to replay the episode.

The Follower is reset with a ``FollowerBriefing`` and the run's ``ModuleContext`` (camera
intrinsics, rendering, the episode's seed, the worker index); during its turns the
simulator sits behind the firewall (``agent.firewall``), and modules named ``oracle-*``
get a read-only ``OracleAccess`` instead.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from agent.firewall import guarded, unguarded
from agent.metrics import episode_metrics
from contracts.agents import CommanderContext, FollowerAction
from contracts.observation import COMMANDER, FOLLOWER, FollowerBriefing, ModuleContext
from simulator.alfred.goals import goal_progress
from simulator.episodes.model import POSITION_REACH, Episode, episode_to_dict
from simulator.oracle import OracleAccess
from simulator.sim import Simulator
from simulator.tasks import instantiate, load_task_library, progress_check

LIMITS = {"tatc": (1000, 30), "alfred": (1000, 10)}
QUESTION_MARK = "?"


@dataclass
class EpisodeResult:
    """One episode's outcome: the per-episode line of a results file."""

    episode_id: str
    suite: str
    split: str
    task_type: str
    floor_plan: str
    success: bool
    goal_conditions_satisfied: int
    goal_conditions_total: int
    steps: int
    failed_actions: int
    utterances: int
    questions: int
    expert_actions: int
    end_reason: str
    oracles: list[str]
    wall_seconds: float
    metrics: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Agents:
    """A Follower, an optional Commander, and the names of the oracles in use."""

    follower: Any
    commander: Any | None
    oracles: list[str]


class EpisodeLog:
    """TEACh-game-like record of an episode: every interaction with its result."""

    def __init__(self, episode: Episode) -> None:
        self.data: dict[str, Any] = {"episode": episode_to_dict(episode), "interactions": []}

    def add(self, agent_id: int, action: str, step: int, success: bool, error: str,
            target: dict | None = None, utterance: str = "", meant: str = "", doing: str = "",
            gave_up: str = "") -> None:
        entry = {"agent_id": agent_id, "action": action, "time_step": step, "success": success,
                 "errorMessage": error}
        if utterance:
            entry["utterance"] = utterance
        if target:
            entry.update({k: v for k, v in target.items() if k in ("x", "y", "objectId", "receptacleObjectId")})
        if meant:
            entry["meant"] = meant
        if doing:
            entry["doing"] = doing
        if gave_up:
            entry["gave_up"] = gave_up
        self.data["interactions"].append(entry)


def episode_task(episode: Episode):
    """The TEACh task instance of a TATC episode (None for ALFRED)."""
    if episode.suite != "tatc":
        return None
    return instantiate(load_task_library(), episode.task_name, episode.task_params)


def goal_conditions(sim: Simulator, episode: Episode, task) -> tuple[bool, int, int]:
    """(success, satisfied, total) of the episode's goal in the current state. An ALFRED-L
    episode's end position is one more condition (``nav-only``: the only one)."""
    if task is not None:
        report = progress_check(sim.world, task)
        return bool(report["success"]), int(report["goal_conditions_satisfied"]), int(report["goal_conditions_total"])
    success, satisfied, total = True, 0, 0
    if episode.variant != "nav-only":
        progress = goal_progress(sim.world, episode.task_type, episode.pddl_params)
        success, satisfied, total = progress.success, progress.satisfied, progress.total
    if episode.final_position is not None:
        there = final_distance(sim, episode) <= POSITION_REACH
        success, satisfied, total = success and there, satisfied + there, total + 1
    return success, satisfied, total


def final_distance(sim: Simulator, episode: Episode) -> float:
    """Metres from the Follower to where an ALFRED-L episode must end (``final_position``)."""
    follower = sim.world.agents[FOLLOWER]
    return math.hypot(follower.x - episode.final_position[0], follower.z - episode.final_position[1])


def run_episode(
    episode: Episode, agents: Agents, sim: Simulator, limits: tuple[int, int] | None = None,
    give_step_instructions: bool = False, seed: int = 0, worker_index: int = 0,
) -> tuple[EpisodeResult, dict[str, Any]]:
    """Run one episode; returns its result and its log. ``sim`` may already be firewalled
    (``agent.firewall.guarded``); it is put behind the firewall if not."""
    started = time.perf_counter()
    max_steps, max_failed = limits or LIMITS[episode.suite]
    task = episode_task(episode)
    sim = guarded(sim)
    observation = sim.reset(episode.start)
    log = EpisodeLog(episode)
    steps_given = give_step_instructions or bool(episode.variant)  # ALFRED-L is told step by step
    briefing = FollowerBriefing(episode.suite, episode.goal_text, episode.step_texts if steps_given else ())
    context = ModuleContext(sim.camera_intrinsics(), sim.rendering, seed, worker_index)
    access = OracleAccess(unguarded(sim), episode, task)
    for module in getattr(agents.follower, "oracle_modules", lambda: [])():
        module.attach_oracle(access)
    with sim.follower_turn():
        agents.follower.reset(briefing, context)
    commander = agents.commander if episode.suite == "tatc" else None
    if commander is not None:
        commander.reset(CommanderContext(sim, task, episode, seed))
    steps = failed = utterances = questions = turns = 0
    end_reason = "max_steps"
    max_turns = 2 * max_steps + 10  # utterances and refused Stops take turns but no steps
    while steps < max_steps:
        turns += 1
        if turns > max_turns:
            end_reason = "max_turns"
            break
        if commander is not None:
            turn = commander.turn(sim.observe(COMMANDER))
            for text in turn.utterances:
                result = sim.say(COMMANDER, text)
                log.add(COMMANDER, "Text", sim.steps, result.success, result.error_message, utterance=text)
                utterances += 1
            if turn.done:
                end_reason = "commander_done"
                break
        observation = sim.observe(FOLLOWER) if commander is not None else observation
        with sim.follower_turn():
            action: FollowerAction = agents.follower.act(observation)
        if action.action == "Stop":
            log.add(FOLLOWER, "Stop", sim.steps, True, "", gave_up=action.gave_up)
            done, _, _ = goal_conditions(sim, episode, task)
            if done or commander is None:
                end_reason = "follower_stop"
                break
            observation = sim.observe(FOLLOWER)
            continue
        if action.action == "Text":
            result = sim.say(FOLLOWER, action.utterance)
            log.add(FOLLOWER, "Text", sim.steps, result.success, result.error_message, utterance=action.utterance)
            utterances += 1
            questions += action.utterance.strip().endswith(QUESTION_MARK)
            observation = result.observation
            continue
        result = sim.step(FOLLOWER, action.action, **action.target)
        log.add(FOLLOWER, action.action, sim.steps, result.success, result.error_message, action.target,
                meant=action.meant, doing=action.doing, gave_up=action.gave_up)
        observation = result.observation
        steps += 1
        failed += not result.success
        if failed >= max_failed:
            end_reason = "max_failed"
            break
    success, satisfied, total = goal_conditions(sim, episode, task)
    metrics = episode_metrics(success, satisfied, total, episode.expert_actions, steps).to_dict()
    counts = getattr(agents.follower, "episode_counts", None)  # a Follower's own counts (the modular one's search steps)
    metrics.update(counts() if callable(counts) else {})
    if episode.final_position is not None:  # ALFRED-L: how far from where it had to end
        metrics["final_distance"] = round(final_distance(sim, episode), 3)
    result = EpisodeResult(
        episode.episode_id, episode.suite, episode.split, episode.task_type, episode.floor_plan,
        success, satisfied, total, steps, failed, utterances, questions, episode.expert_actions,
        end_reason, list(agents.oracles), round(time.perf_counter() - started, 3), metrics,
    )
    log.data["result"] = result.to_dict()
    return result, log.data
