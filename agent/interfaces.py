"""The small interfaces between the episode runner and the agents it pairs.

A ``Follower`` (agent 1) is told at the start only what the benchmark tells it
(``FollowerBriefing``: for ALFRED the human goal and, if configured, the step
instructions; for TATC nothing but that a Commander will talk to it), then maps each
``Observation`` (odometry, last action result, new utterances, frames when rendering) to a
``FollowerAction``. It never sees the simulator. A ``Commander`` (agent 0) is an oracle by
definition: it gets a ``CommanderContext`` with the simulator (Progress Check and
SearchObject read ground truth) and, each turn, may say something or declare the task done.

Ground truth reaches Follower-side modules only through ``OracleAccess``, handed by the
runner to modules whose registered names start with ``oracle``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from simulator.sim import Observation, Simulator


@dataclass(frozen=True)
class FollowerAction:
    """An action by name (TEACh or ALFRED vocabulary) with its target, or an utterance."""

    action: str
    target: dict[str, Any] = field(default_factory=dict)
    utterance: str = ""

    @classmethod
    def say(cls, text: str) -> FollowerAction:
        return cls("Text", {}, text)


@dataclass(frozen=True)
class FollowerBriefing:
    episode_id: str
    suite: str  # "tatc" | "alfred"
    goal_text: str = ""
    step_texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommanderTurn:
    """What the Commander does in its turn: utterances, and/or end the episode (task done)."""

    utterances: tuple[str, ...] = ()
    done: bool = False


@dataclass
class CommanderContext:
    """The Commander's oracle knowledge: the simulator, the task and the episode."""

    sim: Simulator
    task: Any
    episode: Any
    seed: int = 0


@runtime_checkable
class Follower(Protocol):
    def reset(self, briefing: FollowerBriefing) -> None: ...

    def act(self, observation: Observation) -> FollowerAction: ...


@runtime_checkable
class Commander(Protocol):
    def reset(self, context: CommanderContext) -> None: ...

    def turn(self, observation: Observation) -> CommanderTurn: ...


class OracleModule:
    """Base of Follower-side modules named ``oracle-*``: the runner hands them ground truth."""

    oracle: OracleAccess | None = None

    def attach_oracle(self, access: OracleAccess) -> None:
        self.oracle = access


class OracleAccess:
    """Ground truth for modules named ``oracle-*`` (and only for them): listed in results."""

    def __init__(self, sim: Simulator, episode: Any, task: Any = None) -> None:
        self.sim = sim
        self.episode = episode
        self.task = task

    @property
    def world(self):
        return self.sim.world

    def metadata(self, agent_id: int = 1) -> dict[str, Any]:
        return self.sim.metadata(agent_id)
