"""The agents' contract with the episode runner: ``Follower`` and ``Commander``.

A ``Follower`` (agent 1) is told at the start only what the benchmark tells it (a
``FollowerBriefing``) and the run's ``ModuleContext``, then maps each ``Observation`` to a
``FollowerAction``; it never sees the simulator. A ``Commander`` (agent 0) is an oracle by
definition: its ``CommanderContext`` holds the simulator (Progress Check and SearchObject
read ground truth) and, each turn, it may speak or declare the task done.

Follower-side modules that need ground truth subclass ``OracleModule``, must be registered
under a name starting with ``oracle``, and receive a read-only ``OracleAccess`` from the
runner (``simulator.oracle``); every result lists them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from contracts.observation import FollowerBriefing, ModuleContext, Observation


@dataclass(frozen=True)
class FollowerAction:
    """An action by name (TEACh or ALFRED vocabulary) with its target, or an utterance."""

    action: str
    target: dict[str, Any] = field(default_factory=dict)
    utterance: str = ""
    # the object type a click is meant for, as the Follower believes it (a put's: the
    # receptacle); written to the episode log for `nesy clicks`, never read by the simulator
    meant: str = ""
    # the plan step the action serves ("search Plate", "PickupObject Lettuce#2"), as the
    # Follower words it; written to the episode log for `nesy timeline`, never read by the simulator
    doing: str = ""
    # the plan steps given up since the Follower's last action, each with the skill's reason
    # ("PickupObject Plate#1: Plate#1 is unreachable: ..."), "; "-joined; logged like ``doing``
    gave_up: str = ""

    @classmethod
    def say(cls, text: str) -> FollowerAction:
        return cls("Text", {}, text)


@dataclass(frozen=True)
class CommanderTurn:
    """What the Commander does in its turn: utterances, and/or end the episode (task done)."""

    utterances: tuple[str, ...] = ()
    done: bool = False


@dataclass
class CommanderContext:
    """The Commander's oracle knowledge: the simulator, the task and the episode."""

    sim: Any
    task: Any
    episode: Any
    seed: int = 0


class Follower(ABC):
    @abstractmethod
    def reset(self, briefing: FollowerBriefing, context: ModuleContext) -> None:
        """Start an episode."""

    @abstractmethod
    def act(self, observation: Observation) -> FollowerAction:
        """The next action (or utterance, or Stop)."""


class Commander(ABC):
    @abstractmethod
    def reset(self, context: CommanderContext) -> None:
        """Start an episode."""

    @abstractmethod
    def turn(self, observation: Observation) -> CommanderTurn:
        """Speak and/or declare the task done."""


class OracleModule:
    """Base of Follower-side modules named ``oracle-*``: the runner hands them a read-only
    ``OracleAccess`` (ground truth) before every episode."""

    oracle: Any = None

    def attach_oracle(self, access: Any) -> None:
        self.oracle = access
